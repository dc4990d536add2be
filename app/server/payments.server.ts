/**
 * Paying for an order through a PaymentProvider (DESIGN.md section 6).
 *
 * A provider either settles at once (`paid` / `declined`) or hands back a page to send the
 * buyer to (`redirect`, Stripe Checkout): the order then stays pending until the provider's own
 * confirmation arrives (a verified webhook calls `markOrderPaid` with the payment session id).
 * The browser reaching a success page never marks anything paid.
 */
import { and, eq, ne, sql } from "drizzle-orm";
import type { PaymentResult } from "~/lib/api-client";
import { API_MESSAGES, EXTRA_PAGES, MESSAGES, PAYMENT_METHODS } from "~/lib/constants";
import type { Database } from "./db.server";
import { books, orders, type Order, type Pricing } from "./db/schema";
import { isLocalEnvironment, type Env } from "./env.server";
import { jsonError } from "./http.server";

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface PaymentRequest {
  order: Order;
  paymentMethod: PaymentMethod;
  /** Provider-specific extras from the browser; never card numbers, never prices. */
  paymentDetails?: Record<string, unknown>;
  /** Where a redirecting provider sends the buyer back to. */
  returnUrls: { success: string; cancel: string };
}

export type PaymentOutcome =
  | { status: "paid"; paymentSessionId: string }
  | { status: "declined"; reason: string }
  | { status: "redirect"; paymentSessionId: string; checkoutUrl: string };

export interface PaymentProvider {
  readonly name: string;
  /** Charges `order.pricing.total` (minor units) or opens a checkout session for it. */
  startPayment(request: PaymentRequest): Promise<PaymentOutcome>;
}

/**
 * Plays the provider's part in development and tests: confirms at once, or declines when asked
 * to with `paymentDetails.simulate === "decline"`. Never used in production.
 */
export const localTestProvider: PaymentProvider = {
  name: "local-test",
  async startPayment({ paymentDetails }) {
    if (paymentDetails?.simulate === "decline") return { status: "declined", reason: "simulated decline" };
    return { status: "paid", paymentSessionId: `local_${crypto.randomUUID()}` };
  },
};

export class PaymentsNotConfiguredError extends Error {}

/** Stripe when configured; the local test provider only in development and tests. */
export function paymentProviderFor(env: Env): PaymentProvider {
  if (env.STRIPE_SECRET_KEY) {
    // Stripe Checkout arrives in its own issue; until then a configured key must not fall back
    // to a provider that marks orders paid for free.
    throw new PaymentsNotConfiguredError("STRIPE_SECRET_KEY is set but the Stripe provider is not built yet.");
  }
  if (isLocalEnvironment(env)) return localTestProvider;
  throw new PaymentsNotConfiguredError("No payment provider: set STRIPE_SECRET_KEY.");
}

function paymentResultDto(order: Order, checkoutUrl?: string): PaymentResult {
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

/** Pays an order the caller has already found to be the visitor's own (`requireOrder`). */
export async function payForOrder(
  env: Env,
  db: Database,
  order: Order,
  input: { paymentMethod: PaymentMethod; paymentDetails?: Record<string, unknown> },
  requestUrl: string,
): Promise<PaymentResult> {
  if (order.paymentStatus === "paid") throw jsonError(409, API_MESSAGES.orderAlreadyPaid);
  const provider = providerOrUnavailable(env);

  const origin = new URL(requestUrl).origin;
  const outcome = await provider.startPayment({
    order,
    paymentMethod: input.paymentMethod,
    paymentDetails: input.paymentDetails,
    returnUrls: { success: `${origin}/success`, cancel: `${origin}/cancel` },
  });

  if (outcome.status === "declined") throw jsonError(402, MESSAGES.paymentFailed);
  if (outcome.status === "redirect") {
    const [pending] = await db
      .update(orders)
      .set({ paymentSessionId: outcome.paymentSessionId, paymentMethod: input.paymentMethod })
      .where(and(eq(orders.id, order.id), ne(orders.paymentStatus, "paid")))
      .returning();
    if (!pending) throw jsonError(409, API_MESSAGES.orderAlreadyPaid);
    return paymentResultDto(pending, outcome.checkoutUrl);
  }
  const paid = await markOrderPaid(db, order.id, outcome.paymentSessionId);
  if (!paid) throw jsonError(409, API_MESSAGES.orderAlreadyPaid);
  return paymentResultDto(paid);
}

function providerOrUnavailable(env: Env): PaymentProvider {
  try {
    return paymentProviderFor(env);
  } catch (error) {
    if (!(error instanceof PaymentsNotConfiguredError)) throw error;
    console.error(error.message);
    throw jsonError(503, API_MESSAGES.paymentsUnavailable);
  }
}

/**
 * The provider's confirmation. Conditional on the order not being paid yet, so two
 * confirmations (a double click, a redelivered webhook) settle it once; null when it already was.
 * The paid order's book goes to the printer: status `ordered`, page count fixed.
 */
export async function markOrderPaid(db: Database, orderId: number, paymentSessionId: string): Promise<Order | null> {
  const bookOfOrder = sql`(SELECT book_id FROM orders WHERE id = ${orderId})`;
  const [[order]] = await db.batch([
    db
      .update(orders)
      .set({ paymentStatus: "paid", orderStatus: "paid", paymentSessionId, paidAt: new Date() })
      .where(and(eq(orders.id, orderId), ne(orders.paymentStatus, "paid")))
      .returning(),
    db
      .update(books)
      .set({
        status: "ordered",
        totalPages: sql`(SELECT count(*) FROM images WHERE book_id = ${bookOfOrder} AND is_selected = 1) + ${EXTRA_PAGES}`,
      })
      .where(eq(books.id, bookOfOrder)),
  ]);
  return order ?? null;
}
