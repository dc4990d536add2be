/**
 * The money rules, in one place for the browser (the create-book summary) and the server
 * (quotes, orders, checkouts). The server recomputes every price with these functions and never
 * reads a price a browser sent; the browser uses them only to show the same figures.
 */
import { CREATE_BOOK_MESSAGES } from "./customer-copy";
import { CURRENCY, EXTRA_PAGES, MIN_QUANTITY, PLANS, PROCESSING_FEE, SHIPPING_FEE } from "./shop-rules";
import type { BookType, Pricing } from "../core/catalog";

/** A printed book: the title page and the dedication page, then one page per photo. */
export function bookPageCount(photos: number): number {
  return photos + EXTRA_PAGES;
}

export type PhotoRangeProblem = { title: string; description: string };

/** docs/product.md §3: standard books take 5-15 photos, premium 16-50; null when `photos` fits. */
export function photoRangeProblem(plan: BookType, photos: number): PhotoRangeProblem | null {
  const { minPhotos, maxPhotos } = PLANS[plan];
  if (photos < minPhotos) {
    return { title: CREATE_BOOK_MESSAGES.notEnoughPhotosTitle, description: CREATE_BOOK_MESSAGES.notEnoughPhotos(plan, minPhotos) };
  }
  if (photos > maxPhotos) {
    return { title: CREATE_BOOK_MESSAGES.tooManyPhotosTitle, description: CREATE_BOOK_MESSAGES.tooManyPhotos(plan, maxPhotos) };
  }
  return null;
}

/**
 * The plan a book of the /book/{id} pages is priced as when nobody chose one: the plan whose
 * photo range holds the selected count (a book of 20 photos is a premium book).
 */
export function planForPhotoCount(photos: number): BookType {
  return photos > PLANS.standard.maxPhotos ? "premium" : "standard";
}

/** The plan a book is priced as: the one chosen on create-book, else the one its selection fits. */
export function planOfBook(chosen: BookType | null, selected: number): BookType {
  return chosen ?? planForPhotoCount(selected);
}

/**
 * What the preview page tells a visitor whose selection does not fit the plan (docs/product.md §5.8):
 * upload more when the book has too few usable photos (the "at least" text), select more when
 * it has enough but too few are selected, deselect when too many are (the "no more than" text).
 * `usable` counts the photos that are or will be sketches (not failed).
 */
export type PhotoCountAdvice =
  | { kind: "fits" }
  | { kind: "upload-more"; problem: PhotoRangeProblem; count: number }
  | { kind: "select-more"; count: number }
  | { kind: "deselect"; problem: PhotoRangeProblem; count: number };

export function photoCountAdvice(plan: BookType, selected: number, usable: number): PhotoCountAdvice {
  const problem = photoRangeProblem(plan, selected);
  if (!problem) return { kind: "fits" };
  const { minPhotos, maxPhotos } = PLANS[plan];
  if (selected > maxPhotos) return { kind: "deselect", problem, count: selected - maxPhotos };
  if (usable < minPhotos) return { kind: "upload-more", problem, count: minPhotos - usable };
  return { kind: "select-more", count: minPhotos - selected };
}

/** Price of `quantity` copies of a `plan` book of `photos` photos. Assumes the range was checked. */
export function priceBook(plan: BookType, photos: number, quantity: number): Pricing {
  if (!Number.isSafeInteger(quantity) || quantity < MIN_QUANTITY) throw new RangeError(`bad quantity ${quantity}`);
  const unitPrice = PLANS[plan].price;
  const basePrice = unitPrice * quantity;
  return {
    plan,
    photos,
    pages: bookPageCount(photos),
    unitPrice,
    quantity,
    basePrice,
    processingFee: PROCESSING_FEE,
    shipping: SHIPPING_FEE,
    total: basePrice + PROCESSING_FEE + SHIPPING_FEE,
    currency: CURRENCY,
  };
}
