/**
 * Stripe Checkout (used when STRIPE_SECRET_KEY is set): the `stripe` package with its fetch
 * HTTP client, prices from our own records in GBP, and webhook signatures checked with the
 * SubtleCrypto provider (Workers have no Node crypto).
 */
import Stripe from "stripe";
import { PLANS, STATE_CODES, type DeliveryCountry } from "~/lib/shop-rules";
import type { CustomerInfo } from "~/core/db/schema.server";
import type { CheckoutEvent, CheckoutRequest, PaymentProvider } from "./payment-provider.server";

/** Our delivery form says UK; Stripe (ISO 3166) says GB. */
const TO_STRIPE_COUNTRY: Record<string, Stripe.Checkout.SessionCreateParams.ShippingAddressCollection.AllowedCountry> = {
  US: "US",
  CA: "CA",
  UK: "GB",
  AU: "AU",
};
const FROM_STRIPE_COUNTRY: Record<string, string> = { US: "US", CA: "CA", GB: "UK", AU: "AU" };

/**
 * The Stripe API version every call and every webhook event is read in (decision 026). The
 * webhook reads `collected_information.shipping_details`, which older versions do not send: the
 * endpoint must be created with this version too (README, Deploy), and an event in another
 * version is refused rather than read wrongly. Changing it is a code change, tested.
 */
export const STRIPE_API_VERSION = "2026-10-28.endive";

function stripeClient(secretKey: string, fetchFn?: typeof fetch): Stripe {
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    httpClient: Stripe.createFetchHttpClient(fetchFn),
    // A webhook retry or the buyer's retry is cheaper than a request hanging past the Worker's limit.
    timeout: 20_000,
    maxNetworkRetries: 1,
  });
}

export function checkoutSessionParams(request: CheckoutRequest): Stripe.Checkout.SessionCreateParams {
  const { order, bookTitle } = request;
  const { pricing } = order;
  const currency = pricing.currency.toLowerCase();
  const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = [
    {
      quantity: pricing.quantity,
      price_data: {
        currency,
        unit_amount: pricing.unitPrice,
        product_data: {
          name: `${PLANS[pricing.plan].name}: ${bookTitle}`.slice(0, 250),
          description: `${pricing.pages} pages, ${pricing.photos} of your photos as coloring pages`,
        },
      },
    },
  ];
  for (const [name, amount] of [
    ["Processing", pricing.processingFee],
    ["Shipping", pricing.shipping],
  ] as const) {
    if (amount > 0) lineItems.push({ quantity: 1, price_data: { currency, unit_amount: amount, product_data: { name } } });
  }
  const metadata = {
    orderId: String(order.id),
    orderNumber: order.orderNumber,
    bookId: String(order.bookId),
    plan: pricing.plan,
    pages: String(pricing.pages),
    pagesDigest: request.pagesDigest,
  };
  return {
    mode: "payment",
    client_reference_id: String(order.id),
    metadata,
    payment_intent_data: { metadata },
    line_items: lineItems,
    // The confirmation compares the amount and currency with the order's, in GBP: Adaptive Pricing
    // would let the buyer pay in their own currency, and every such payment would be refused.
    adaptive_pricing: { enabled: false },
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
    expires_at: Math.floor(request.expiresAt.getTime() / 1000),
    ...(order.customerInfo?.email ? { customer_email: order.customerInfo.email } : {}),
    // The print partner needs a phone number for the carrier (decision 032); Stripe's address
    // form asks US and Canadian buyers for their state itself.
    ...(request.collectShippingAddress
      ? { shipping_address_collection: { allowed_countries: Object.values(TO_STRIPE_COUNTRY) }, phone_number_collection: { enabled: true } }
      : {}),
  };
}

export function stripeProvider(secretKey: string, fetchFn?: typeof fetch): PaymentProvider {
  const stripe = stripeClient(secretKey, fetchFn);
  return {
    name: "stripe",
    async openCheckout(request) {
      const session = await stripe.checkout.sessions.create(checkoutSessionParams(request), {
        idempotencyKey: request.idempotencyKey,
      });
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
      return { sessionId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    },
    async expireCheckout(sessionId) {
      try {
        const session = await stripe.checkout.sessions.expire(sessionId);
        return session.status === "complete" ? "completed" : "expired";
      } catch (error) {
        // Already complete or already expired: Stripe refuses to expire it; ask what it is.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        const session = await stripe.checkout.sessions.retrieve(sessionId);
        if (session.status === "complete") return "completed";
        if (session.status === "expired") return "expired";
        throw error;
      }
    },
  };
}

export class WebhookSignatureError extends Error {}

/** The verified event, or a thrown WebhookSignatureError (missing, tampered or too old). */
export async function verifyStripeWebhook(
  payload: string,
  signature: string | null,
  webhookSecret: string,
  nowSeconds?: number,
): Promise<Stripe.Event> {
  if (!signature) throw new WebhookSignatureError("missing Stripe-Signature header");
  // The key only matters for calls to Stripe, which verifying a signature never makes.
  const stripe = stripeClient("sk_webhook_verification_only");
  try {
    return await stripe.webhooks.constructEventAsync(
      payload,
      signature,
      webhookSecret,
      undefined,
      Stripe.createSubtleCryptoProvider(),
      nowSeconds,
    );
  } catch (error) {
    throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
  }
}

/** The part of a Stripe Checkout Session event our fulfilment reads. */
export function checkoutEventFromStripe(event: Stripe.Event): CheckoutEvent | null {
  if (!event.type.startsWith("checkout.session.")) return null;
  const session = event.data.object as Stripe.Checkout.Session;
  return {
    type: event.type as CheckoutEvent["type"],
    sessionId: session.id,
    orderId: Number(session.client_reference_id ?? session.metadata?.orderId),
    paymentStatus: session.payment_status,
    amountTotal: session.amount_total,
    currency: session.currency,
    customer: customerFromSession(session),
    pagesDigest: session.metadata?.pagesDigest ?? null,
  };
}

function customerFromSession(session: Stripe.Checkout.Session): CustomerInfo | null {
  const shipping = session.collected_information?.shipping_details;
  const address = shipping?.address;
  if (!shipping || !address?.line1 || !address.country) return null;
  const [firstName, ...rest] = (shipping.name ?? session.customer_details?.name ?? "").trim().split(/\s+/);
  const phone = session.customer_details?.phone ?? null;
  return {
    firstName: firstName ?? "",
    lastName: rest.join(" "),
    email: session.customer_details?.email ?? session.customer_email ?? "",
    address1: address.line1,
    ...(address.line2 ? { address2: address.line2 } : {}),
    city: address.city ?? "",
    zipCode: address.postal_code ?? "",
    country: FROM_STRIPE_COUNTRY[address.country] ?? address.country,
    ...(phone ? { phone } : {}),
    ...(address.state && STATE_CODES[FROM_STRIPE_COUNTRY[address.country] as DeliveryCountry] ? { stateCode: address.state.toUpperCase() } : {}),
  };
}
