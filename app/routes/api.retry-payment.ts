import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { retryPaymentSchema } from "~/lib/schemas";
import { retryPayment } from "~/server/payments/checkouts.server";
import { database } from "~/core/db/database.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";
import { methodNotAllowed, readValidBody, requireMethod } from "~/server/http/http.server";

export const loader = () => methodNotAllowed(["POST"]);

/** docs/product.md §6: the unpaid create-book order of this visitor, its checkout `url` again. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const input = await readValidBody(request, retryPaymentSchema);
  const db = database(env.DB);
  const chargeProviderCall = () => requireShopAllowance(env, db, request, context.sessionId, "payment");
  const payment = await retryPayment({ env, db, origin: new URL(request.url).origin, chargeProviderCall }, context.sessionId, input);
  return json({ url: payment.checkoutUrl, orderNumber: payment.orderNumber, orderId: payment.orderId });
}
