/**
 * The landing page's live statistics (docs/product.md §5.1), counted from the tables
 * themselves rather than kept as counters, so they can never drift from the data (docs/design.md §3).
 */
import { json } from "@remix-run/cloudflare";
import { count, countDistinct, eq } from "drizzle-orm";
import type { ShopStats } from "~/lib/api-types";
import { STATS_CACHE_MAX_AGE_SECONDS } from "~/lib/shop-rules";
import type { Database } from "~/core/db/database.server";
import { books, images } from "~/core/db/schema.server";

export async function shopStats(db: Database): Promise<ShopStats> {
  // One round trip to D1 for the three counts.
  const [bookCounts, photoCounts] = await db.batch([
    // A visitor with at least one book is a customer: the page shows happyFamilies as "unique customers".
    db.select({ booksCreated: count(), happyFamilies: countDistinct(books.sessionId) }).from(books),
    db.select({ photosConverted: count() }).from(images).where(eq(images.processingStatus, "completed")),
  ]);
  return {
    booksCreated: bookCounts[0]?.booksCreated ?? 0,
    happyFamilies: bookCounts[0]?.happyFamilies ?? 0,
    photosConverted: photoCounts[0]?.photosConverted ?? 0,
  };
}

/**
 * GET /api/get-stats through the Workers cache (caches.default): the counts are the same for every
 * visitor and may be a minute old, so the tables are counted about once a minute per data centre,
 * not on every anonymous call. The key is the URL without its query, so `?anything` cannot force
 * a count. The Cache API stores nothing on workers.dev, one reason the shop is not served there.
 */
export async function shopStatsResponse(db: Database, request: Request, cache: Cache = caches.default): Promise<Response> {
  const key = new URL(request.url);
  key.search = "";
  key.hash = "";
  const cached = await cache.match(key.toString());
  // A copy: the Worker adds its security headers to every answer, and a cached one is read-only.
  if (cached) return new Response(cached.body, cached);
  // Browsers and the edge may keep it as long as we do.
  const response = json(await shopStats(db), {
    headers: { "Cache-Control": `public, max-age=${STATS_CACHE_MAX_AGE_SECONDS}` },
  });
  // Awaited rather than left to waitUntil: a put once a minute costs little, and the next call finds it.
  await cache.put(key.toString(), response.clone());
  return response;
}
