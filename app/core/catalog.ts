/**
 * What the shop sells, as the data model records it (docs/decisions/021): the book types (the D1
 * schema's enum) and the shape of a computed price, kept with every quote and order.
 */

/** The two books on sale; the D1 schema's enum is this list. */
export const BOOK_TYPES = ["standard", "premium"] as const;
export type BookType = (typeof BOOK_TYPES)[number];

/**
 * A price as the server computed it (app/lib/pricing.ts), recorded with the quote and the order.
 * All amounts in minor units (pence).
 */
export interface Pricing {
  plan: BookType;
  /** Photos printed, one per page. */
  photos: number;
  /** Photos plus the title and dedication pages. */
  pages: number;
  unitPrice: number;
  quantity: number;
  /** unitPrice × quantity. */
  basePrice: number;
  processingFee: number;
  shipping: number;
  total: number;
  currency: string;
}
