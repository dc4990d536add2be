/**
 * Paying for an order (docs/design.md §5, docs/decisions/008).
 *
 * 1. `startOrderPayment` claims the order (`paying`, in one guarded UPDATE) before the provider
 *    is called, so two requests cannot open two checkouts; a live checkout is handed out again
 *    instead of opening another. The claim records the pages the attempt pays for, and locks
 *    the book's pages while its checkout is open (paid-pages.server.ts, decision 018).
 * 2. The provider's page takes the card.
 * 3. `handleCheckoutEvent` fulfils: only a `paid` session whose amount, currency and pages match
 *    our record marks the order paid, once (duplicate and out-of-order events change nothing).
 *    Money that does not match, or pays for a book already paid, goes to the desk to be refunded.
 *    The browser reaching /success never marks anything paid.
 * 4. `cancelCheckout`: the buyer's Cancel closes the checkout at the provider and frees the order
 *    at once, as its expiry event would (decision 018), unless it was paid first.
 */
import { and, eq, inArray, ne, not, or, sql } from "drizzle-orm";
import type { PaymentResult } from "~/lib/api-types";
import { API_MESSAGES, CREATE_BOOK_MESSAGES } from "~/lib/customer-copy";
import { CHECKOUT_TTL_SECONDS } from "~/lib/shop-rules";
import type { PrintJob } from "~/core/contracts/print";
import { isUniqueViolation, type Database } from "~/core/db/database.server";
import {
  books,
  checkouts,
  orders,
  paymentSessions,
  quotes,
  type Order,
  type PaymentProblemKind,
  type PaymentSession,
  type PrintPage,
} from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { jsonError } from "~/server/http/http.server";
import type { CheckoutEvent, PaymentProvider } from "./payment-provider.server";
import { localTestCheckoutEnabled, localTestProvider } from "./local-test-provider.server";
import { stripeProvider } from "./stripe.server";
import { requirePhotoCountOfQuote } from "~/server/orders/quotes.server";
import { queuePendingImages } from "~/server/books/books.server";
import { recordOrderEmail } from "~/server/orders/order-emails.server";
import { bookPagesComparedWith, currentBookPages, pagesDigest, paymentIsOpen, samePages } from "./paid-pages.server";
import { recordPaymentProblem } from "./payment-problems.server";
import { checkoutCancelUrl } from "./checkout-cancel-link.server";

/** What Stripe's placeholder becomes in the success URL. */
export const CHECKOUT_SESSION_PLACEHOLDER = "{CHECKOUT_SESSION_ID}";

export function paymentResultDto(order: Order, checkoutUrl?: string): PaymentResult {
  return {
    orderId: order.id,
    orderNumber: order.orderNumber,
    paymentStatus: order.paymentStatus,
    orderStatus: order.orderStatus,
    estimatedDelivery: order.estimatedDelivery,
    pricing: order.pricing,
    ...(checkoutUrl ? { checkoutUrl } : {}),
  };
}

export class PaymentsNotConfiguredError extends Error {}

/** Stripe when its key is set; the local test checkout only when switched on in dev or tests. */
export function paymentProviderFor(env: Env, fetchFn?: typeof fetch): PaymentProvider {
  if (env.STRIPE_SECRET_KEY) return stripeProvider(env.STRIPE_SECRET_KEY, fetchFn);
  if (localTestCheckoutEnabled(env)) return localTestProvider;
  throw new PaymentsNotConfiguredError(
    "No payment provider: set STRIPE_SECRET_KEY (or LOCAL_TEST_CHECKOUT=on in development).",
  );
}

function providerOrUnavailable(env: Env, fetchFn?: typeof fetch): PaymentProvider {
  try {
    return paymentProviderFor(env, fetchFn);
  } catch (error) {
    if (!(error instanceof PaymentsNotConfiguredError)) throw error;
    console.error(error.message);
    throw jsonError(503, API_MESSAGES.paymentsUnavailable);
  }
}

/**
 * Where the buyer comes back to: the create-book pages, or the book's own order page. `cancel`
 * is the provider's back link for this attempt, which closes the checkout and then shows
 * `cancelled`.
 */
export async function checkoutReturnUrls(env: Env, db: Database, order: Order, origin: string) {
  const checkout = await db.query.checkouts.findFirst({ where: eq(checkouts.orderId, order.id), columns: { id: true } });
  const success = checkout
    ? `${origin}/success?session_id=${CHECKOUT_SESSION_PLACEHOLDER}`
    : `${origin}/book/${order.bookId}/order?session_id=${CHECKOUT_SESSION_PLACEHOLDER}`;
  const cancelled = checkout ? `${origin}/cancel` : `${origin}/book/${order.bookId}/order?cancelled=1`;
  return { success, cancel: await checkoutCancelUrl(env, origin, order), cancelled, isCreateBook: Boolean(checkout) };
}

