/**
 * The daily sweep of R2 objects no row names (docs/decisions/013, 019): an original, sketch or
 * region hierarchy stored by a Worker that died before it wrote its row is deleted once it is
 * ORPHAN_OBJECT_GRACE_HOURS old. Each run lists a bounded number of pages per prefix and goes on
 * the next day after the last key it listed (sweep_cursors), so a bucket of any size is covered
 * in turn; at the end of a prefix the next run starts at its first key again.
 */
import { eq } from "drizzle-orm";
import { ORPHAN_OBJECT_GRACE_HOURS } from "~/lib/shop-rules";
import { regionsOrigin } from "~/core/contracts/sketch";
import { database, type Database } from "~/core/db/database.server";
import { sweepCursors } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";

/**
 * The prefixes whose every object a row names: originals and sketches of books and uploads, and
 * the region hierarchies kept beside them (named through their original, see unnamedKeys).
 * (Debug planes go with their upload in the hourly cleanup; print PDFs are named by orders and
 * deleted by the retention of their book.)
 */
const SWEPT_PREFIXES = ["originals/", "sketches/", "regions/"];

export interface SweepLimits {
  /** Keys per R2 list call (R2 gives at most 1000). */
  listPageSize: number;
  /** List calls per prefix in one run; the next run goes on where this one stopped. */
  maxListPages: number;
}

export async function sweepOrphanObjects(env: Env, now: Date, limits: SweepLimits): Promise<number> {
  const db = database(env.DB);
  const graceCutoff = now.getTime() - ORPHAN_OBJECT_GRACE_HOURS * 60 * 60 * 1000;
  let deleted = 0;
  for (const prefix of SWEPT_PREFIXES) {
    // A key, not R2's opaque list cursor: a key stays meaningful from one day to the next, and
    // whether it still exists does not matter to `startAfter`.
    let startAfter = await readCursor(db, prefix);
    for (let page = 0; page < limits.maxListPages; page++) {
      const listing = await env.IMAGES.list({ prefix, startAfter: startAfter ?? undefined, limit: limits.listPageSize });
      const old = listing.objects.filter((object) => object.uploaded.getTime() < graceCutoff).map((object) => object.key);
      const orphans = await unnamedKeys(env, old);
      if (orphans.length > 0) await env.IMAGES.delete(orphans);
      deleted += orphans.length;
      const last = listing.objects.at(-1)?.key;
      // The end of the prefix: the next run starts over at its first key.
      startAfter = listing.truncated && last ? last : null;
      // Stored after every page, so a run that dies halfway still moves the sweep on.
      await writeCursor(db, prefix, startAfter, now);
      if (startAfter === null) break;
    }
  }
  return deleted;
}

async function readCursor(db: Database, prefix: string): Promise<string | null> {
  const row = await db.query.sweepCursors.findFirst({ where: eq(sweepCursors.prefix, prefix) });
  return row?.startAfter ?? null;
}

async function writeCursor(db: Database, prefix: string, startAfter: string | null, now: Date): Promise<void> {
  await db
    .insert(sweepCursors)
    .values({ prefix, startAfter, updatedAt: now })
    .onConflictDoUpdate({ target: sweepCursors.prefix, set: { startAfter, updatedAt: now } });
}

/**
 * The keys no row of ours names as an original, a sketch or an upload, nor a paid order (or one
 * being paid) as a page it pays for: the print job prints the recorded drawing even after the
 * page's row moved on to another (decision 018). A region hierarchy is
 * named by the row of its original, while today's engine made it (an older engine's is garbage:
 * its pages are redrawn from a new one).
 */
async function unnamedKeys(env: Env, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const regionKeys = keys.filter((key) => regionsOrigin(key));
  if (regionKeys.length > 0) {
    return [...(await unnamedRegions(env, regionKeys)), ...(await unnamedKeys(env, keys.filter((key) => !regionsOrigin(key))))];
  }
  // The recorded pages are read once per call (an uncorrelated subquery), not once per key.
  const named = await env.DB.prepare(
    `SELECT k.value AS key FROM json_each(?1) AS k
     WHERE EXISTS (SELECT 1 FROM images WHERE original_key = k.value OR sketch_key = k.value)
        OR EXISTS (SELECT 1 FROM uploads WHERE key = k.value OR sketch_key = k.value)
        OR k.value IN (
          SELECT json_extract(page.value, '$.sketchKey') FROM orders, json_each(orders.print_pages) AS page
          WHERE orders.print_pages IS NOT NULL AND orders.payment_status IN ('paying', 'paid'))`,
  )
    .bind(JSON.stringify(keys))
    .all<{ key: string }>();
  const keep = new Set(named.results.map((row) => row.key));
  return keys.filter((key) => !keep.has(key));
}

/** Region hierarchies whose original no image or upload row names any more, or that an older engine made. */
async function unnamedRegions(env: Env, keys: string[]): Promise<string[]> {
  const origins = keys.map((key) => ({ key, ...regionsOrigin(key)! }));
  const current = origins.filter((origin) => origin.currentEngine);
  // An original's key is its stem, or its stem and an extension.
  const named = await env.DB.prepare(
    `SELECT s.value AS stem FROM json_each(?1) AS s
     WHERE EXISTS (SELECT 1 FROM images WHERE original_key = s.value OR original_key LIKE s.value || '.%')
        OR EXISTS (SELECT 1 FROM uploads WHERE key = s.value OR key LIKE s.value || '.%')`,
  )
    .bind(JSON.stringify(current.map((origin) => origin.originalStem)))
    .all<{ stem: string }>();
  const keep = new Set(named.results.map((row) => row.stem));
  return origins.filter((origin) => !origin.currentEngine || !keep.has(origin.originalStem)).map((origin) => origin.key);
}
