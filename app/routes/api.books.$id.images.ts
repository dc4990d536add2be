import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireBook } from "~/server/books/books.server";
import { database } from "~/core/db/database.server";
import { parseId, requireMethod } from "~/server/http/http.server";
import { addImages, imageDto, listImages } from "~/server/books/images.server";
import { requireShopAllowance, storedBytesCharge } from "~/server/limits/shop-limits.server";
import { drainBody, REFUSED_BODY_DRAIN_BYTES } from "~/server/http/bytes.server";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const db = database(context.cloudflare.env.DB);
  const book = await requireBook(db, context.sessionId, parseId(params.id));
  return json((await listImages(db, book.id)).map((image) => imageDto(image, book.detailLevel)));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const book = await requireBook(db, context.sessionId, parseId(params.id));
  try {
    await requireShopAllowance(env, db, request, context.sessionId, "upload");
  } catch (refusal) {
    // Refused unread: take a little of the body off the wire so a well-behaved client's
    // connection stays usable; a flood is cut off.
    await drainBody(request.body, REFUSED_BODY_DRAIN_BYTES);
    throw refusal;
  }
  const images = await addImages(env, db, book, request, storedBytesCharge(env, db, request, context.sessionId));
  return json({ images: images.map((image) => imageDto(image, book.detailLevel)) }, { status: 201 });
}