export interface PaymentContext {
  env: Env;
  db: Database;
  origin: string;
  now?: Date;
  /** Tests stand in for Stripe's API here. */
  fetchFn?: typeof fetch;
  /**
   * Counts this request's payment start against the visitor's limits (429 when over), called
   * once, just before the provider is first called: handing out a checkout that is still open
   * costs nothing.
   */
  chargeProviderCall?: () => Promise<unknown>;
}

/**
 * Opens (or hands out again) the provider checkout of an order the caller has found to be the
 * visitor's own. Returns the page to send the buyer to.
 */
export async function startOrderPayment(ctx: PaymentContext, order: Order): Promise<PaymentResult> {
  const { env, db, origin } = ctx;
  const now = ctx.now ?? new Date();
  if (order.paymentStatus === "paid") throw jsonError(409, API_MESSAGES.orderAlreadyPaid);
  const provider = chargedOnFirstCall(providerOrUnavailable(env, ctx.fetchFn), ctx.chargeProviderCall);
  await requirePayableQuote(db, order, now);

  // A checkout of this order that is still open: the same page again, no second session.
  if (order.paymentStatus === "paying" && order.paymentUrl && order.paymentExpiresAt && order.paymentExpiresAt > now) {
    return paymentResultDto(order, order.paymentUrl);
  }

  const claimed = await recordClaimedPages(
    db,
    (await claimOrder(db, order, now)) ?? (await releaseOtherAttempts(db, provider, order, now)),
  );
  const attempt = claimed.paymentAttempt;
  const book = await db.query.books.findFirst({ where: eq(books.id, order.bookId), columns: { title: true } });
  const urls = await checkoutReturnUrls(env, db, claimed, origin);
  const digest = await pagesDigest(claimed.printPages);
  let opened;
  try {
    opened = await provider.openCheckout({
      order: claimed,
      bookTitle: book?.title ?? "Coloring book",
      idempotencyKey: `order-${claimed.id}-attempt-${attempt}`,
      successUrl: urls.success,
      cancelUrl: urls.cancel,
      collectShippingAddress: urls.isCreateBook,
      expiresAt: new Date(now.getTime() + CHECKOUT_TTL_SECONDS * 1000),
      pagesDigest: digest,
    });
  } catch (error) {
    await releaseClaim(db, claimed);
    // Our own refusal (the visitor's payment starts are used up): the provider was not called.
    if (error instanceof Response) throw error;
    console.error(`could not open a ${provider.name} checkout for order ${claimed.id}`, error);
    throw jsonError(502, API_MESSAGES.paymentsUnavailable);
  }
  // Recorded even if the update below loses: the session exists at the provider and can be paid,
  // and only a session recorded here may pay for the order (decision 026). A provider's replay of
  // an idempotent create answers the same session: recorded once.
  await db
    .insert(paymentSessions)
    .values({ sessionId: opened.sessionId, orderId: claimed.id, attempt, pagesDigest: digest })
    .onConflictDoNothing({ target: paymentSessions.sessionId });
  const [stored] = await db
    .update(orders)
    .set({ paymentSessionId: opened.sessionId, paymentUrl: opened.url, paymentExpiresAt: opened.expiresAt })
    .where(and(eq(orders.id, claimed.id), eq(orders.paymentAttempt, attempt), eq(orders.paymentStatus, "paying")))
    .returning();
  if (!stored) throw jsonError(409, API_MESSAGES.orderAlreadyPaid);
  return paymentResultDto(stored, opened.url);
}

/** The provider, charging `charge` (once) before its first call. */
function chargedOnFirstCall(provider: PaymentProvider, charge: (() => Promise<unknown>) | undefined): PaymentProvider {
  if (!charge) return provider;
  let charged: Promise<unknown> | null = null;
  const chargeOnce = () => (charged ??= charge());
  return {
    name: provider.name,
    openCheckout: async (request) => (await chargeOnce(), provider.openCheckout(request)),
    expireCheckout: async (sessionId) => (await chargeOnce(), provider.expireCheckout(sessionId)),
  };
}

