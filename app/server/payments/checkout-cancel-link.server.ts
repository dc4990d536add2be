/**
 * The link a checkout's Cancel goes to (Stripe's back link, the local test checkout's Cancel;
 * decision 018): /checkout/{orderId}/cancel?attempt=…&token=…. Following it closes that
 * attempt's checkout, so it names the attempt and is signed: the provider's page sends the buyer
 * there with a plain GET, which no origin check can tell from a link planted on another site.
 */
import type { Order } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { hmacBase64Url, verifyHmacBase64Url } from "~/server/http/signing.server";

function signedPart(orderId: number, attempt: number): string {
  return `checkout-cancel:${orderId}:${attempt}`;
}

export async function checkoutCancelUrl(env: Env, origin: string, order: Pick<Order, "id" | "paymentAttempt">): Promise<string> {
  const token = await hmacBase64Url(env, signedPart(order.id, order.paymentAttempt));
  return `${origin}/checkout/${order.id}/cancel?attempt=${order.paymentAttempt}&token=${token}`;
}

/** The payment attempt a cancel link of this order was made for, or null when we did not sign it. */
export async function cancelLinkAttempt(env: Env, orderId: number, search: URLSearchParams): Promise<number | null> {
  const attemptText = search.get("attempt") ?? "";
  if (!/^[1-9][0-9]{0,8}$/.test(attemptText)) return null;
  const attempt = Number(attemptText);
  return (await verifyHmacBase64Url(env, signedPart(orderId, attempt), search.get("token") ?? "")) ? attempt : null;
}
