import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { pageDetailRequestSchema } from "~/lib/schemas";
import { database } from "~/core/db/database.server";
import { setPageDetailLevel } from "~/server/books/detail-levels.server";
import { methodNotAllowed, parseId, readValidBody, requireMethod } from "~/server/http/http.server";
import { imageDto, requireImage } from "~/server/books/images.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";

export const loader = () => methodNotAllowed(["PATCH"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["PATCH"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const image = await requireImage(db, context.sessionId, parseId(params.imageId));
  const { detailLevel } = await readValidBody(request, pageDetailRequestSchema);
  await requireShopAllowance(env, db, request, context.sessionId, "process");
  return json(imageDto(await setPageDetailLevel(env, db, image, detailLevel), image.bookDetailLevel));
}