/** An attempt that opened no checkout gives the order back (its book is unlocked with it). */
async function releaseClaim(db: Database, claimed: Order): Promise<void> {
  await db
    .update(orders)
    .set({ paymentStatus: "pending", paymentClaimedAt: null })
    .where(and(eq(orders.id, claimed.id), eq(orders.paymentAttempt, claimed.paymentAttempt), eq(orders.paymentStatus, "paying")));
}

/**
 * Records on a freshly claimed attempt the pages it pays for. The claim locked the book's pages,
 * so they are read after it and cannot change until the checkout closes; a change that landed
 * between the quote check and the claim is caught here, and the claim given back (409).
 */
async function recordClaimedPages(db: Database, claimed: Order): Promise<Order & { printPages: PrintPage[] }> {
  const pages = await currentBookPages(db, claimed.bookId);
  if (pages.length !== claimed.pricing.photos) {
    await releaseClaim(db, claimed);
    throw jsonError(409, API_MESSAGES.bookChangedSinceQuote);
  }
  const [recorded] = await db
    .update(orders)
    .set({ printPages: pages })
    .where(and(eq(orders.id, claimed.id), eq(orders.paymentAttempt, claimed.paymentAttempt), eq(orders.paymentStatus, "paying")))
    .returning();
  if (!recorded) throw jsonError(409, CREATE_BOOK_MESSAGES.paymentInProgress);
  return { ...recorded, printPages: pages };
}

/** An order may be paid only from a quote that is still valid and still fits the book. */
async function requirePayableQuote(db: Database, order: Order, now: Date) {
  if (!order.quoteId) return;
  const quote = await db.query.quotes.findFirst({ where: eq(quotes.id, order.quoteId) });
  if (!quote || quote.expiresAt.getTime() <= now.getTime()) throw jsonError(409, API_MESSAGES.quoteExpired);
  await requirePhotoCountOfQuote(db, order.bookId, quote.pricing);
}

/**
 * `pending` (or `failed`, or a `paying` whose checkout has closed or whose provider call never
 * came back: not `paymentIsOpen`) → `paying`, with the next attempt number; null when another
 * request holds it. Throws a 409 when another order of the same book is being paid (the partial
 * unique index).
 */
async function claimOrder(db: Database, order: Order, now: Date): Promise<Order | null> {
  try {
    const [claimed] = await db
      .update(orders)
      .set({
        paymentStatus: "paying",
        paymentAttempt: sql`${orders.paymentAttempt} + 1`,
        paymentClaimedAt: now,
        paymentSessionId: null,
        paymentUrl: null,
        paymentExpiresAt: null,
      })
      .where(
        and(
          eq(orders.id, order.id),
          or(inArray(orders.paymentStatus, ["pending", "failed"]), and(eq(orders.paymentStatus, "paying"), not(paymentIsOpen(now)))),
        ),
      )
      .returning();
    if (claimed) return claimed;
  } catch (error) {
    if (isUniqueViolation(error, "orders.book_id")) return null;
    throw error;
  }
  const current = await db.query.orders.findFirst({ where: eq(orders.id, order.id) });
  if (current?.paymentStatus === "paid") throw jsonError(409, API_MESSAGES.orderAlreadyPaid);
  throw jsonError(409, CREATE_BOOK_MESSAGES.paymentInProgress);
}

/**
 * Another order of this book holds the book's one payment slot (a new quote made a new order):
 * close that order's checkout at the provider and free it, then claim again. If that checkout
 * was paid meanwhile, the book is paid for and this order must not be.
 */
async function releaseOtherAttempts(db: Database, provider: PaymentProvider, order: Order, now: Date): Promise<Order> {
  const others = await db
    .select()
    .from(orders)
    .where(and(eq(orders.bookId, order.bookId), ne(orders.id, order.id), inArray(orders.paymentStatus, ["paying", "paid"])));
  for (const other of others) {
    if (other.paymentStatus === "paid" || (await closeCheckout(db, provider, other)) === "completed") {
      throw jsonError(409, API_MESSAGES.bookAlreadyOrdered);
    }
  }
  const claimed = await claimOrder(db, order, now);
  if (!claimed) throw jsonError(409, CREATE_BOOK_MESSAGES.paymentInProgress);
  return claimed;
}

/**
 * Closes an attempt's checkout at the provider, then frees its order as the provider's expiry
 * event does. "completed" when it was paid before it could be closed: nothing is released, and the
 * payment's confirmation (the webhook) decides.
 */
async function closeCheckout(db: Database, provider: PaymentProvider, order: Order): Promise<"released" | "completed" | "unchanged"> {
  if (order.paymentSessionId && (await provider.expireCheckout(order.paymentSessionId)) === "completed") return "completed";
  return (await releaseAttempt(db, order.id, order.paymentSessionId)) ? "released" : "unchanged";
}

