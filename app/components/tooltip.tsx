/**
 * A small tooltip with SPEC section 9's timing: it opens 700 ms after the pointer rests on its
 * trigger, at once on keyboard focus, and at once when another tooltip closed less than 300 ms
 * ago (so moving along a row of icons does not wait again for each one). Escape closes it.
 * The text is tied to the trigger with aria-describedby; the trigger keeps its own accessible name.
 */
import { cloneElement, useEffect, useId, useRef, useState, type ReactElement } from "react";
import { tooltipOpenDelay } from "~/lib/ui-timing";

// One page has one pointer: the skip delay is shared by every tooltip on it.
let lastTooltipClosedAt: number | null = null;

interface TooltipProps {
  label: string;
  /** One focusable element (a link or a button); it receives aria-describedby. */
  children: ReactElement;
  side?: "top" | "bottom";
}

export function Tooltip({ label, children, side = "top" }: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const openTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelPendingOpen = () => {
    if (openTimer.current !== null) clearTimeout(openTimer.current);
    openTimer.current = null;
  };
  const show = (delayMs: number) => {
    cancelPendingOpen();
    if (delayMs === 0) setOpen(true);
    else openTimer.current = setTimeout(() => setOpen(true), delayMs);
  };
  const hide = () => {
    cancelPendingOpen();
    if (open) lastTooltipClosedAt = Date.now();
    setOpen(false);
  };

  useEffect(() => cancelPendingOpen, []);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") hide();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <span
      className="relative inline-flex"
      onPointerEnter={(event) => {
        if (event.pointerType !== "touch") show(tooltipOpenDelay(Date.now(), lastTooltipClosedAt));
      }}
      onPointerLeave={hide}
      onPointerDown={hide}
      onFocus={() => show(0)}
      onBlur={hide}
    >
      {cloneElement(children, { "aria-describedby": open ? id : undefined })}
      {open ? (
        <span
          id={id}
          role="tooltip"
          className={`pointer-events-none absolute left-1/2 z-40 w-max max-w-56 -translate-x-1/2 rounded-md bg-gray-900 px-2.5 py-1.5 text-center text-xs font-medium text-white shadow-lg ${
            side === "top" ? "bottom-full mb-2" : "top-full mt-2"
          }`}
        >
          {label}
        </span>
      ) : null}
    </span>
  );
}
