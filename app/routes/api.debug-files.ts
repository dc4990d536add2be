import { json, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { latestDebugTimestamp } from "~/server/preview/free-preview.server";
import { methodNotAllowed } from "~/server/http/http.server";

/** docs/product.md §6: GET /api/debug-files → { latest }, the caller's own last free-preview conversion. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const latest = await latestDebugTimestamp(env, database(env.DB), context.sessionId);
  return json({ latest }, { headers: { "Cache-Control": "no-store" } });
}

export const action = () => methodNotAllowed(["GET"]);
