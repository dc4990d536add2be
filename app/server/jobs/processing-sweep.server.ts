/**
 * No image stays in processing forever (decision 014). The sketch queue retries
 * a failing job and then dead-letters it, and the dead-letter consumer marks the image failed;
 * but if that consumer itself cannot reach D1 (or a message is lost), the image would wait
 * forever. The hourly Cron Trigger runs this sweep:
 * - an image sent to the queue (`processing`, or picked but still `pending`) more than
 *   PROCESSING_STUCK_MINUTES ago is sent again, counting images.process_attempts;
 * - once it has been sent MAX_PROCESS_ATTEMPTS times, it is marked `failed` with the customer's
 *   give-up reason instead.
 * Sending a job twice is harmless: the consumer skips a page already drawn at the same key.
 */
import { and, eq, gte, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import { MAX_PROCESS_ATTEMPTS, PROCESSING_STUCK_MINUTES } from "~/lib/shop-rules";
import { PROCESSING_FAILURES } from "~/core/engine-messages";
import { pageDetailLevel, sketchJobs } from "~/server/books/books.server";
import { database } from "~/core/db/database.server";
import { images } from "~/core/db/schema.server";
import type { DetailLevel } from "~/core/engine-limits";
import type { Env } from "~/server/http/env.server";

/** Queue.sendBatch takes at most 100 messages. */
const SEND_BATCH_LIMIT = 100;

/** Images one hourly sweep sends again, in batches of SEND_BATCH_LIMIT; any beyond wait for the next hour. */
const SWEEP_RESEND_LIMIT = 1000;

export interface ProcessingSweepReport {
  requeued: number;
  failed: number;
}

/** Sent to the sketch queue (`processing`, or picked but still `pending`) and not finished. */
const sentAndUnfinished = or(eq(images.processingStatus, "processing"), and(eq(images.processingStatus, "pending"), isNotNull(images.queuedAt)));

/** Sent to the queue and not finished by `deadline` (legacy rows without queued_at count from their upload). */
function stuckSince(deadline: Date) {
  return and(sentAndUnfinished, lt(sql`coalesce(${images.queuedAt}, ${images.createdAt})`, Math.floor(deadline.getTime() / 1000)));
}

/** More than a developer's machine has in flight (`npm run load` sends 250); the rest wait for the next reload. */
const LOCAL_RESEND_LIMIT = 1000;

/**
 * Local development only (resendOnceAfterLocalStart, below, calls it once per isolate, so once
 * after each start and reload of `wrangler dev`). Local Queues live in the runtime's memory: a reload (any file the
 * watcher rebuilds, a second `npm run dev` building in the same folder) or a stop drops every
 * sketch job not yet delivered, and their photos stayed "processing" for good, since the hourly
 * sweep above never runs under wrangler dev (decision 023: the load runs whose queue "stopped").
 * So every image sent and unfinished is sent again, without counting an attempt: nothing failed.
 * A job delivered twice is harmless (the consumer skips a page already drawn at its key).
 * Deployed Queues keep their messages across deploys; there the hourly sweep is the safety net.
 */
export async function resendAfterLocalRestart(env: Env): Promise<{ resent: number }> {
  const inFlight = await database(env.DB)
    .select({ id: images.id, detail: pageDetailLevel })
    .from(images)
    .where(sentAndUnfinished)
    .orderBy(images.id)
    .limit(LOCAL_RESEND_LIMIT);
  for (let start = 0; start < inFlight.length; start += SEND_BATCH_LIMIT) {
    await env.SKETCH_QUEUE.sendBatch(sketchJobs(inFlight.slice(start, start + SEND_BATCH_LIMIT)));
  }
  return { resent: inFlight.length };
}

/** Whether this isolate has resent what a local start or reload dropped. */
let resentInThisIsolate = false;

/** The app Worker's fetch calls this on every request: under `wrangler dev` the first one resends (above). */
export function resendOnceAfterLocalStart(env: Env, ctx: ExecutionContext): void {
  if (resentInThisIsolate || env.APP_ENV !== "development") return;
  resentInThisIsolate = true;
  ctx.waitUntil(
    resendAfterLocalRestart(env).then(
      (report) => console.log("resend after a local reload", JSON.stringify(report)),
      (error) => console.error("resend after a local reload failed", error),
    ),
  );
}

export async function sweepStuckImages(env: Env, now: Date): Promise<ProcessingSweepReport> {
  const db = database(env.DB);
  const deadline = new Date(now.getTime() - PROCESSING_STUCK_MINUTES * 60_000);

  const gaveUp = await db
    .update(images)
    .set({ processingStatus: "failed", error: PROCESSING_FAILURES.gaveUp })
    .where(and(stuckSince(deadline), gte(images.processAttempts, MAX_PROCESS_ATTEMPTS)))
    .returning({ id: images.id });
  if (gaveUp.length) console.warn(`processing sweep: gave up on images ${gaveUp.map((row) => row.id).join(", ")}`);

  // Each round picks up to one sendBatch's worth in the statement that counts the attempt (and
  // checks it is still stuck), so two overlapping sweeps cannot both send an image. The ids are
  // chosen by a subquery, never bound one by one: D1 refuses a statement with more than 100
  // bound parameters, and the sweep is needed most when many images are stuck at once.
  const picked: { id: number; detail: DetailLevel }[] = [];
  while (picked.length < SWEEP_RESEND_LIMIT) {
    const stillStuck = and(stuckSince(deadline), lt(images.processAttempts, MAX_PROCESS_ATTEMPTS));
    const round = await db
      .update(images)
      .set({ queuedAt: now, processAttempts: sql`${images.processAttempts} + 1` })
      .where(
        and(
          inArray(images.id, db.select({ id: images.id }).from(images).where(stillStuck).orderBy(images.id).limit(SEND_BATCH_LIMIT)),
          stillStuck,
        ),
      )
      .returning({ id: images.id, detail: pageDetailLevel });
    if (round.length === 0) break;
    try {
      await env.SKETCH_QUEUE.sendBatch(sketchJobs(round));
    } catch (error) {
      // Not sent: the attempt does not count, and the next sweep picks the image again.
      await db
        .update(images)
        .set({ processAttempts: sql`${images.processAttempts} - 1` })
        .where(sql`${images.id} IN (SELECT value FROM json_each(${JSON.stringify(round.map((row) => row.id))}))`);
      throw error;
    }
    picked.push(...round);
    if (round.length < SEND_BATCH_LIMIT) break;
  }
  if (picked.length === 0) return { requeued: 0, failed: gaveUp.length };
  console.log(`processing sweep: sent images ${picked.map((row) => row.id).join(", ")} to the sketch queue again`);
  return { requeued: picked.length, failed: gaveUp.length };
}
