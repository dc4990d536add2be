import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { quoteRequestSchema } from "~/lib/schemas";
import { requireBook } from "~/server/books/books.server";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, parseId, readValidBody, requireMethod } from "~/server/http/http.server";
import { createQuote } from "~/server/orders/quotes.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const db = database(context.cloudflare.env.DB);
  const book = await requireBook(db, context.sessionId, parseId(params.id));
  const { deliveryAddress } = await readValidBody(request, quoteRequestSchema);
  await requireShopAllowance(context.cloudflare.env, db, request, context.sessionId, "quote");
  return json(await createQuote(db, book, deliveryAddress));
}
