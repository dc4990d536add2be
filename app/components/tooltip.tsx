/**
 * A small tooltip on Radix UI's Tooltip primitive, with the timing of docs/product.md §5 from
 * TooltipProvider: it opens 700 ms after the pointer rests on its trigger, at once on keyboard
 * focus, and at once when another tooltip closed less than 300 ms ago (so moving along a row of
 * icons does not wait again for each one). Escape closes it; the text is tied to the trigger with
 * aria-describedby while open, and the trigger keeps its own accessible name.
 */
import * as TooltipPrimitive from "@radix-ui/react-tooltip";
import type { ReactElement, ReactNode } from "react";
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "~/lib/shop-rules";

/** The gap between a tooltip and its trigger. */
const TOOLTIP_OFFSET_PX = 8;

/**
 * Once for the whole page (root.tsx): the skip delay is shared by every tooltip on it. Our
 * tooltips repeat a short label, so they close as soon as the pointer leaves the trigger
 * (disableHoverableContent): otherwise the pointer's way to the next icon counts as a way to
 * this tooltip, and the next icon would not open at once.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_OPEN_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS} disableHoverableContent>
      {children}
    </TooltipPrimitive.Provider>
  );
}

interface TooltipProps {
  label: string;
  /** One focusable element (a link or a button); it receives aria-describedby. */
  children: ReactElement;
  side?: "top" | "bottom";
}

export function Tooltip({ label, children, side = "top" }: TooltipProps) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          side={side}
          sideOffset={TOOLTIP_OFFSET_PX}
          className="pointer-events-none z-40 max-w-56 rounded-md bg-gray-900 px-2.5 py-1.5 text-center text-xs font-medium text-white shadow-lg"
        >
          {label}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
