import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { serveDebugFile } from "~/server/preview/free-preview.server";
import { methodNotAllowed } from "~/server/http/http.server";

/** /debug/debug-{image|mask|sketch}-{timestamp}.png: the planes of the caller's own conversion. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  return serveDebugFile(env, database(env.DB), context.sessionId, params.file ?? "", request);
}

export const action = () => methodNotAllowed(["GET", "HEAD"]);
