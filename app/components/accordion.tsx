import * as AccordionPrimitive from "@radix-ui/react-accordion";
import type { ReactNode } from "react";
import { ChevronDownIcon } from "./icons";

export interface AccordionItem {
  id: string;
  heading: string;
  content: ReactNode;
}

/**
 * A disclosure list on Radix UI's Accordion primitive, where any number of items can be open at
 * once (docs/product.md §5: the FAQ lets several answers stay open). Radix ties each heading's button to its
 * panel (aria-controls, a region named by the button) and moves between headings with the arrow,
 * Home and End keys. The headings are h2: the list sits right under the page's h1. Closed answers
 * stay in the page (hidden), so the server-rendered FAQ holds every answer.
 */
export function Accordion({ items }: { items: AccordionItem[] }) {
  return (
    <AccordionPrimitive.Root type="multiple" className="divide-y divide-gray-200 rounded-xl border border-gray-200 bg-white shadow-sm">
      {items.map((item) => (
        <AccordionPrimitive.Item key={item.id} value={item.id}>
          <AccordionPrimitive.Header asChild>
            <h2>
              <AccordionPrimitive.Trigger className="group flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-medium text-gray-900 hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600">
                {item.heading}
                <ChevronDownIcon className="h-5 w-5 shrink-0 text-gray-500 transition-transform group-data-[state=open]:rotate-180" />
              </AccordionPrimitive.Trigger>
            </h2>
          </AccordionPrimitive.Header>
          {/* forceMount keeps a closed answer in the page; Radix then leaves hiding it to us. */}
          <AccordionPrimitive.Content forceMount className="px-5 pb-5 text-gray-600 data-[state=closed]:hidden">
            {item.content}
          </AccordionPrimitive.Content>
        </AccordionPrimitive.Item>
      ))}
    </AccordionPrimitive.Root>
  );
}
