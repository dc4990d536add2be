import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { database } from "~/core/db/database.server";
import { convertUpload } from "~/server/preview/free-preview.server";
import { methodNotAllowed, readValidBody, requireMethod } from "~/server/http/http.server";
import { requesterOf } from "~/server/limits/preview-limits.server";

const convertImageSchema = z.object({ id: z.string().min(1).max(200) });

/** docs/product.md §6: POST /api/convert-image { id } (the key of an uploaded ticket) → data.convertedImageUrl. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const { id } = await readValidBody(request, convertImageSchema);
  const requester = await requesterOf(env, request, context.sessionId);
  const data = await convertUpload(env, database(env.DB), requester, id, new Date());
  return json({ data });
}

export const loader = () => methodNotAllowed(["POST"]);
