/**
 * The queue side of the sketch Worker: one message per image of a book (sketch-jobs), and the
 * dead-letter queue for messages that used up their retries (sketch-jobs-dlq).
 *
 * Every message is settled on its own (ack or retry), so one bad photo never holds up the rest
 * of the batch. Re-running a message is harmless: a completed image is skipped, and the sketch
 * key is derived from the original's key, so a repeat overwrites the same object. A message for
 * a level the page no longer wants is acknowledged without writing.
 * images.error only ever holds a customer-facing reason (errors.ts customerReason); the internal
 * cause (D1, R2, codec text) goes to the log.
 */
import { and, eq, getTableColumns, ne, sql } from "drizzle-orm";
import { database, schema } from "../../app/core/db/database.server";
import { pageDetailLevel } from "../../app/core/db/page-detail-level.server";
import { DEFAULT_DETAIL_LEVEL, DETAIL_LEVELS, type DetailLevel } from "../../app/core/engine-limits";
import { PROCESSING_FAILURES } from "../../app/core/engine-messages";
import { sketchKeyFor, type SketchJob } from "../../app/core/contracts/sketch";
import { customerReason, describeError, isPermanent } from "./errors";
import { convertOriginal, yieldToRuntime } from "./pipeline";

export interface SketchEnv {
  DB: D1Database;
  IMAGES: R2Bucket;
  APP_ENV?: string;
}

export const SKETCH_QUEUE = "sketch-jobs";
export const DEAD_LETTER_QUEUE = "sketch-jobs-dlq";

/** Retry delays double from here: 10 s, 20 s, 40 s, ... capped at 15 minutes. */
export const RETRY_BASE_DELAY_SECONDS = 10;
export const RETRY_MAX_DELAY_SECONDS = 15 * 60;

export function retryDelaySeconds(attempts: number): number {
  const exponent = Math.max(0, attempts - 1);
  return Math.min(RETRY_MAX_DELAY_SECONDS, RETRY_BASE_DELAY_SECONDS * 2 ** exponent);
}

/** The dead-letter (and sweep) reason: retries used up, the cause is in the log. */
export const GAVE_UP_REASON = PROCESSING_FAILURES.gaveUp;

const { images } = schema;

export async function handleSketchJobs(batch: MessageBatch<unknown>, env: SketchEnv): Promise<void> {
  // The sketch-jobs consumer is configured with max_batch_size = 1 (wrangler.toml, decision 014):
  // a photo that gets the isolate killed (CPU or memory limit) makes Queues retry every unacked
  // message of its batch, so a batch of one keeps a hostile photo from failing anyone else's.
  // Larger batches (local tools, tests) still work, one message at a time.
  for (const message of batch.messages) {
    await yieldToRuntime(); // see pipeline.ts: under wrangler dev the shop shares this thread
    await handleSketchJob(message, env);
  }
}

export async function handleSketchJob(message: Message<unknown>, env: SketchEnv): Promise<void> {
  const imageId = jobImageId(message.body);
  if (imageId === null) {
    console.error("sketch job without a valid imageId; dropped", message.id, message.body);
    message.ack();
    return;
  }
  const db = database(env.DB);
  const detail = jobDetail(message.body);
  // Every write is made only while the page still wants this job's level: a customer who sets
  // Simple and at once Detailed queues two jobs, and the older one may land last.
  const stillWanted = and(eq(images.id, imageId), sql`${pageDetailLevel} = ${detail}`);
  try {
    const [row] = await db
      .select({ ...getTableColumns(images), wantedLevel: pageDetailLevel })
      .from(images)
      .where(eq(images.id, imageId));
    if (!row) {
      // The book was deleted meanwhile: nothing to draw and no row to mark.
      console.warn(`image ${imageId} no longer exists; job dropped`);
      message.ack();
      return;
    }
    if (row.wantedLevel !== detail) {
      // A stale job: the page's level changed since it was sent, and the job for the new level
      // is on its way (or done). Drawing it would leave the page at a level nobody asked for.
      console.warn(`image ${imageId}: job for ${detail} is stale (the page wants ${row.wantedLevel}); dropped`);
      message.ack();
      return;
    }
    // Done already only if the stored page is the one at the level asked for.
    const wanted = sketchKeyFor(row.originalKey, detail);
    if (row.processingStatus === "completed" && row.sketchKey === wanted && (await env.IMAGES.head(row.sketchKey))) {
      message.ack();
      return;
    }
    await db.update(images).set({ processingStatus: "processing", error: null }).where(stillWanted);
    const result = await convertOriginal(env.IMAGES, row.originalKey, { detail });
    const written = await db
      .update(images)
      .set({
        processingStatus: "completed",
        sketchKey: result.sketchKey,
        qualityScore: result.qualityScore,
        width: result.width,
        height: result.height,
        error: null,
      })
      .where(stillWanted)
      .returning({ id: images.id });
    if (written.length === 0) {
      console.warn(`image ${imageId}: level changed while ${detail} was drawn; the newer job draws the page`);
    }
    message.ack();
  } catch (error) {
    const internal = describeError(error);
    if (isPermanent(error)) {
      try {
        await db
          .update(images)
          .set({ processingStatus: "failed", error: customerReason(error) })
          .where(stillWanted);
        console.warn(`image ${imageId} failed: ${internal}`);
        message.ack();
      } catch (dbError) {
        // Could not record the failure: try again later rather than lose it.
        console.error(`image ${imageId}: could not record failure`, describeError(dbError));
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
      return;
    }
    // Storage or a bug: only the log hears the details; the row keeps no internal text, and if
    // the retries run out the dead-letter consumer (or the sweep) gives the customer's reason.
    console.error(`image ${imageId}: attempt ${message.attempts} failed, will retry: ${internal}`);
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
}

/**
 * Messages that used up their retries: the image fails with the customer's reason. If this
 * consumer itself cannot reach D1, the message is retried; once those retries are gone too, the
 * hourly sweep (app/server/jobs/processing-sweep.server.ts) still resolves the image.
 */
export async function handleDeadLetters(batch: MessageBatch<unknown>, env: SketchEnv): Promise<void> {
  const db = database(env.DB);
  for (const message of batch.messages) {
    const imageId = jobImageId(message.body);
    if (imageId === null) {
      message.ack();
      continue;
    }
    try {
      // A later delivery may have succeeded meanwhile; never overwrite a finished sketch. A job
      // for a level the page no longer wants fails nothing: the newer job decides.
      await db
        .update(images)
        .set({ processingStatus: "failed", error: GAVE_UP_REASON })
        .where(
          and(
            eq(images.id, imageId),
            ne(images.processingStatus, "completed"),
            sql`${pageDetailLevel} = ${jobDetail(message.body)}`,
          ),
        );
      console.warn(`image ${imageId}: retries used up, marked failed`);
      message.ack();
    } catch (error) {
      console.error(`dead letter for image ${imageId}: ${describeError(error)}`);
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}

function jobImageId(body: unknown): number | null {
  const imageId = (body as Partial<SketchJob> | null)?.imageId;
  return typeof imageId === "number" && Number.isSafeInteger(imageId) && imageId > 0 ? imageId : null;
}

/** The message's detail level; standard when absent or not one of DETAIL_LEVELS. */
function jobDetail(body: unknown): DetailLevel {
  const detail = (body as Partial<SketchJob> | null)?.detail;
  return DETAIL_LEVELS.find((level) => level === detail) ?? DEFAULT_DETAIL_LEVEL;
}
