/**
 * Retention (docs/product.md §10; docs/decisions/013 and 019), run daily by a Cron
 * Trigger. Every period is a constant of app/lib/shop-rules.ts that the privacy notice states too:
 * - a book never paid for goes after BOOK_RETENTION_DAYS, or UNQUOTED_BOOK_RETENTION_DAYS if it
 *   never got a quote: its originals, every engine's and level's sketches and region hierarchies
 *   leave R2 and the book leaves D1 (its images, quotes and unpaid orders with it).
 *   An order still `paying` PAYMENT_CONFIRMATION_GRACE_DAYS after its checkout closed will never
 *   be paid, so it does not keep its book;
 * - a paid book's files (originals, sketches, regions, print PDF) and its dedication go
 *   ORDERED_BOOK_FILES_RETENTION_DAYS after it shipped or was refunded, or BOOK_RETENTION_DAYS
 *   after payment if neither happened. The book row (title) and the order stay for the desk;
 * - a paid book's other orders, never paid, go UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS after the
 *   payment (unless a checkout of theirs may still complete);
 * - that order record (book row, order, quotes, emails) goes ORDER_RECORD_RETENTION_YEARS after
 *   payment, and a payment to review PAYMENT_PROBLEM_RETENTION_YEARS after it arrived;
 * - book data recorded on the create-book page that made no book goes after
 *   UNUSED_CHECKOUT_RETENTION_DAYS (a deleted book's checkout has lost its book by then too);
 * - R2 objects no row names are swept (app/server/jobs/orphan-sweep.server.ts).
 * Each step is bounded per run; what is left is done the next day. Objects go before rows, so a
 * run that dies halfway leaves the rows to find again.
 */
