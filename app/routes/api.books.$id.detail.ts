import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import type { BookDetailChange } from "~/lib/api-types";
import { bookDetailRequestSchema } from "~/lib/schemas";
import { requireBook } from "~/server/books/books.server";
import { database } from "~/core/db/database.server";
import { setBookDetailLevel } from "~/server/books/detail-levels.server";
import { methodNotAllowed, parseId, readValidBody, requireMethod } from "~/server/http/http.server";
import { imageDto, listImages } from "~/server/books/images.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";

export const loader = () => methodNotAllowed(["PATCH"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["PATCH"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const book = await requireBook(db, context.sessionId, parseId(params.id));
  const { detailLevel } = await readValidBody(request, bookDetailRequestSchema);
  // A level change can redraw a whole book: counted like a processing run.
  await requireShopAllowance(env, db, request, context.sessionId, "process");
  const change = await setBookDetailLevel(env, db, book, detailLevel);
  const pages = (await listImages(db, book.id)).map((image) => imageDto(image, change.detailLevel));
  return json({ ...change, images: pages } satisfies BookDetailChange);
}
