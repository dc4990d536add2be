/**
 * Who takes the card (DESIGN.md section 6). Both providers open a hosted checkout page for an
 * order and later confirm it through `handleCheckoutEvent` (payments.server.ts): Stripe by a
 * signed webhook, the local test checkout by its own Pay button. Card data never touches us.
 */
import type { Order } from "./db/schema";
import { isLocalEnvironment, type Env } from "./env.server";
import { localTestProvider } from "./local-checkout.server";
import { stripeProvider } from "./stripe.server";

export interface CheckoutRequest {
  order: Order;
  /** The book's title, shown on the provider's page. */
  bookTitle: string;
  /** The same key for a retried request of one attempt, so the provider makes one session. */
  idempotencyKey: string;
  /** May contain the literal `{CHECKOUT_SESSION_ID}`, which the provider fills in. */
  successUrl: string;
  cancelUrl: string;
  /** A create-book order has no address yet: the provider's page asks for it. */
  collectShippingAddress: boolean;
  expiresAt: Date;
  /** Which pages the checkout pays for (paid-pages.server.ts pagesDigest); its confirmation brings it back. */
  pagesDigest: string;
}

export interface OpenedCheckout {
  sessionId: string;
  url: string;
  expiresAt: Date;
}

export interface PaymentProvider {
  readonly name: "stripe" | "local-test";
  openCheckout(request: CheckoutRequest): Promise<OpenedCheckout>;
  /**
   * Closes an open checkout so that it can no longer be paid. "completed" when it was paid
   * before it could be closed (its confirmation will arrive or has arrived).
   */
  expireCheckout(sessionId: string): Promise<"expired" | "completed">;
}

export class PaymentsNotConfiguredError extends Error {}

/** The explicit switch of the local test checkout, on only where no real money can be at stake. */
export function localTestCheckoutEnabled(env: Env): boolean {
  return env.LOCAL_TEST_CHECKOUT === "on" && isLocalEnvironment(env) && !env.STRIPE_SECRET_KEY;
}

/** Stripe when its key is set; the local test checkout only when switched on in dev or tests. */
export function paymentProviderFor(env: Env, fetchFn?: typeof fetch): PaymentProvider {
  if (env.STRIPE_SECRET_KEY) return stripeProvider(env.STRIPE_SECRET_KEY, fetchFn);
  if (localTestCheckoutEnabled(env)) return localTestProvider;
  throw new PaymentsNotConfiguredError(
    "No payment provider: set STRIPE_SECRET_KEY (or LOCAL_TEST_CHECKOUT=on in development).",
  );
}
