import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { recordBookDataSchema } from "~/lib/schemas";
import { recordBookData } from "~/server/checkouts.server";
import { database } from "~/server/db.server";
import { methodNotAllowed, readValidBody, requireMethod } from "~/server/http.server";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const input = await readValidBody(request, recordBookDataSchema);
  const checkout = await recordBookData(database(context.cloudflare.env.DB), context.sessionId, input);
  return json({ success: true, checkoutId: checkout.id }, { status: 201 });
}
