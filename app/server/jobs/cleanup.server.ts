/**
 * The hourly Cron Trigger of the app Worker (wrangler.toml [triggers]): free-preview uploads are
 * kept 24 hours (FREE_PREVIEW_RETENTION_HOURS), then their original, sketch, region hierarchy and debug planes
 * leave R2 and their rows leave D1; so do unused tickets (once expired) and old daily counters. An upload that
 * a checkout made part of a book (bookId set) is never touched.
 */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { FREE_PREVIEW_RETENTION_HOURS } from "~/lib/shop-rules";
import { debugKeysFor, regionsKeyFor } from "~/core/contracts/sketch";
import { database } from "~/core/db/database.server";
import { uploads, usageCounts } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { USAGE_RETENTION_DAYS, utcDay } from "~/server/limits/preview-limits.server";

/** Rows per round: R2 deletes up to 1000 keys at once, each upload has up to five. */
const BATCH_SIZE = 200;
/** Bounds one run; an hourly run that finds more simply continues next hour. */
const MAX_ROUNDS = 25;
const HOUR_MS = 60 * 60 * 1000;

export interface CleanupReport {
  uploadsDeleted: number;
  objectsDeleted: number;
  usageRowsDeleted: number;
}

export async function cleanUpFreePreviews(env: Env, now: Date): Promise<CleanupReport> {
  const db = database(env.DB);
  const cutoff = new Date(now.getTime() - FREE_PREVIEW_RETENTION_HOURS * HOUR_MS);
  const report: CleanupReport = { uploadsDeleted: 0, objectsDeleted: 0, usageRowsDeleted: 0 };

  for (let round = 0; round < MAX_ROUNDS; round++) {
    const stale = await db
      .select({ key: uploads.key, sketchKey: uploads.sketchKey, debugKey: uploads.debugKey })
      .from(uploads)
      .where(
        and(
          isNull(uploads.bookId),
          // A ticket nobody used before it expired can never be used: no need to wait a day.
          or(lt(uploads.createdAt, cutoff), and(eq(uploads.status, "ticketed"), lt(uploads.expiresAt, now))),
        ),
      )
      .limit(BATCH_SIZE);
    if (stale.length === 0) break;

    const objectKeys = stale.flatMap((upload) => {
      // The converted photo's region hierarchy (kept beside its page) goes with it.
      const keys = [upload.key, regionsKeyFor(upload.key)];
      if (upload.sketchKey) keys.push(upload.sketchKey);
      if (upload.debugKey) keys.push(...Object.values(debugKeysFor(upload.debugKey)));
      return keys;
    });
    // Objects first: if this run dies halfway, the rows are still there to find next hour.
    await env.IMAGES.delete(objectKeys);
    const keys = stale.map((upload) => upload.key);
    // bookId is checked again: a checkout may have claimed one of them meanwhile. The keys go
    // as one JSON parameter (D1 binds at most 100 per statement).
    const deleted = await db
      .delete(uploads)
      .where(and(sql`${uploads.key} IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`, isNull(uploads.bookId)))
      .returning({ key: uploads.key });
    report.uploadsDeleted += deleted.length;
    report.objectsDeleted += objectKeys.length;
    if (stale.length < BATCH_SIZE) break;
  }

  const oldestKeptDay = utcDay(new Date(now.getTime() - USAGE_RETENTION_DAYS * 24 * HOUR_MS));
  const usage = await db.delete(usageCounts).where(lt(usageCounts.day, oldestKeptDay)).returning({ day: usageCounts.day });
  report.usageRowsDeleted = usage.length;
  return report;
}
