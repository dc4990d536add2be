/**
 * Price quotes: the server prices a book for a delivery address and keeps the answer for a
 * while under an unguessable id. An order names a quote and copies its prices; prices sent by a
 * browser are never read (docs/decisions/002).
 */
import { and, eq } from "drizzle-orm";
import type { QuoteResponse } from "~/lib/api-client";
import {
  API_MESSAGES,
  CURRENCY,
  DEFAULT_BOOK_TYPE,
  PLANS,
  PROCESSING_FEE,
  QUOTE_TTL_SECONDS,
  SHIPPING_FEE,
} from "~/lib/constants";
import type { Database } from "./db.server";
import { quotes, type Book, type Pricing, type Quote } from "./db/schema";
import { jsonError } from "./http.server";

export interface DeliveryAddress {
  country: string;
  zipCode: string;
}

export function priceBook(book: Book): Pricing {
  const basePrice = PLANS[book.bookType ?? DEFAULT_BOOK_TYPE].price;
  return {
    basePrice,
    processingFee: PROCESSING_FEE,
    shipping: SHIPPING_FEE,
    total: basePrice + PROCESSING_FEE + SHIPPING_FEE,
    currency: CURRENCY,
  };
}

export async function createQuote(
  db: Database,
  book: Book,
  address: DeliveryAddress,
  now = new Date(),
): Promise<QuoteResponse> {
  const pricing = priceBook(book);
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
