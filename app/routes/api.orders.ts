import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { orderRequestSchema } from "~/lib/schemas";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, readValidBody, requireMethod } from "~/server/http/http.server";
import { createOrder, orderDto } from "~/server/orders/orders.server";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const input = await readValidBody(request, orderRequestSchema);
  const order = await createOrder(database(context.cloudflare.env.DB), context.sessionId, input);
  return json(orderDto(order), { status: 201 });
}
