/**
 * What the app Worker tells the sketch Worker's print job (workers/sketch/pdf/print-jobs.ts).
 * Types and a key helper only, so the app can import it without pulling the PDF writer into its
 * bundle.
 */

/** One queue message per paid order (print-jobs): build its print-ready PDF. */
export interface PrintJob {
  orderId: number;
}

export const PRINT_PREFIX = "print/";

/** One PDF per order, whatever the quantity: the printer prints it `quantity` times. */
export function printKeyFor(orderNumber: string): string {
  return `${PRINT_PREFIX}${orderNumber}.pdf`;
}
