import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { paymentRequestSchema } from "~/lib/schemas";
import { database } from "~/server/db.server";
import { methodNotAllowed, parseId, readValidBody, requireMethod } from "~/server/http.server";
import { requireOrder } from "~/server/orders.server";
import { payForOrder } from "~/server/payments.server";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const order = await requireOrder(db, context.sessionId, parseId(params.orderId));
  const input = await readValidBody(request, paymentRequestSchema);
  return json(await payForOrder(env, db, order, input, request.url));
}
