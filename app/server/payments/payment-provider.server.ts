/**
 * Who takes the card (docs/design.md §5): the interface both providers implement, and the
 * event they confirm a checkout with. Both open a hosted checkout page for an order and later
 * confirm it through `handleCheckoutEvent` (payments.server.ts): Stripe by a signed webhook, the
 * local test checkout by its own Pay button. Card data never touches us. Only types live here;
 * which provider takes a payment is chosen where payments are taken (`paymentProviderFor`).
 */
import type { CustomerInfo, Order } from "~/core/db/schema.server";

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

/** A checkout session event as both providers report it (Stripe's webhook, our test page). */
export interface CheckoutEvent {
  type:
    | "checkout.session.completed"
    | "checkout.session.async_payment_succeeded"
    | "checkout.session.async_payment_failed"
    | "checkout.session.expired";
  sessionId: string;
  /** Our order id, from `client_reference_id`. */
  orderId: number;
  /** "paid", "unpaid" (a delayed method, settled by a later event) or "no_payment_required". */
  paymentStatus: string;
  amountTotal: number | null;
  currency: string | null;
  /** The delivery address the provider's page collected, if it did. */
  customer: CustomerInfo | null;
  /**
   * `pagesDigest` of the pages the checkout was opened for (Stripe: its metadata); null or absent
   * when the provider keeps none (the local test checkout, whose only state is the order row).
   */
  pagesDigest?: string | null;
}