import { and, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import {
  BOOK_RETENTION_DAYS,
  ORDER_RECORD_RETENTION_YEARS,
  ORDERED_BOOK_FILES_RETENTION_DAYS,
  PAYMENT_CONFIRMATION_GRACE_DAYS,
  PAYMENT_PROBLEM_RETENTION_YEARS,
  UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS,
  UNQUOTED_BOOK_RETENTION_DAYS,
  UNUSED_CHECKOUT_RETENTION_DAYS,
} from "~/lib/shop-rules";
import { debugKeysFor, everyDerivedKeyOf } from "~/core/contracts/sketch";
import { coverKeyFor, partnerInteriorKeyFor } from "~/core/contracts/print";
import { database, type Database } from "~/core/db/database.server";
import { books, checkouts, images, orders, paymentProblems, uploads } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { sweepOrphanObjects, type SweepLimits } from "./orphan-sweep.server";

/** wrangler.toml [triggers]: daily at 03:00 UTC; every other schedule is the hourly cleanup. */
export const RETENTION_CRON = "0 3 * * *";

export interface RetentionLimits extends SweepLimits {
  /** Books looked at per round of each rule (D1 binds at most 100 values per statement). */
  booksPerRound: number;
  maxRounds: number;
}

export const RETENTION_LIMITS: RetentionLimits = { booksPerRound: 50, maxRounds: 20, listPageSize: 1000, maxListPages: 10 };

export interface RetentionReport {
  /** Books never paid for, deleted with everything they had. */
  booksDeleted: number;
  /** Paid books whose files and dedication were deleted (the order stays). */
  orderedBooksCleared: number;
  orderRecordsDeleted: number;
  /** Never-paid orders of a book paid through another order. */
  unpaidOrdersOfPaidBooksDeleted: number;
  paymentProblemsDeleted: number;
  checkoutsDeleted: number;
  orphansDeleted: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

export async function applyRetention(env: Env, now: Date, limits: RetentionLimits = RETENTION_LIMITS): Promise<RetentionReport> {
  const db = database(env.DB);
  const booksDeleted = await deleteUnpaidBooks(env, db, now, limits);
  const orderedBooksCleared = await deleteOrderedBookFiles(env, db, now, limits);
  const orderRecordsDeleted = await deleteOldOrderRecords(db, now, limits);
  const unpaidOrdersOfPaidBooksDeleted = await deleteUnpaidOrdersOfPaidBooks(db, now);
  const paymentProblemsDeleted = await deleteOldPaymentProblems(db, now);
  // After the books: the checkouts of books deleted above have lost their book by now.
  const checkoutsDeleted = await deleteUnusedCheckouts(db, now);
  const orphansDeleted = await sweepOrphanObjects(env, now, limits);
  return {
    booksDeleted,
    orderedBooksCleared,
    orderRecordsDeleted,
    unpaidOrdersOfPaidBooksDeleted,
    paymentProblemsDeleted,
    checkoutsDeleted,
    orphansDeleted,
  };
}

/**
 * No order of the book is paid, and none is being paid through a checkout that may still
 * complete. Checked again by the delete, as a payment may start meanwhile.
 */
function neverPaid(now: Date) {
  const stillPayable = unixSeconds(daysBefore(now, PAYMENT_CONFIRMATION_GRACE_DAYS));
  // A claim whose provider call never came back has no expiry: its claim (or the order) dates it.
  return sql`NOT EXISTS (SELECT 1 FROM orders WHERE orders.book_id = ${books.id} AND (orders.payment_status = 'paid'
    OR (orders.payment_status = 'paying' AND coalesce(orders.payment_expires_at, orders.payment_claimed_at, orders.created_at) > ${stillPayable})))`;
}

/** A book of this age that never got a quote: never on its way to an order. */
function unquotedBefore(cutoff: Date) {
  return and(lt(books.createdAt, cutoff), sql`NOT EXISTS (SELECT 1 FROM quotes WHERE quotes.book_id = ${books.id})`);
}

async function deleteUnpaidBooks(env: Env, db: Database, now: Date, limits: RetentionLimits): Promise<number> {
  const cutoff = daysBefore(now, BOOK_RETENTION_DAYS);
  const unquotedCutoff = daysBefore(now, UNQUOTED_BOOK_RETENTION_DAYS);
  let deleted = 0;
  for (let round = 0; round < limits.maxRounds; round++) {
    const stale = await db
      .select({ id: books.id })
      .from(books)
      .where(and(or(lt(books.createdAt, cutoff), unquotedBefore(unquotedCutoff)), neverPaid(now)))
      .limit(limits.booksPerRound);
    if (stale.length === 0) break;
    const ids = stale.map((book) => book.id);
    await deleteObjects(env, await objectKeysOfBooks(db, ids));
    await db.delete(books).where(and(inArray(books.id, ids), neverPaid(now)));
    deleted += ids.length;
  }
  return deleted;
}

/** Paid books whose files are due: shipped or refunded long enough ago, or paid long ago and neither. */
function orderedFilesDue(now: Date) {
  const afterFulfilment = unixSeconds(daysBefore(now, ORDERED_BOOK_FILES_RETENTION_DAYS));
  const afterPayment = unixSeconds(daysBefore(now, BOOK_RETENTION_DAYS));
  // The later of shipping and refund starts the clock (a refund after shipping, say for damage).
  return sql`EXISTS (SELECT 1 FROM orders WHERE orders.book_id = ${books.id} AND orders.payment_status = 'paid' AND (
    max(coalesce(orders.shipped_at, orders.refunded_at), coalesce(orders.refunded_at, orders.shipped_at)) < ${afterFulfilment}
    OR (orders.shipped_at IS NULL AND orders.refunded_at IS NULL AND orders.paid_at < ${afterPayment})))`;
}

async function deleteOrderedBookFiles(env: Env, db: Database, now: Date, limits: RetentionLimits): Promise<number> {
  let cleared = 0;
  for (let round = 0; round < limits.maxRounds; round++) {
    const due = await db
      .select({ id: books.id })
      .from(books)
      .where(and(isNull(books.filesDeletedAt), orderedFilesDue(now)))
      .limit(limits.booksPerRound);
    if (due.length === 0) break;
    const ids = due.map((book) => book.id);
    await deleteObjects(env, [...(await objectKeysOfBooks(db, ids)), ...(await printPdfKeys(db, ids))]);
    // The order keeps what the desk and the accounts need (title on the book row, number, price,
    // customer, fulfilment dates); photos' names, the recorded create-book data and the
    // dedication go with the files.
    await db.batch([
      db.delete(images).where(inArray(images.bookId, ids)),
      db.delete(uploads).where(inArray(uploads.bookId, ids)),
      db.delete(checkouts).where(inArray(checkouts.bookId, ids)),
      db.update(books).set({ personalMessage: null, filesDeletedAt: now }).where(inArray(books.id, ids)),
    ]);
    cleared += ids.length;
  }
  return cleared;
}

async function deleteOldOrderRecords(db: Database, now: Date, limits: RetentionLimits): Promise<number> {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - ORDER_RECORD_RETENTION_YEARS);
  const paidBefore = sql`EXISTS (SELECT 1 FROM orders WHERE orders.book_id = ${books.id} AND orders.payment_status = 'paid' AND orders.paid_at < ${unixSeconds(cutoff)})`;
  let deleted = 0;
  for (let round = 0; round < limits.maxRounds; round++) {
    // Only once its files are gone: the step above always gets there first (it runs earlier).
    const due = await db
      .select({ id: books.id })
      .from(books)
      .where(and(isNotNull(books.filesDeletedAt), paidBefore))
      .limit(limits.booksPerRound);
    if (due.length === 0) break;
    // Orders, their emails and quotes follow by cascade.
    await db.delete(books).where(inArray(books.id, due.map((book) => book.id)));
    deleted += due.length;
  }
  return deleted;
}

/**
 * Orders of a book paid through another order, never paid themselves (another quote's order that
 * lost the book's payment slot), UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS after that payment. One
 * whose checkout may still complete stays until it cannot (its money then goes to the desk).
 */
async function deleteUnpaidOrdersOfPaidBooks(db: Database, now: Date): Promise<number> {
  const paidBefore = unixSeconds(daysBefore(now, UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS));
  const stillPayable = unixSeconds(daysBefore(now, PAYMENT_CONFIRMATION_GRACE_DAYS));
  const deleted = await db
    .delete(orders)
    .where(
      sql`${orders.paymentStatus} <> 'paid'
        AND NOT (${orders.paymentStatus} = 'paying' AND coalesce(${orders.paymentExpiresAt}, ${orders.paymentClaimedAt}, ${orders.createdAt}) > ${stillPayable})
        AND EXISTS (SELECT 1 FROM orders AS paid WHERE paid.book_id = ${orders.bookId} AND paid.payment_status = 'paid' AND paid.paid_at < ${paidBefore})`,
    )
    .returning({ id: orders.id });
  return deleted.length;
}

async function deleteOldPaymentProblems(db: Database, now: Date): Promise<number> {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - PAYMENT_PROBLEM_RETENTION_YEARS);
  const deleted = await db.delete(paymentProblems).where(lt(paymentProblems.createdAt, cutoff)).returning({ id: paymentProblems.id });
  return deleted.length;
}

