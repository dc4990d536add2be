import { json, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { STATS_CACHE_MAX_AGE_SECONDS } from "~/lib/constants";
import { database } from "~/server/db.server";
import { methodNotAllowed } from "~/server/http.server";
import { shopStats } from "~/server/stats.server";

export async function loader({ context }: LoaderFunctionArgs) {
  const stats = await shopStats(database(context.cloudflare.env.DB));
  // The same for every visitor and fine a minute old: browsers and the edge may keep it.
  return json(stats, { headers: { "Cache-Control": `public, max-age=${STATS_CACHE_MAX_AGE_SECONDS}` } });
}

export const action = () => methodNotAllowed(["GET"]);