/**
 * The buyer pressed Cancel on the checkout of `attempt` (its cancel link; ownership and the
 * link's signature are the caller's): close it, so the book's pages unlock at once. A link of an
 * earlier attempt, or of a checkout that is already closed or paid, changes nothing. A provider
 * that cannot be reached leaves the checkout to close at its expiry; the buyer still gets back.
 */
export async function cancelCheckout(ctx: PaymentContext, order: Order, attempt: number): Promise<"released" | "completed" | "unchanged"> {
  if (order.paymentStatus !== "paying" || order.paymentAttempt !== attempt || !order.paymentSessionId) return "unchanged";
  try {
    return await closeCheckout(ctx.db, providerOrUnavailable(ctx.env, ctx.fetchFn), order);
  } catch (error) {
    console.error(`order ${order.id}: could not close checkout ${order.paymentSessionId} on cancel`, error);
    return "unchanged";
  }
}

/** `paying` → `pending` for exactly this attempt's session (an expired or closed checkout). */
async function releaseAttempt(db: Database, orderId: number, sessionId: string | null): Promise<boolean> {
  const released = await db
    .update(orders)
    .set({ paymentStatus: "pending", paymentSessionId: null, paymentUrl: null, paymentExpiresAt: null, paymentClaimedAt: null })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.paymentStatus, "paying"),
        sessionId === null ? sql`${orders.paymentSessionId} IS NULL` : eq(orders.paymentSessionId, sessionId),
      ),
    )
    .returning({ id: orders.id });
  return released.length > 0;
}

export type FulfilmentOutcome =
  | "paid"
  | "already-paid"
  | "released"
  | "ignored"
  | "amount-mismatch"
  | "pages-changed"
  | "paid-twice"
  | "unknown-session";

/** One fulfilment path for every provider. Idempotent: replaying an event changes nothing. */
export async function handleCheckoutEvent(env: Env, db: Database, event: CheckoutEvent, now = new Date()): Promise<FulfilmentOutcome> {
  if (!Number.isSafeInteger(event.orderId) || event.orderId <= 0) {
    console.error(`checkout event ${event.type} for session ${event.sessionId} names no order; ignored`);
    return "ignored";
  }
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      // Card payments arrive `paid`; delayed methods complete `unpaid` and succeed later.
      if (event.paymentStatus !== "paid") return "ignored";
      return confirmPayment(env, db, event, now);
    case "checkout.session.expired":
    case "checkout.session.async_payment_failed":
      return (await releaseAttempt(db, event.orderId, event.sessionId)) ? "released" : "ignored";
    default:
      return "ignored";
  }
}

