import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireBook, startProcessing } from "~/server/books/books.server";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, parseId, requireMethod } from "~/server/http/http.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const book = await requireBook(db, context.sessionId, parseId(params.id));
  await requireShopAllowance(env, db, request, context.sessionId, "process");
  return json(await startProcessing(env, db, book), { status: 202 });
}
