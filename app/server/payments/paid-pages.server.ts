/**
 * The pages a payment pays for (docs/decisions/018). When a payment attempt claims an
 * order, the order records exactly which pages it is for (payments.server.ts). From then on the
 * book's pages are locked: every change of its photos, selection or detail levels is refused
 * (409) while that checkout can still be paid, and for good once the book is paid. The lock is
 * checked inside each changing statement, so a claim cannot slip between a check and a write.
 * The payment's confirmation compares the pages again, and the print job prints the recorded ones.
 */
import { and, asc, eq, gt, isNotNull, isNull, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { API_MESSAGES, CREATE_BOOK_MESSAGES } from "~/lib/customer-copy";
import { PAYMENT_CLAIM_STALE_SECONDS } from "~/lib/shop-rules";
import { drawnLevel } from "~/core/contracts/sketch";
import { pageDetailLevel } from "~/server/books/books.server";
import type { Database } from "~/core/db/database.server";
import { books, images, orders, type PrintPage } from "~/core/db/schema.server";
import { jsonError } from "~/server/http/http.server";

/**
 * An order whose checkout can still be paid: `paying` with the provider's page open, or claimed
 * moments ago while the provider is being called. Whatever is `paying` but not this may be
 * claimed again by a new attempt (payments.server.ts claimOrder), and no longer locks its book.
 */
export function paymentIsOpen(now: Date): SQL {
  const staleClaim = new Date(now.getTime() - PAYMENT_CLAIM_STALE_SECONDS * 1000);
  return and(
    eq(orders.paymentStatus, "paying"),
    or(
      and(isNotNull(orders.paymentUrl), gt(orders.paymentExpiresAt, now)),
      and(isNull(orders.paymentUrl), gt(orders.paymentClaimedAt, staleClaim)),
    ),
  )!;
}

/**
 * Whether a book's pages are locked: it is paid for, or one of its orders has a checkout open.
 * `bookId` is a value, or a column of the statement's own table; never a column of `books` or
 * `orders`, whose names the subqueries below would take for their own rows.
 */
export function bookPagesLocked(bookId: SQLWrapper | number, now: Date): SQL {
  return sql`(EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.bookId} = ${bookId} AND (${orders.paymentStatus} = 'paid' OR ${paymentIsOpen(now)}))
    OR EXISTS (SELECT 1 FROM ${books} WHERE ${books.id} = ${bookId} AND ${books.status} = 'ordered'))`;
}

export function bookPagesEditable(bookId: SQLWrapper | number, now: Date): SQL {
  return sql`NOT ${bookPagesLocked(bookId, now)}`;
}

/** Why a book's pages cannot change now: paid for, a checkout open, or null when they can. */
export async function pagesLock(db: Database, bookId: number, now = new Date()): Promise<"ordered" | "paying" | null> {
  const [book] = await db.select({ status: books.status }).from(books).where(eq(books.id, bookId));
  const held = await db
    .select({ paymentStatus: orders.paymentStatus })
    .from(orders)
    .where(and(eq(orders.bookId, bookId), or(eq(orders.paymentStatus, "paid"), paymentIsOpen(now))));
  if (book?.status === "ordered" || held.some((order) => order.paymentStatus === "paid")) return "ordered";
  return held.length > 0 ? "paying" : null;
}

/** A thrown 409 with the reason when the book's pages are locked. */
export async function requirePagesEditable(db: Database, bookId: number, now = new Date()): Promise<void> {
  const lock = await pagesLock(db, bookId, now);
  if (lock === "ordered") throw jsonError(409, API_MESSAGES.bookAlreadyOrdered);
  if (lock === "paying") throw jsonError(409, CREATE_BOOK_MESSAGES.pagesLockedWhilePaying);
}

/**
 * The pages the book would print now, in book order: each selected photo at the level it is
 * drawn at, with its sketch once that level is drawn. A page not drawn yet (a create-book order
 * is paid before its photos are drawn) or being redrawn has no key: it is printed as drawn at its
 * level, by whichever engine draws it, so a deploy between checkout and print changes nothing.
 * A page whose sketch failed is not a page of the book: it is neither priced nor paid for.
 */
export async function currentBookPages(db: Database, bookId: number): Promise<PrintPage[]> {
  return (await selectedPages(db, bookId)).filter((page) => !page.failed).map(({ failed: _, ...page }) => page);
}

/**
 * The book's pages now, to compare with the `paid` ones: as currentBookPages, except that a paid
 * page whose drawing failed after the checkout opened is still the page paid for. A drawing that
 * fails is not a change the customer made; the print job draws such a page again or stops the
 * order for the desk (docs/decisions/028).
 */
export async function bookPagesComparedWith(db: Database, bookId: number, paid: PrintPage[]): Promise<PrintPage[]> {
  const paidIds = new Set(paid.map((page) => page.imageId));
  return (await selectedPages(db, bookId))
    .filter((page) => !page.failed || paidIds.has(page.imageId))
    .map(({ failed: _, ...page }) => page);
}

async function selectedPages(db: Database, bookId: number): Promise<(PrintPage & { failed: boolean })[]> {
  const rows = await db
    .select({ id: images.id, status: images.processingStatus, sketchKey: images.sketchKey, detailLevel: pageDetailLevel })
    .from(images)
    .where(and(eq(images.bookId, bookId), eq(images.isSelected, true)))
    .orderBy(asc(images.id));
  return rows.map((row) => {
    const drawn = row.status === "completed" && row.sketchKey !== null && drawnLevel(row.sketchKey) === row.detailLevel;
    return { imageId: row.id, detailLevel: row.detailLevel, sketchKey: drawn ? row.sketchKey : null, failed: row.status === "failed" };
  });
}

/**
 * Whether the book's pages now are the ones paid for: the same photos, in the same order, at the
 * same levels, and each page that was drawn when paid for still that drawing.
 */
export function samePages(paid: PrintPage[], now: PrintPage[]): boolean {
  return (
    paid.length === now.length &&
    paid.every(
      (page, i) =>
        page.imageId === now[i].imageId &&
        page.detailLevel === now[i].detailLevel &&
        (page.sketchKey === null || page.sketchKey === now[i].sketchKey),
    )
  );
}

/**
 * A short fingerprint of a page list. It travels with the provider's checkout (Stripe metadata
 * holds 500 characters, not 50 pages), so a payment says which pages it was opened for.
 */
export async function pagesDigest(pages: PrintPage[]): Promise<string> {
  const canonical = JSON.stringify(pages.map((page) => [page.imageId, page.detailLevel, page.sketchKey]));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
