import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { paymentRequestSchema } from "~/lib/schemas";
import { database } from "~/core/db/database.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";
import { methodNotAllowed, parseId, readValidBody, requireMethod } from "~/server/http/http.server";
import { requireOrder } from "~/server/orders/orders.server";
import { startOrderPayment } from "~/server/payments/payments.server";

export const loader = () => methodNotAllowed(["POST"]);

/** Opens the provider's checkout for the visitor's order; the answer's `checkoutUrl` is where to go. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const order = await requireOrder(db, context.sessionId, parseId(params.orderId));
  await readValidBody(request, paymentRequestSchema);
  const chargeProviderCall = () => requireShopAllowance(env, db, request, context.sessionId, "payment");
  return json(await startOrderPayment({ env, db, origin: new URL(request.url).origin, chargeProviderCall }, order));
}
