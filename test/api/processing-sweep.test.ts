/**
 * Decision 014, with a fixed clock: no image stays in processing forever, and no internal
 * error text (D1, R2, codec) ever reaches the customer. The sweep (hourly Cron Trigger) sends a
 * stuck image again, gives up with the customer's reason after MAX_PROCESS_ATTEMPTS, and still
 * resolves an image whose dead-letter consumer failed. The sketch consumer's own handlers run
 * here against this test's D1 and R2.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_PROCESS_ATTEMPTS, PROCESSING_STUCK_MINUTES } from "~/lib/shop-rules";
import { PROCESSING_FAILURES } from "~/core/engine-messages";
import { resendAfterLocalRestart, sweepStuckImages } from "~/server/jobs/processing-sweep.server";
import type { SketchJob } from "../../app/core/contracts/sketch";
import { handleDeadLetters, handleSketchJob } from "../../workers/sketch/consumer";
import { dbRun, pngFile, Visitor, type ImageDto } from "./helpers";

// Storage is shared by the tests of a file; each sweep here should see only its own images.
beforeEach(async () => {
  await dbRun("DELETE FROM images");
});
afterEach(() => {
  vi.restoreAllMocks();
});

const MINUTE = 60_000;
const T0 = new Date("2026-05-04T10:00:00Z");
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A SKETCH_QUEUE that records what it is sent instead of delivering it. */
function recordingQueue() {
  const sent: SketchJob[] = [];
  const queue = {
    async sendBatch(messages: Iterable<{ body: SketchJob }>) {
      for (const message of messages) sent.push(message.body);
    },
  };
  return { sent, env: { ...env, SKETCH_QUEUE: queue as unknown as Queue<SketchJob> } };
}

async function uploadedImage(visitor = new Visitor()) {
  const bookId = await visitor.createBook("Sweep");
  const [image] = await visitor.uploadOk(bookId, [await pngFile("stuck.png")]);
  return { visitor, bookId, imageId: image.id };
}

async function imageState(imageId: number) {
  return env.DB.prepare("SELECT processing_status, error, process_attempts, queued_at FROM images WHERE id = ?")
    .bind(imageId)
    .first<{ processing_status: string; error: string | null; process_attempts: number; queued_at: number | null }>();
}

async function markSent(imageId: number, status: "processing" | "pending", at: Date, attempts: number) {
  await dbRun("UPDATE images SET processing_status = ?, queued_at = ?, process_attempts = ? WHERE id = ?", status, seconds(at), attempts, imageId);
}

