/**
 * Retention (issue 8 item 6, decision 013), run daily by a Cron Trigger:
 * - a book never paid for is kept for BOOK_RETENTION_DAYS (the privacy page says photos are
 *   deleted after a year): then its originals and sketches leave R2 and the book leaves D1
 *   (its images, quotes and unpaid orders go with it);
 * - an object in R2 that no row names (a Worker that died between storing and recording) is
 *   deleted once it is a day old. Print PDFs are named by orders and kept.
 * Both are bounded per run; what is left is done the next day.
 */
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { BOOK_RETENTION_DAYS, ORPHAN_OBJECT_GRACE_HOURS } from "~/lib/constants";
import { regionsKeyFor, regionsOrigin } from "../../workers/sketch/contract";
import { database } from "./db.server";
import { books, images } from "./db/schema";
import type { Env } from "./env.server";

/** wrangler.toml [triggers]: daily at 03:00 UTC; every other schedule is the hourly cleanup. */
export const RETENTION_CRON = "0 3 * * *";

/** A book with no order being paid or paid: checked again by the delete, as an order may start meanwhile. */
const NEVER_PAID = sql`NOT EXISTS (SELECT 1 FROM orders WHERE orders.book_id = ${books.id} AND orders.payment_status IN ('paying', 'paid'))`;

const BOOKS_PER_ROUND = 50;
const MAX_ROUNDS = 20;
/** R2 lists 1000 keys a page; a day's run looks at this many pages of each prefix at most. */
const MAX_LIST_PAGES = 10;
/**
 * The prefixes whose every object a row names: originals and sketches of books and uploads, and
 * the region hierarchies kept beside them (named through their original, see unnamedKeys).
 * (Debug planes go with their upload in the hourly cleanup; print PDFs are named by orders.)
 */
const SWEPT_PREFIXES = ["originals/", "sketches/", "regions/"];
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionReport {
  booksDeleted: number;
  orphansDeleted: number;
}

export async function applyRetention(env: Env, now: Date): Promise<RetentionReport> {
  return {
    booksDeleted: await deleteUnorderedBooks(env, now),
    orphansDeleted: await sweepOrphanObjects(env, now),
  };
}

async function deleteUnorderedBooks(env: Env, now: Date): Promise<number> {
  const db = database(env.DB);
  const cutoff = new Date(now.getTime() - BOOK_RETENTION_DAYS * DAY_MS);
  let deleted = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const stale = await db
      .select({ id: books.id })
      .from(books)
      .where(
        and(
          lt(books.createdAt, cutoff),
          NEVER_PAID,
        ),
      )
      .limit(BOOKS_PER_ROUND);
    if (stale.length === 0) break;
    const ids = stale.map((book) => book.id);
    const objects = await db
      .select({ original: images.originalKey, sketch: images.sketchKey })
      .from(images)
      .where(inArray(images.bookId, ids));
    const keys = objects.flatMap((object) => [object.original, regionsKeyFor(object.original), ...(object.sketch ? [object.sketch] : [])]);
    // Objects first: if the run dies halfway, the rows are still there to find tomorrow.
    for (let at = 0; at < keys.length; at += 1000) await env.IMAGES.delete(keys.slice(at, at + 1000));
    await db.delete(books).where(
      and(
        inArray(books.id, ids),
        NEVER_PAID,
      ),
    );
    deleted += ids.length;
  }
  return deleted;
}

async function sweepOrphanObjects(env: Env, now: Date): Promise<number> {
  const graceCutoff = now.getTime() - ORPHAN_OBJECT_GRACE_HOURS * 60 * 60 * 1000;
  let deleted = 0;
  for (const prefix of SWEPT_PREFIXES) {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const listing = await env.IMAGES.list({ prefix, cursor, limit: 1000 });
      const old = listing.objects.filter((object) => object.uploaded.getTime() < graceCutoff).map((object) => object.key);
      const orphans = await unnamedKeys(env, old);
      if (orphans.length > 0) await env.IMAGES.delete(orphans);
      deleted += orphans.length;
      if (!listing.truncated) break;
      cursor = listing.cursor;
    }
  }
  return deleted;
}

/**
 * The keys no row of ours names as an original, a sketch or an upload. A region hierarchy is
 * named by the row of its original, while today's engine made it (an older engine's is garbage:
 * its pages are redrawn from a new one).
 */
async function unnamedKeys(env: Env, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const regionKeys = keys.filter((key) => regionsOrigin(key));
  if (regionKeys.length > 0) {
    return [...(await unnamedRegions(env, regionKeys)), ...(await unnamedKeys(env, keys.filter((key) => !regionsOrigin(key))))];
  }
  const named = await env.DB.prepare(
    `SELECT k.value AS key FROM json_each(?1) AS k
     WHERE EXISTS (SELECT 1 FROM images WHERE original_key = k.value OR sketch_key = k.value)
        OR EXISTS (SELECT 1 FROM uploads WHERE key = k.value OR sketch_key = k.value)`,
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
