import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { retryFailedImage } from "~/server/books/detail-levels.server";
import { methodNotAllowed, parseId, requireMethod } from "~/server/http/http.server";
import { imageDto, requireImage } from "~/server/books/images.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const image = await requireImage(db, context.sessionId, parseId(params.imageId));
  await requireShopAllowance(env, db, request, context.sessionId, "process");
  return json(imageDto(await retryFailedImage(env, db, image), image.bookDetailLevel), { status: 202 });
}
