import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/server/db.server";
import { retryFailedImage } from "~/server/detail-levels.server";
import { methodNotAllowed, parseId, requireMethod } from "~/server/http.server";
import { imageDto, requireImage } from "~/server/images.server";
import { requireShopAllowance } from "~/server/shop-limits.server";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const image = await requireImage(db, context.sessionId, parseId(params.imageId));
  await requireShopAllowance(env, db, request, context.sessionId, "process");
  return json(imageDto(await retryFailedImage(env, db, image), image.bookDetailLevel), { status: 202 });
}
