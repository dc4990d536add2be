import { json, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { bookProgress, requireBook } from "~/server/books/books.server";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, parseId } from "~/server/http/http.server";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const db = database(context.cloudflare.env.DB);
  const book = await requireBook(db, context.sessionId, parseId(params.id));
  return json(await bookProgress(db, book));
}

export const action = () => methodNotAllowed(["GET"]);
