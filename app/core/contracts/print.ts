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

/**
 * One queue message per paid order whose print files exist (print-submissions, consumed by the
 * app Worker): send it to the print partner (docs/decisions/028).
 */
export interface PrintSubmission {
  orderId: number;
}

/** The book's cover, a separate PDF as the print partner asks. */
export function coverKeyFor(orderNumber: string): string {
  return `${PRINT_PREFIX}${orderNumber}-cover.pdf`;
}

/**
 * The print partner's interior: the same pages single-sided, each followed by a blank back
 * (decision 028). The customer and the desk get the plain PDF (printKeyFor).
 */
export function partnerInteriorKeyFor(orderNumber: string): string {
  return `${PRINT_PREFIX}${orderNumber}-interior.pdf`;
}

/** Pages of the partner's interior for a book of `sketchPages` pictures: title, dedication, each picture, each with its blank back. */
export function partnerInteriorPageCount(sketchPages: number): number {
  return 2 * (2 + sketchPages);
}

/** A cover's size in points, bleed included. */
export interface CoverSize {
  widthPt: number;
  heightPt: number;
}
