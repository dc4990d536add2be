import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { recordBookDataSchema } from "~/lib/schemas";
import { recordBookData } from "~/server/payments/checkouts.server";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, readValidBody, requireMethod } from "~/server/http/http.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  // Each call keeps a checkouts row: limited like the books it stands for.
  await requireShopAllowance(env, db, request, context.sessionId, "book-data");
  const input = await readValidBody(request, recordBookDataSchema);
  const checkout = await recordBookData(db, context.sessionId, input);
  return json({ success: true, checkoutId: checkout.id }, { status: 201 });
}
