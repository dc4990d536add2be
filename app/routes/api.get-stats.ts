import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { methodNotAllowed } from "~/server/http/http.server";
import { shopStatsResponse } from "~/server/books/stats.server";

/** docs/product.md §6: GET /api/get-stats, the landing page's counters (cached for a minute, stats.server.ts). */
export function loader({ request, context }: LoaderFunctionArgs) {
  return shopStatsResponse(database(context.cloudflare.env.DB), request);
}

export const action = () => methodNotAllowed(["GET"]);