async function deleteUnusedCheckouts(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .delete(checkouts)
    .where(and(isNull(checkouts.bookId), lt(checkouts.createdAt, daysBefore(now, UNUSED_CHECKOUT_RETENTION_DAYS))))
    .returning({ id: checkouts.id });
  return deleted.length;
}

/**
 * Every R2 object of these books' photos: originals, every engine's and level's sketches and
 * region hierarchies (not only the page each row names now), the pages their orders recorded,
 * and debug planes.
 */
async function objectKeysOfBooks(db: Database, ids: number[]): Promise<string[]> {
  const pages = await db
    .select({ original: images.originalKey, sketch: images.sketchKey })
    .from(images)
    .where(inArray(images.bookId, ids));
  // A create-book photo is also an upload row naming the same original.
  const uploaded = await db
    .select({ key: uploads.key, sketch: uploads.sketchKey, debug: uploads.debugKey })
    .from(uploads)
    .where(inArray(uploads.bookId, ids));
  const recorded = await db.select({ pages: orders.printPages }).from(orders).where(and(inArray(orders.bookId, ids), isNotNull(orders.printPages)));
  const keys = [
    ...pages.flatMap((page) => [page.original, ...everyDerivedKeyOf(page.original), ...(page.sketch ? [page.sketch] : [])]),
    ...uploaded.flatMap((upload) => [
      upload.key,
      ...everyDerivedKeyOf(upload.key),
      ...(upload.sketch ? [upload.sketch] : []),
      ...(upload.debug ? Object.values(debugKeysFor(upload.debug)) : []),
    ]),
    ...recorded.flatMap((order) => (order.pages ?? []).flatMap((page) => (page.sketchKey ? [page.sketchKey] : []))),
  ];
  return [...new Set(keys)];
}

async function printPdfKeys(db: Database, ids: number[]): Promise<string[]> {
  const rows = await db
    .select({ key: orders.pdfKey, orderNumber: orders.orderNumber })
    .from(orders)
    .where(and(inArray(orders.bookId, ids), isNotNull(orders.pdfKey)));
  // The print partner's cover and single-sided interior go with the PDF (decision 028).
  return rows.flatMap((row) => [row.key!, coverKeyFor(row.orderNumber), partnerInteriorKeyFor(row.orderNumber)]);
}

async function deleteObjects(env: Env, keys: string[]): Promise<void> {
  // R2 deletes at most 1000 keys per call.
  for (let at = 0; at < keys.length; at += 1000) await env.IMAGES.delete(keys.slice(at, at + 1000));
}
