/**
 * A checkout's cancel link (Stripe's back link and the local test checkout's Cancel; decision
 * 018): closes that attempt's checkout so the book's pages unlock at once, then shows the buyer
 * the cancelled page. Only the visitor whose book it is, with the link we signed for the attempt.
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { cancelLinkAttempt } from "~/server/payments/checkout-cancel-link.server";
import { database } from "~/core/db/database.server";
import { notFound, parseId } from "~/server/http/http.server";
import { requireOrder } from "~/server/orders/orders.server";
import { cancelCheckout, checkoutReturnUrls } from "~/server/payments/payments.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const url = new URL(request.url);
  const orderId = parseId(params.orderId);
  const attempt = await cancelLinkAttempt(env, orderId, url.searchParams);
  if (attempt === null) throw notFound();
  const order = await requireOrder(db, context.sessionId, orderId);
  await cancelCheckout({ env, db, origin: url.origin }, order, attempt);
  return redirect((await checkoutReturnUrls(env, db, order, url.origin)).cancelled);
}
