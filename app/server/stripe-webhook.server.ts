/**
 * The Stripe webhook: verify the signature over the raw body, then hand checkout events to the
 * one fulfilment path. Answers 400 to a bad signature (Stripe shows it in the dashboard), 200 to
 * anything handled or deliberately ignored (so Stripe stops retrying), and lets a failure of our
 * own (D1 down) throw, so Stripe retries later.
 */
import type { Database } from "./db.server";
import type { Env } from "./env.server";
import { handleCheckoutEvent } from "./payments.server";
import { checkoutEventFromStripe, verifyStripeWebhook, WebhookSignatureError } from "./stripe.server";

/** Stripe signs at most a few hundred KB; anything bigger is not Stripe. */
const MAX_WEBHOOK_BYTES = 512 * 1024;

export async function handleStripeWebhook(
  env: Env,
  db: Database,
  request: Request,
  nowSeconds?: number,
): Promise<{ status: number; body: Record<string, unknown> }> {
  if (!env.STRIPE_WEBHOOK_SECRET) {
    console.error("Stripe webhook called but STRIPE_WEBHOOK_SECRET is not set");
    return { status: 503, body: { message: "Webhook not configured" } };
  }
  if (Number(request.headers.get("Content-Length")) > MAX_WEBHOOK_BYTES) {
    return { status: 413, body: { message: "Payload too large" } };
  }
  const payload = await request.text();
  if (payload.length > MAX_WEBHOOK_BYTES) return { status: 413, body: { message: "Payload too large" } };
  let event;
  try {
    event = await verifyStripeWebhook(payload, request.headers.get("Stripe-Signature"), env.STRIPE_WEBHOOK_SECRET, nowSeconds);
  } catch (error) {
    if (!(error instanceof WebhookSignatureError)) throw error;
    console.warn(`Stripe webhook refused: ${error.message}`);
    return { status: 400, body: { message: "Invalid signature" } };
  }
  const checkoutEvent = checkoutEventFromStripe(event);
  if (!checkoutEvent) return { status: 200, body: { received: true, outcome: "ignored" } };
  const outcome = await handleCheckoutEvent(env, db, checkoutEvent);
  return { status: 200, body: { received: true, outcome } };
}
