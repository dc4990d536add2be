/**
 * The create-book purchase (docs/product.md §5.4): the recorded book data, then one checkout that
 * turns the visitor's ticketed uploads into a book, its images, a quote and an order in one
 * D1 batch (all or nothing), then the provider's checkout for that order.
 */
import { and, desc, eq, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { z } from "zod";
import { API_MESSAGES, CREATE_BOOK_MESSAGES } from "~/lib/customer-copy";
import { PAYMENT_CLAIM_STALE_SECONDS, QUOTE_TTL_SECONDS } from "~/lib/shop-rules";
import type { PaymentResult } from "~/lib/api-types";
import type { createCheckoutSessionSchema, recordBookDataSchema, retryPaymentSchema } from "~/lib/schemas";
import type { Database } from "~/core/db/database.server";
import { checkouts, orders, quotes, uploads, type Checkout, type Order } from "~/core/db/schema.server";
import { jsonError, notFound } from "~/server/http/http.server";
import { estimatedDeliveryText, newOrderNumber } from "~/server/orders/orders.server";
import { startOrderPayment, type PaymentContext } from "./payments.server";
import { priceWithinPlan, printedPhotoCount } from "~/server/orders/quotes.server";

export type RecordBookDataInput = z.infer<typeof recordBookDataSchema>;
export type CreateCheckoutSessionInput = z.infer<typeof createCheckoutSessionSchema>;
export type RetryPaymentInput = z.infer<typeof retryPaymentSchema>;

/** The create-book page's recorded book data: kept even if the purchase goes no further (an abandoned cart). */
export async function recordBookData(db: Database, sessionId: string, input: RecordBookDataInput): Promise<Checkout> {
  const [checkout] = await db
    .insert(checkouts)
    .values({
      sessionId,
      browserSessionId: input.sessionId ?? null,
      bookType: input.bookType,
      title: input.title,
      customMessage: input.customMessage ?? null,
      quantity: input.quantity,
      nrPhotos: input.nrPhotos,
      newsletterSignup: input.newsletterSignup,
      agreeToTerms: input.agreeToTerms,
    })
    .returning();
  return checkout;
}

async function requireCheckout(db: Database, sessionId: string, checkoutId: number): Promise<Checkout> {
  const checkout = await db.query.checkouts.findFirst({
    where: and(eq(checkouts.id, checkoutId), eq(checkouts.sessionId, sessionId)),
  });
  if (!checkout) throw notFound();
  return checkout;
}

/**
 * Makes the book of a create-book checkout and opens its payment. Sending the same checkout
 * again (a double click, a lost answer) opens or hands out the payment of the order it made.
 * The request claims the checkout row before it writes anything, so of two at once only one
 * makes a book; and when it has to undo, it undoes only what it wrote itself.
 */
export async function createCheckoutSession(
  ctx: PaymentContext,
  sessionId: string,
  input: CreateCheckoutSessionInput,
): Promise<PaymentResult> {
  const { db } = ctx;
  const now = ctx.now ?? new Date();
  const recorded = input.checkoutId ? await requireCheckout(db, sessionId, input.checkoutId) : null;
  if (recorded?.orderId) return startOrderPayment(ctx, await requireOrderOfCheckout(db, recorded));

  const keys = [...new Set(input.uploadKeys)];
  if (keys.length !== input.uploadKeys.length || keys.length !== input.filesCount) {
    throw jsonError(400, CREATE_BOOK_MESSAGES.uploadsMissing);
  }
  const pricing = priceWithinPlan(input.bookType, keys.length, input.quantity);
  await requireUploadsOfSession(db, sessionId, keys);

  const checkout =
    recorded ??
    (await recordBookData(db, sessionId, { ...input, nrPhotos: keys.length }));
  const claimToken = crypto.randomUUID();
  if (!(await claimCheckout(db, checkout.id, claimToken, now))) return paymentOfCheckoutMadeElsewhere(ctx, sessionId, checkout.id);

  const quoteId = crypto.randomUUID();
  const newestBook = "(SELECT max(id) FROM books WHERE session_id = ?1)";
  const keysJson = JSON.stringify(keys);
  const d1 = db.$client;
  // One batch is one transaction, and D1 runs one writer at a time: within it the session's
  // newest book is the one this batch inserts, and uploads another request took are skipped.
  await d1.batch([
    d1
      .prepare("INSERT INTO books (session_id, title, personal_message, book_type, status) VALUES (?1, ?2, ?3, ?4, 'draft')")
      .bind(sessionId, input.title, input.customMessage ?? null, input.bookType),
    // Every photo of a create-book order is printed, so each image starts selected.
    d1
      .prepare(
        `INSERT INTO images (book_id, original_filename, original_key, file_size, mime_type, width, height, is_selected)
         SELECT ${newestBook}, coalesce(u.filename, 'photo'), u.key, coalesce(u.size, 0), coalesce(u.mime_type, 'application/octet-stream'), u.width, u.height, 1
         FROM json_each(?2) AS k JOIN uploads AS u ON u.key = k.value
         WHERE u.session_id = ?1 AND u.status = 'uploaded' AND u.book_id IS NULL
         ORDER BY k.key`,
      )
      .bind(sessionId, keysJson),
    d1
      .prepare(`UPDATE uploads SET book_id = ${newestBook} WHERE key IN (SELECT value FROM json_each(?2)) AND session_id = ?1 AND status = 'uploaded' AND book_id IS NULL`)
      .bind(sessionId, keysJson),
    d1
      .prepare(`INSERT INTO quotes (id, book_id, pricing, expires_at) VALUES (?2, ${newestBook}, ?3, ?4)`)
      .bind(sessionId, quoteId, JSON.stringify(pricing), Math.floor(now.getTime() / 1000) + QUOTE_TTL_SECONDS),
    d1
      .prepare(`INSERT INTO orders (book_id, quote_id, order_number, pricing, payment_method, estimated_delivery) VALUES (${newestBook}, ?2, ?3, ?4, 'card', ?5)`)
      .bind(sessionId, quoteId, newOrderNumber(now), JSON.stringify(pricing), estimatedDeliveryText(now)),
    // Linked only while this request still holds the claim: the order is the checkout's.
    d1
      .prepare(`UPDATE checkouts SET book_id = ${newestBook}, order_id = last_insert_rowid() WHERE id = ?2 AND claim_token = ?3 AND order_id IS NULL`)
      .bind(sessionId, checkout.id, claimToken),
  ]);

  const order = await db.query.orders.findFirst({ where: eq(orders.quoteId, quoteId) });
  if (!order) throw new Error(`checkout ${checkout.id}: the batch wrote no order`);
  const linked = await db.query.checkouts.findFirst({ where: eq(checkouts.id, checkout.id), columns: { orderId: true } });
  if (linked?.orderId !== order.id) {
    // Our claim went stale and another request made this checkout's order: ours is undone.
    await deleteBookOfThisRequest(db, order.bookId);
    return paymentOfCheckoutMadeElsewhere(ctx, sessionId, checkout.id);
  }
  const attached = await db.$count(uploads, eq(uploads.bookId, order.bookId));
  if (attached !== keys.length) {
    // Another request took some of these uploads between our check and our batch: undo ours
    // (the book's images, quote and order go with it; its uploads are released), and free the
    // checkout only if it still names our order.
    await d1.batch([
      d1
        .prepare("UPDATE checkouts SET book_id = NULL, order_id = NULL, claim_token = NULL, claimed_at = NULL WHERE id = ? AND order_id = ?")
        .bind(checkout.id, order.id),
      d1.prepare("DELETE FROM books WHERE id = ?").bind(order.bookId),
    ]);
    throw jsonError(409, CREATE_BOOK_MESSAGES.uploadsMissing);
  }
  return startOrderPayment(ctx, order);
}

/**
 * Takes the checkout for this request: no order made yet, and no other request making one (or
 * one that claimed it so long ago that it must have died). False when another request holds it.
 */
async function claimCheckout(db: Database, checkoutId: number, claimToken: string, now: Date): Promise<boolean> {
  const staleBefore = new Date(now.getTime() - PAYMENT_CLAIM_STALE_SECONDS * 1000);
  const claimed = await db
    .update(checkouts)
    .set({ claimToken, claimedAt: now })
    .where(
      and(
        eq(checkouts.id, checkoutId),
        isNull(checkouts.orderId),
        or(isNull(checkouts.claimToken), isNull(checkouts.claimedAt), lte(checkouts.claimedAt, staleBefore)),
      ),
    )
    .returning({ id: checkouts.id });
  return claimed.length > 0;
}

/** The book, images, quote and order this request's batch inserted (deleting the book cascades). */
async function deleteBookOfThisRequest(db: Database, bookId: number): Promise<void> {
  await db.$client.prepare("DELETE FROM books WHERE id = ?").bind(bookId).run();
}

/**
 * Another request of the same checkout holds it: its order's payment once it has made one (the
 * same page for both clicks), else 409 while it is still being made.
 */
async function paymentOfCheckoutMadeElsewhere(ctx: PaymentContext, sessionId: string, checkoutId: number): Promise<PaymentResult> {
  const current = await requireCheckout(ctx.db, sessionId, checkoutId);
  if (!current.orderId) throw jsonError(409, CREATE_BOOK_MESSAGES.paymentInProgress);
  return startOrderPayment(ctx, await requireOrderOfCheckout(ctx.db, current));
}

/** Every key names an upload of this session that arrived and belongs to no book yet. */
async function requireUploadsOfSession(db: Database, sessionId: string, keys: string[]): Promise<void> {
  const rows = await db
    .select({ key: uploads.key, status: uploads.status, bookId: uploads.bookId })
    .from(uploads)
    .where(eq(uploads.sessionId, sessionId));
  const usable = new Set(rows.filter((row) => row.status === "uploaded" && row.bookId === null).map((row) => row.key));
  if (!keys.every((key) => usable.has(key))) throw jsonError(400, CREATE_BOOK_MESSAGES.uploadsMissing);
}

async function requireOrderOfCheckout(db: Database, checkout: Checkout): Promise<Order> {
  if (!checkout.orderId) throw notFound();
  const order = await db.query.orders.findFirst({ where: eq(orders.id, checkout.orderId) });
  if (!order) throw notFound();
  return order;
}

/**
 * Retry Payment on /cancel: the visitor's unpaid create-book order (the one named, else the
 * newest), re-priced if its quote has expired, and its checkout opened (or handed out) again.
 */
export async function retryPayment(ctx: PaymentContext, sessionId: string, input: RetryPaymentInput): Promise<PaymentResult> {
  const { db } = ctx;
  const now = ctx.now ?? new Date();
  const checkout = input.checkoutId
    ? await requireCheckout(db, sessionId, input.checkoutId)
    : await db.query.checkouts.findFirst({
        where: and(eq(checkouts.sessionId, sessionId), eq(checkouts.status, "open"), isNotNull(checkouts.orderId)),
        orderBy: desc(checkouts.id),
      });
  if (!checkout?.orderId) throw jsonError(404, CREATE_BOOK_MESSAGES.noPendingCheckout);
  let order = await requireOrderOfCheckout(db, checkout);
  if (order.paymentStatus === "paid") throw jsonError(409, API_MESSAGES.orderAlreadyPaid);
  order = await renewExpiredQuote(db, order, now);
  return startOrderPayment(ctx, order);
}

/**
 * A quote lives half an hour; a buyer who comes back later pays today's price for the same book.
 * A photo whose sketch failed since is no page of the book (quotes.server.ts printedPhotoCount):
 * the order is priced again without it, or refused with the plan's minimum when that is too few.
 */
async function renewExpiredQuote(db: Database, order: Order, now: Date): Promise<Order> {
  const photos = await printedPhotoCount(db, order.bookId);
  if (order.paymentStatus === "paying" && order.paymentExpiresAt && order.paymentExpiresAt > now) return order;
  const quote = order.quoteId ? await db.query.quotes.findFirst({ where: eq(quotes.id, order.quoteId) }) : undefined;
  if (quote && quote.expiresAt > now && photos === order.pricing.photos) return order;
  const { plan, quantity } = order.pricing;
  const pricing = priceWithinPlan(plan, photos, quantity);
  const [renewed] = await db
    .insert(quotes)
    .values({ id: crypto.randomUUID(), bookId: order.bookId, pricing, expiresAt: new Date(now.getTime() + QUOTE_TTL_SECONDS * 1000) })
    .returning();
  const [updated] = await db
    .update(orders)
    .set({ quoteId: renewed.id, pricing })
    .where(and(eq(orders.id, order.id), eq(orders.paymentAttempt, order.paymentAttempt)))
    .returning();
  if (!updated) throw jsonError(409, CREATE_BOOK_MESSAGES.paymentInProgress);
  return updated;
}
