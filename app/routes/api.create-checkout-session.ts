import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { createCheckoutSessionSchema } from "~/lib/schemas";
import { createCheckoutSession } from "~/server/payments/checkouts.server";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, readValidBody, requireMethod } from "~/server/http/http.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";

export const loader = () => methodNotAllowed(["POST"]);

/** docs/product.md §6: answers `url`, the provider's page the browser goes to. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const input = await readValidBody(request, createCheckoutSessionSchema);
  const db = database(env.DB);
  await requireShopAllowance(env, db, request, context.sessionId, "book");
  const chargeProviderCall = () => requireShopAllowance(env, db, request, context.sessionId, "payment");
  const payment = await createCheckoutSession({ env, db, origin: new URL(request.url).origin, chargeProviderCall }, context.sessionId, input);
  return json({ url: payment.checkoutUrl, orderNumber: payment.orderNumber, orderId: payment.orderId });
}