async function confirmPayment(env: Env, db: Database, event: CheckoutEvent, now: Date): Promise<FulfilmentOutcome> {
  const order = await db.query.orders.findFirst({ where: eq(orders.id, event.orderId) });
  if (!order) {
    console.error(`payment ${event.sessionId} names order ${event.orderId}, which does not exist`);
    return "ignored";
  }
  // Only a checkout we opened for this order pays for it: not any completed session on the same
  // provider account that carries its reference and amount (decision 026).
  const opened = await db.query.paymentSessions.findFirst({ where: eq(paymentSessions.sessionId, event.sessionId) });
  if (!opened || opened.orderId !== order.id) {
    const detail = opened
      ? `the checkout session was opened for order id ${opened.orderId}, not this one`
      : "the checkout session was not opened by this shop for this order";
    await recordPaymentProblem(db, problem(order, event, "unknown-session", detail), now);
    return "unknown-session";
  }
  if (order.paymentStatus === "paid") {
    if (order.paymentSessionId === event.sessionId) {
      await queuePendingImages(env, db, order.bookId);
      // A replay (the first delivery may have failed after the update): ask again until it exists.
      if (!order.pdfKey && order.customerInfo) await queuePrintPdf(env, order.id);
      await recordConfirmationEmail(env, db, order.id);
      return "already-paid";
    }
    await recordPaymentProblem(db, problem(order, event, "paid-twice", `the order was already paid by ${order.paymentSessionId}`), now);
    return "paid-twice";
  }
  if (event.amountTotal !== order.pricing.total || event.currency?.toLowerCase() !== order.pricing.currency.toLowerCase()) {
    const detail = `the payment is ${event.amountTotal} ${event.currency}, the order ${order.pricing.total} ${order.pricing.currency}`;
    await recordPaymentProblem(db, problem(order, event, "amount-mismatch", detail), now);
    return "amount-mismatch";
  }
  const pagesChanged = await pagesProblem(db, order, event, opened);
  if (pagesChanged) {
    await recordPaymentProblem(db, problem(order, event, "pages-changed", pagesChanged), now);
    return "pages-changed";
  }

  // Money was taken for this order: whichever attempt it came through, the order is paid.
  let paid: Order | undefined;
  try {
    [[paid]] = await db.batch([
      db
        .update(orders)
        .set({
          paymentStatus: "paid",
          orderStatus: "paid",
          paymentSessionId: event.sessionId,
          paymentUrl: null,
          paidAt: now,
          ...(order.customerInfo || !event.customer ? {} : { customerInfo: event.customer }),
        })
        .where(and(eq(orders.id, order.id), ne(orders.paymentStatus, "paid")))
        .returning(),
      // The page count paid for is the one the quote priced: one computation (pricing.ts).
      db.update(books).set({ status: "ordered", totalPages: order.pricing.pages }).where(eq(books.id, order.bookId)),
      db.update(checkouts).set({ status: "paid" }).where(eq(checkouts.orderId, order.id)),
    ]);
  } catch (error) {
    // The book's one payment slot is another order's (it was paid through another quote).
    if (isUniqueViolation(error, "orders.book_id")) {
      await recordPaymentProblem(db, problem(order, event, "paid-twice", "the book was already paid through another order"), now);
      return "paid-twice";
    }
    throw error;
  }
  if (!paid) return handleCheckoutEvent(env, db, event, now); // a concurrent delivery won: re-read
  await queuePendingImages(env, db, order.bookId);
  if (paid.customerInfo) {
    await queuePrintPdf(env, order.id);
  } else {
    // A create-book order whose checkout brought back no address (the provider's page should have
    // asked for it): paid, but nothing is printed that cannot be posted. The desk lists it.
    const detail = "paid without a delivery address: not sent to print; ask the customer for one";
    await recordPaymentProblem(db, problem(order, event, "no-address", detail), now);
  }
  await recordConfirmationEmail(env, db, order.id);
  return "paid";
}

function problem(order: Order, event: CheckoutEvent, kind: PaymentProblemKind, detail: string) {
  return { order, sessionId: event.sessionId, kind, amount: event.amountTotal, currency: event.currency, detail };
}

/**
 * Why the money cannot pay for the order's pages, or null when it can: the checkout was opened
 * for other pages than the order now records (a later attempt recorded new ones), or the book's
 * pages changed since they were recorded (possible only after that checkout had closed by our
 * clock: a payment made at its last moment, confirmed late). Which pages a checkout was opened for
 * is our own record of the session; the digest a provider brings back (Stripe's metadata) is only
 * compared with it, so a confirmation without one (the local test checkout) is checked all the
 * same. Orders recorded no pages before decision 018; their books were locked only once paid, as before.
 */
async function pagesProblem(db: Database, order: Order, event: CheckoutEvent, opened: PaymentSession): Promise<string | null> {
  if (!order.printPages) return null;
  if (opened.pagesDigest && event.pagesDigest && event.pagesDigest !== opened.pagesDigest) {
    return "the checkout reports other pages than it was opened for";
  }
  // Sessions opened before their pages were recorded: the provider's copy is all there is.
  const openedFor = opened.pagesDigest ?? event.pagesDigest ?? null;
  if (openedFor === null ? opened.attempt !== order.paymentAttempt : openedFor !== (await pagesDigest(order.printPages))) {
    return "the checkout was opened for other pages than the order now records";
  }
  if (!samePages(order.printPages, await bookPagesComparedWith(db, order.bookId, order.printPages))) {
    return "the book's pages changed after its checkout opened";
  }
  return null;
}

/** The customer is told; a problem with the email is logged and never undoes or blocks a payment. */
async function recordConfirmationEmail(env: Env, db: Database, orderId: number): Promise<void> {
  try {
    await recordOrderEmail(env, db, orderId, "order-confirmation");
  } catch (error) {
    console.error(`order ${orderId}: the confirmation email was not recorded`, error);
  }
}

/**
 * The print-ready PDF of a paid order (the sketch Worker's print job; it waits for the sketches
 * and never rebuilds a stored PDF, so sending twice is harmless).
 */
async function queuePrintPdf(env: Env, orderId: number): Promise<void> {
  await env.PRINT_QUEUE.send({ orderId } satisfies PrintJob);
}

