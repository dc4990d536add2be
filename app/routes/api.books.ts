import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { bookFormSchema } from "~/lib/schemas";
import { bookDto, createBook } from "~/server/books/books.server";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, readValidBody, requireMethod } from "~/server/http/http.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const input = await readValidBody(request, bookFormSchema, { allowForm: true });
  const db = database(context.cloudflare.env.DB);
  await requireShopAllowance(context.cloudflare.env, db, request, context.sessionId, "book");
  const book = await createBook(db, context.sessionId, input);
  return json(bookDto(book), { status: 201 });
}