/** A D1 binding whose statements fail like D1 does when `fails(sql)` says so. */
function failingD1(fails: (sql: string) => boolean): D1Database {
  return new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          if (fails(sql)) throw new Error("D1_ERROR: database is locked: SQLITE_BUSY (internal, simulated)");
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function message(imageId: number, attempts = 1) {
  return { id: `msg-${imageId}-${attempts}`, timestamp: new Date(), attempts, body: { imageId } satisfies SketchJob };
}

describe("processing sweep", () => {
  it("sends an image stuck in processing past the deadline again, counting the attempt, and leaves a younger one", async () => {
    const stuck = await uploadedImage();
    const young = await uploadedImage(stuck.visitor);
    const picked = await uploadedImage(stuck.visitor); // picked for the queue, never delivered
    await dbRun("UPDATE books SET detail_level = 'detailed' WHERE id = ?", picked.bookId);
    await markSent(stuck.imageId, "processing", T0, 1);
    await markSent(young.imageId, "processing", new Date(T0.getTime() + 10 * MINUTE), 1);
    await markSent(picked.imageId, "pending", T0, 1);

    const queue = recordingQueue();
    const now = new Date(T0.getTime() + (PROCESSING_STUCK_MINUTES + 1) * MINUTE);
    expect(await sweepStuckImages(queue.env, now)).toEqual({ requeued: 2, failed: 0 });
    expect(queue.sent).toEqual([
      { imageId: stuck.imageId, detail: "standard" },
      { imageId: picked.imageId, detail: "detailed" },
    ]);
    expect(await imageState(stuck.imageId)).toMatchObject({ processing_status: "processing", process_attempts: 2, queued_at: seconds(now) });
    expect(await imageState(young.imageId)).toMatchObject({ process_attempts: 1 });

    // The next run: the young one is overdue now; the ones sent again just now are not.
    const again = recordingQueue();
    expect(await sweepStuckImages(again.env, new Date(T0.getTime() + (10 + PROCESSING_STUCK_MINUTES + 1) * MINUTE))).toEqual({
      requeued: 1,
      failed: 0,
    });
    expect(again.sent).toEqual([{ imageId: young.imageId, detail: "standard" }]);
  });

  it("never touches an image that is pending and not queued, completed or failed", async () => {
    const { visitor, imageId: pending } = await uploadedImage();
    const { imageId: done } = await uploadedImage(visitor);
    const { imageId: failed } = await uploadedImage(visitor);
    await dbRun("UPDATE images SET processing_status = 'completed', queued_at = ? WHERE id = ?", seconds(T0), done);
    await dbRun("UPDATE images SET processing_status = 'failed', error = 'The GIF file is damaged', queued_at = ? WHERE id = ?", seconds(T0), failed);
    const queue = recordingQueue();
    expect(await sweepStuckImages(queue.env, new Date(T0.getTime() + 24 * 60 * MINUTE))).toEqual({ requeued: 0, failed: 0 });
    expect(queue.sent).toEqual([]);
    expect(await imageState(pending)).toMatchObject({ processing_status: "pending", process_attempts: 0 });
  });

  it("after the last attempt, fails the image with the customer's reason, shown by the images API", async () => {
    const { visitor, bookId, imageId } = await uploadedImage();
    await markSent(imageId, "processing", T0, MAX_PROCESS_ATTEMPTS);
    const queue = recordingQueue();
    expect(await sweepStuckImages(queue.env, new Date(T0.getTime() + (PROCESSING_STUCK_MINUTES + 1) * MINUTE))).toEqual({
      requeued: 0,
      failed: 1,
    });
    expect(queue.sent).toEqual([]);
    expect(await imageState(imageId)).toMatchObject({ processing_status: "failed", error: PROCESSING_FAILURES.gaveUp });
    const images = (await (await visitor.fetch(`/api/books/${bookId}/images`)).json()) as ImageDto[];
    expect(images[0]).toMatchObject({ processingStatus: "failed", error: PROCESSING_FAILURES.gaveUp });
    expect(await (await visitor.fetch(`/api/books/${bookId}/progress`)).json()).toEqual({ processedImages: 1, totalImages: 1 });
  });

  it("counts every send to the queue: /process sends once, the sweep's sends count up to the cap", async () => {
    const { visitor, bookId, imageId } = await uploadedImage();
    const queue = recordingQueue();
    // /process's own send is watched, not delivered, so no consumer races this test.
    const sendBatch = vi.spyOn(env.SKETCH_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
    expect((await visitor.fetch(`/api/books/${bookId}/process`, { method: "POST" })).status).toBe(202);
    expect(sendBatch).toHaveBeenCalledOnce();
    expect((await imageState(imageId))!.process_attempts).toBe(1);
    // Pretend the delivery died with the isolate and the dead-letter consumer never ran.
    await markSent(imageId, "processing", T0, 1);
    let now = T0;
    for (let attempt = 2; attempt <= MAX_PROCESS_ATTEMPTS; attempt++) {
      now = new Date(now.getTime() + 60 * MINUTE);
      expect(await sweepStuckImages(queue.env, now)).toEqual({ requeued: 1, failed: 0 });
      expect((await imageState(imageId))!.process_attempts).toBe(attempt);
    }
    now = new Date(now.getTime() + 60 * MINUTE);
    expect(await sweepStuckImages(queue.env, now)).toEqual({ requeued: 0, failed: 1 });
    expect(queue.sent).toHaveLength(MAX_PROCESS_ATTEMPTS - 1);
  });
});

/**
 * A D1 binding that records how many parameters each statement binds. Local D1 runs a statement
 * with more than D1's limit of 100 bound parameters; the deployed one refuses it.
 */
function parameterCountingD1() {
  const counts: { sql: string; parameters: number }[] = [];
  const countBinds = (statement: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        if (property === "bind") {
          return (...values: unknown[]) => {
            counts.push({ sql, parameters: values.length });
            return countBinds(target.bind(...values), sql);
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => countBinds(target.prepare(sql), sql);
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { counts, db };
}

/** D1's limit on the parameters one statement binds. */
const D1_MAX_BOUND_PARAMETERS = 100;

describe("many stuck images (after a queue or Worker outage)", () => {
  it("one sweep sends all of 500 stuck images again, no statement binding more than D1's 100 parameters", async () => {
    const first = await uploadedImage();
    await markSent(first.imageId, "processing", T0, 1);
    const columns = (await env.DB.prepare("PRAGMA table_info(images)").all<{ name: string }>()).results
      .map((column) => column.name)
      .filter((name) => name !== "id" && name !== "original_key");
    const list = columns.join(", ");
    for (let copy = 0; copy < 499; copy++) {
      await dbRun(`INSERT INTO images (original_key, ${list}) SELECT ?, ${list} FROM images WHERE id = ?`, `originals/stuck-${copy}.png`, first.imageId);
    }

    const queue = recordingQueue();
    const counting = parameterCountingD1();
    const now = new Date(T0.getTime() + (PROCESSING_STUCK_MINUTES + 1) * MINUTE);
    expect(await sweepStuckImages({ ...queue.env, DB: counting.db }, now)).toEqual({ requeued: 500, failed: 0 });

    expect(counting.counts.length).toBeGreaterThan(0);
    const widest = counting.counts.reduce((max, count) => (count.parameters > max.parameters ? count : max));
    expect(widest.parameters, widest.sql).toBeLessThanOrEqual(D1_MAX_BOUND_PARAMETERS);
    expect(new Set(queue.sent.map((job) => job.imageId)).size).toBe(500);
    const resent = await env.DB.prepare("SELECT count(*) AS n FROM images WHERE process_attempts = 2 AND queued_at = ?").bind(seconds(now)).first<number>("n");
    expect(resent).toBe(500);
  });
});

describe("after a local reload (wrangler dev drops its in-memory queues)", () => {
  /** A SKETCH_QUEUE that records each sendBatch call's size as well. */
  function batchRecordingQueue() {
    const recorded = recordingQueue();
    const batches: number[] = [];
    const queue = {
      async sendBatch(messages: Iterable<{ body: SketchJob }>) {
        const list = [...messages];
        batches.push(list.length);
        await recorded.env.SKETCH_QUEUE.sendBatch(list);
      },
    };
    return { sent: recorded.sent, batches, env: { ...env, SKETCH_QUEUE: queue as unknown as Queue<SketchJob> } };
  }

  it("sends every image sent and unfinished again, of any age, without counting an attempt, and nothing else", async () => {
    const processing = await uploadedImage();
    const picked = await uploadedImage(processing.visitor);
    const neverSent = await uploadedImage(processing.visitor);
    const drawn = await uploadedImage(processing.visitor);
    await markSent(processing.imageId, "processing", new Date(), 1);
    await markSent(picked.imageId, "pending", new Date(), 2);
    await dbRun("UPDATE images SET processing_status = 'completed', queued_at = ? WHERE id = ?", seconds(T0), drawn.imageId);

    const queue = batchRecordingQueue();
    expect(await resendAfterLocalRestart(queue.env)).toEqual({ resent: 2 });

    expect(queue.sent.map((job) => job.imageId)).toEqual([processing.imageId, picked.imageId]);
    expect((await imageState(processing.imageId))?.process_attempts).toBe(1);
    expect((await imageState(picked.imageId))?.process_attempts).toBe(2);
    expect((await imageState(neverSent.imageId))?.processing_status).toBe("pending");
  });

  it("sends more than Queue.sendBatch's 100 messages in batches of at most 100", async () => {
    const first = await uploadedImage();
    await markSent(first.imageId, "processing", new Date(), 1);
    const columns = (await env.DB.prepare("PRAGMA table_info(images)").all<{ name: string }>()).results
      .map((column) => column.name)
      .filter((name) => name !== "id" && name !== "original_key");
    const list = columns.join(", ");
    for (let copy = 0; copy < 149; copy++) {
      await dbRun(`INSERT INTO images (original_key, ${list}) SELECT ?, ${list} FROM images WHERE id = ?`, `originals/copy-${copy}.png`, first.imageId);
    }

    const queue = batchRecordingQueue();
    expect(await resendAfterLocalRestart(queue.env)).toEqual({ resent: 150 });
    expect(queue.batches).toEqual([100, 50]);
    expect(new Set(queue.sent.map((job) => job.imageId)).size).toBe(150);
  });
});

describe("hourly Cron Trigger", () => {
  it("the app Worker's scheduled handler (as deployed, build/index.js) runs the sweep with the trigger's time as its clock", async () => {
    const { imageId } = await uploadedImage();
    await markSent(imageId, "processing", T0, MAX_PROCESS_ATTEMPTS);
    const built = "../../build/index.js";
    const { default: appWorker } = (await import(/* @vite-ignore */ built)) as { default: ExportedHandler<typeof env> };
    const scheduledTime = T0.getTime() + (PROCESSING_STUCK_MINUTES + 1) * MINUTE;
    await appWorker.scheduled!({ scheduledTime, cron: "0 * * * *", noRetry() {} }, env, createExecutionContext());
    expect(await imageState(imageId)).toMatchObject({ processing_status: "failed", error: PROCESSING_FAILURES.gaveUp });
  });
});

describe("no dead ends when the dead-letter consumer fails", () => {
  it("a dead letter that cannot reach D1 is retried, and the sweep still resolves the image", async () => {
    const { visitor, bookId, imageId } = await uploadedImage();
    await markSent(imageId, "processing", T0, MAX_PROCESS_ATTEMPTS);

    const batch = createMessageBatch<SketchJob>("sketch-jobs-dlq", [message(imageId, 3)]);
    const ctx = createExecutionContext();
    await handleDeadLetters(batch, { DB: failingD1(() => true), IMAGES: env.IMAGES });
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toHaveLength(1);
    // Its retries can fail the same way; the image is still waiting...
    expect((await imageState(imageId))!.processing_status).toBe("processing");

    // ...until the hourly sweep gives up on it with the customer's reason.
    const queue = recordingQueue();
    await sweepStuckImages(queue.env, new Date(T0.getTime() + 61 * MINUTE));
    expect(await imageState(imageId)).toMatchObject({ processing_status: "failed", error: PROCESSING_FAILURES.gaveUp });
    const listing = await (await visitor.fetch(`/api/books/${bookId}/images`)).text();
    expect(listing).toContain(PROCESSING_FAILURES.gaveUp);
  });

  it("a D1 error inside the sketch job never reaches the images API or GET progress, during retries or after", async () => {
    const { visitor, bookId, imageId } = await uploadedImage();
    await markSent(imageId, "pending", T0, 1);
    // The photo converts, but recording the finished page fails inside D1.
    const brokenEnv = { DB: failingD1((sql) => sql.startsWith("update") && sql.includes('"sketch_key"')), IMAGES: env.IMAGES };
    for (let attempt = 1; attempt <= 2; attempt++) {
      const batch = createMessageBatch<SketchJob>("sketch-jobs", [message(imageId, attempt)]);
      const ctx = createExecutionContext();
      await handleSketchJob(batch.messages[0], brokenEnv);
      expect((await getQueueResult(batch, ctx)).retryMessages).toHaveLength(1);
      expect((await imageState(imageId))!.error).toBeNull();
      for (const path of [`/api/books/${bookId}/images`, `/api/books/${bookId}/progress`]) {
        const body = await (await visitor.fetch(path)).text();
        expect(body, path).not.toMatch(/D1_ERROR|SQLITE|simulated/);
      }
    }
    // Retries used up: the dead-letter consumer gives the customer's reason, not the D1 text.
    const dead = createMessageBatch<SketchJob>("sketch-jobs-dlq", [message(imageId, 4)]);
    const ctx = createExecutionContext();
    await handleDeadLetters(dead, { DB: env.DB, IMAGES: env.IMAGES });
    expect((await getQueueResult(dead, ctx)).explicitAcks).toHaveLength(1);
    const images = (await (await visitor.fetch(`/api/books/${bookId}/images`)).json()) as ImageDto[];
    expect(images[0]).toMatchObject({ processingStatus: "failed", error: PROCESSING_FAILURES.gaveUp });
    const progress = await (await visitor.fetch(`/api/books/${bookId}/progress`)).text();
    expect(progress).not.toMatch(/D1_ERROR|SQLITE|simulated/);
  });
});
