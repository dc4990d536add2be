/**
 * The local test checkout: a page of ours (/test-checkout/{sessionId}) that plays Stripe
 * Checkout's part in development and tests. Its Pay button sends the same
 * `checkout.session.completed` event a Stripe webhook would, through the same fulfilment code.
 * Only reachable when `localTestCheckoutEnabled` (local-test-provider.server.ts). The provider
 * itself (opening and closing a session) is local-test-provider.server.ts.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "~/core/db/database.server";
import { books, orders, type CustomerInfo, type Order } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { isLocalSessionId } from "./local-test-provider.server";
import { CHECKOUT_SESSION_PLACEHOLDER, checkoutReturnUrls, handleCheckoutEvent } from "./payments.server";

/** The order a local checkout session belongs to, if it is this visitor's and still open. */
export async function findLocalCheckout(db: Database, visitorSessionId: string, checkoutSessionId: string) {
  if (!isLocalSessionId(checkoutSessionId)) return null;
  const [row] = await db
    .select({ order: orders, bookTitle: books.title })
    .from(orders)
    .innerJoin(books, eq(books.id, orders.bookId))
    .where(and(eq(orders.paymentSessionId, checkoutSessionId), eq(books.sessionId, visitorSessionId)));
  return row ?? null;
}

/**
 * The Pay button: exactly what Stripe would send once the card went through, handed to the same
 * fulfilment code as the webhook. Answers where the buyer goes next.
 */
export async function payLocalCheckout(env: Env, db: Database, order: Order, customer: CustomerInfo | null, origin: string) {
  const sessionId = order.paymentSessionId;
  if (!sessionId) throw new Error(`order ${order.id} has no local checkout session`);
  await handleCheckoutEvent(env, db, {
    type: "checkout.session.completed",
    sessionId,
    orderId: order.id,
    paymentStatus: "paid",
    amountTotal: order.pricing.total,
    currency: order.pricing.currency.toLowerCase(),
    customer,
    // The local session keeps nothing of its own: the order row, compared as it is, is its state.
    pagesDigest: null,
  });
  const urls = await checkoutReturnUrls(env, db, order, origin);
  return urls.success.replace(CHECKOUT_SESSION_PLACEHOLDER, sessionId);
}

/**
 * The Cancel button: where Stripe's back link would go, the checkout's cancel link, which closes
 * it through this provider and frees the order (payments.server.ts `cancelCheckout`).
 */
export async function cancelLocalCheckoutUrl(env: Env, db: Database, order: Order, origin: string) {
  return (await checkoutReturnUrls(env, db, order, origin)).cancel;
}
