/**
 * Price quotes: the server prices a book for a delivery address and keeps the answer for a
 * while under an unguessable id. An order names a quote and copies its prices; prices sent by a
 * browser are never read (docs/decisions/002).
 */
import { and, count, eq, ne } from "drizzle-orm";
import type { QuoteResponse } from "~/lib/api-types";
import { API_MESSAGES } from "~/lib/customer-copy";
import { QUOTE_TTL_SECONDS } from "~/lib/shop-rules";
import { type BookType } from "~/core/catalog";
import { photoRangeProblem, planForPhotoCount, priceBook } from "~/lib/pricing";
import type { Database } from "~/core/db/database.server";
import { images, quotes, type Book, type Pricing, type Quote } from "~/core/db/schema.server";
import { jsonError } from "~/server/http/http.server";

export interface DeliveryAddress {
  country: string;
  zipCode: string;
}

/**
 * The photos a book prints: its selected images, less any whose sketch failed. A create-book
 * order selects every photo before it is drawn, so a photo that then fails to draw stays
 * selected; it is never priced, nor recorded as a paid page (paid-pages.server.ts).
 */
export async function printedPhotoCount(db: Database, bookId: number): Promise<number> {
  const [{ selected }] = await db
    .select({ selected: count() })
    .from(images)
    .where(and(eq(images.bookId, bookId), eq(images.isSelected, true), ne(images.processingStatus, "failed")));
  return selected;
}

/** The plan's photo range (docs/product.md §3), refused with its texts; else the price. */
export function priceWithinPlan(plan: BookType, photos: number, quantity: number): Pricing {
  const problem = photoRangeProblem(plan, photos);
  if (problem) throw jsonError(400, problem.description);
  return priceBook(plan, photos, quantity);
}

/** One copy of the book as it is now: the chosen plan, else the plan its photo count fits. */
export async function priceVisitorBook(db: Database, book: Book): Promise<Pricing> {
  if (book.status === "ordered") throw jsonError(409, API_MESSAGES.bookAlreadyOrdered);
  const photos = await printedPhotoCount(db, book.id);
  if (photos === 0) throw jsonError(400, API_MESSAGES.noImagesSelected);
  return priceWithinPlan(book.bookType ?? planForPhotoCount(photos), photos, 1);
}

export async function createQuote(
  db: Database,
  book: Book,
  address: DeliveryAddress,
  now = new Date(),
): Promise<QuoteResponse> {
  const pricing = await priceVisitorBook(db, book);
  const [quote] = await db
    .insert(quotes)
    .values({
      id: crypto.randomUUID(),
      bookId: book.id,
      country: address.country,
      zipCode: normalizeZipCode(address.zipCode),
      pricing,
      expiresAt: new Date(now.getTime() + QUOTE_TTL_SECONDS * 1000),
    })
    .returning();
  return { success: true, pricing: quote.pricing, quoteId: quote.id };
}

/**
 * The quote priced the photos the book had then; if the selection changed since, the price is
 * no longer the book's (409, ask for a new quote). Also re-checks the plan's photo range.
 */
export async function requirePhotoCountOfQuote(db: Database, bookId: number, pricing: Pricing): Promise<void> {
  const photos = await printedPhotoCount(db, bookId);
  if (photos !== pricing.photos) throw jsonError(409, API_MESSAGES.bookChangedSinceQuote);
  const problem = photoRangeProblem(pricing.plan, photos);
  if (problem) throw jsonError(400, problem.description);
}

/** "sw1a 1aa" and "SW1A  1AA" are the same postcode. */
export function normalizeZipCode(zipCode: string): string {
  return zipCode.trim().replace(/\s+/g, " ").toUpperCase();
}

/**
 * The quote an order may use: of this very book (a quote of another book, even the visitor's
 * own, is refused), not expired, and for the address being delivered to.
 */
export async function requireUsableQuote(
  db: Database,
  book: Book,
  quoteId: string,
  address: DeliveryAddress,
  now = new Date(),
): Promise<Quote> {
  const quote = await db.query.quotes.findFirst({
    where: and(eq(quotes.id, quoteId), eq(quotes.bookId, book.id)),
  });
  if (!quote) throw jsonError(400, API_MESSAGES.quoteNotFound);
  if (quote.expiresAt.getTime() <= now.getTime()) throw jsonError(409, API_MESSAGES.quoteExpired);
  if (quote.country !== address.country || quote.zipCode !== normalizeZipCode(address.zipCode)) {
    throw jsonError(409, API_MESSAGES.quoteAddressMismatch);
  }
  return quote;
}
