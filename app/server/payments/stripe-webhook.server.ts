/**
 * The Stripe webhook: verify the signature over the raw body, then hand checkout events to the
 * one fulfilment path. Answers 400 to a bad signature (Stripe shows it in the dashboard), 200 to
 * anything handled or deliberately ignored (so Stripe stops retrying), 413 (thrown) to a body past
 * MAX_WEBHOOK_BYTES, counted on the stream, and lets a failure of our own (D1 down) throw, so
 * Stripe retries later.
 */
import { API_MESSAGES } from "~/lib/customer-copy";
import { readBodyUpTo } from "~/server/http/bytes.server";
import type { Database } from "~/core/db/database.server";
import type { Env } from "~/server/http/env.server";
import { jsonError } from "~/server/http/http.server";
import { handleCheckoutEvent } from "./payments.server";
import { checkoutEventFromStripe, STRIPE_API_VERSION, verifyStripeWebhook, WebhookSignatureError } from "./stripe.server";

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
  // Stripe always signs: a request without a signature is refused before its body is read.
  const signature = request.headers.get("Stripe-Signature");
  if (!signature) return refuseSignature("missing Stripe-Signature header");
  // Counted on the stream: a chunked body declares no length.
  const bytes = await readBodyUpTo(request, MAX_WEBHOOK_BYTES, () => jsonError(413, API_MESSAGES.bodyTooLarge));
  const payload = new TextDecoder().decode(bytes);
  let event;
  try {
    event = await verifyStripeWebhook(payload, signature, env.STRIPE_WEBHOOK_SECRET, nowSeconds);
  } catch (error) {
    if (!(error instanceof WebhookSignatureError)) throw error;
    return refuseSignature(error.message);
  }
  if (event.api_version !== STRIPE_API_VERSION) {
    // Read in another version, a session may lack the fields fulfilment reads (the address).
    // Not 2xx, so Stripe keeps the event and retries it once the endpoint is set up right.
    console.error(`Stripe webhook event ${event.id} is in API version ${event.api_version}; the endpoint must send ${STRIPE_API_VERSION}`);
    return { status: 503, body: { message: "Webhook endpoint API version is not the shop's" } };
  }
  const checkoutEvent = checkoutEventFromStripe(event);
  if (!checkoutEvent) return { status: 200, body: { received: true, outcome: "ignored" } };
  const outcome = await handleCheckoutEvent(env, db, checkoutEvent);
  return { status: 200, body: { received: true, outcome } };
}

function refuseSignature(reason: string): { status: number; body: Record<string, unknown> } {
  console.warn(`Stripe webhook refused: ${reason}`);
  return { status: 400, body: { message: "Invalid signature" } };
}
