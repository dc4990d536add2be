import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import decodePng from "@jsquash/png/decode";
import { describe, expect, it, vi } from "vitest";
import astronautJpeg from "../fixtures/photos/astronaut.jpg?inline";
import apiPoolConfig from "../api/vitest.config.ts?raw";
import sketchWranglerToml from "../../workers/sketch/wrangler.toml?raw";
import worker, { Sketcher } from "../../workers/sketch/index";
import { GAVE_UP_REASON, RETRY_BASE_DELAY_SECONDS, type SketchEnv } from "../../workers/sketch/consumer";
import { ENGINE_VERSION, regionsKeyFor, sketchKeyFor, type SketchJob } from "../../app/core/contracts/sketch";
import { LEVEL_REGIONS } from "../../workers/sketch/kernel/regions/tuning";
import { imageRow, pngHeaderOnly, seedImage, syntheticPhoto, toJpeg, toPng, toWebp } from "./helpers";

const sketchEnv = env as unknown as SketchEnv;
let messageIds = 0;

function batchOf(queue: string, imageIds: number[], attempts = 1) {
  return createMessageBatch<SketchJob>(
    queue,
    imageIds.map((imageId) => ({ id: `msg-${++messageIds}`, timestamp: new Date(), attempts, body: { imageId } })),
  );
}

async function run(queue: string, imageIds: number[], options: { attempts?: number; env?: SketchEnv } = {}) {
  const batch = batchOf(queue, imageIds, options.attempts);
  // getQueueResult reports which messages were retried but not the delay asked for; spy on it.
  const retrySpies = batch.messages.map((message) => vi.spyOn(message, "retry"));
  const ctx = createExecutionContext();
  await worker.queue(batch, options.env ?? sketchEnv);
  const result = await getQueueResult(batch, ctx);
  const retryDelays = retrySpies.flatMap((spy) => spy.mock.calls.map(([options]) => options?.delaySeconds));
  return { batch, result, retryDelays };
}

const dataUrlBytes = (dataUrl: string) =>
  Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(",") + 1)), (c) => c.charCodeAt(0));

async function storedPng(key: string) {
  const object = await env.IMAGES.get(key);
  expect(object, `sketch ${key} in R2`).not.toBeNull();
  expect(object!.httpMetadata?.contentType).toBe("image/png");
  const bytes = await object!.arrayBuffer();
  return { bytes: new Uint8Array(bytes), etag: object!.etag, uploaded: object!.uploaded, image: await decodePng(bytes) };
}

describe("sketch-jobs consumer", () => {
  it("converts a JPEG, a PNG and a WebP: completed rows with score and size, PNG sketches in R2", async () => {
    const photo = syntheticPhoto(360, 240, 31);
    const jpeg = await seedImage(await toJpeg(photo), "image/jpeg");
    const png = await seedImage(await toPng(photo), "image/png");
    const webp = await seedImage(await toWebp(photo), "image/webp");
    const real = await seedImage(dataUrlBytes(astronautJpeg), "image/jpeg");
    const ids = [jpeg, png, webp, real].map((seeded) => seeded.imageId);

    const { batch, result } = await run("sketch-jobs", ids);

    expect(result.explicitAcks.sort()).toEqual(batch.messages.map((m) => m.id).sort());
    expect(result.retryMessages).toEqual([]);
    for (const { imageId, originalKey } of [jpeg, png, webp, real]) {
      const row = await imageRow(imageId);
      expect(row).toMatchObject({ processingStatus: "completed", sketchKey: sketchKeyFor(originalKey), error: null });
      expect(row!.qualityScore).toBeGreaterThan(0);
      expect(row!.qualityScore).toBeLessThanOrEqual(100);
      const sketch = await storedPng(row!.sketchKey!);
      expect([sketch.image.width, sketch.image.height]).toEqual([row!.width, row!.height]);
    }
    // Pages are drawn at print size (long edge 3300 px, 300 dpi on 11 in) whatever the photo's size.
    expect(await imageRow(real.imageId)).toMatchObject({ width: 3300, height: 3300 });
    expect(await imageRow(jpeg.imageId)).toMatchObject({ width: 3300, height: 2200 });
  });

  it("processing the same message twice gives the same row and the same object", async () => {
    const { imageId } = await seedImage(await toJpeg(syntheticPhoto(300, 200, 8)));
    await run("sketch-jobs", [imageId]);
    const rowAfterFirst = await imageRow(imageId);
    const first = await storedPng(rowAfterFirst!.sketchKey!);

    const { result } = await run("sketch-jobs", [imageId]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await imageRow(imageId)).toEqual(rowAfterFirst);
    const second = await storedPng(rowAfterFirst!.sketchKey!);
    expect(second.etag).toBe(first.etag);
    expect(second.uploaded.getTime()).toBe(first.uploaded.getTime()); // skipped, not rewritten
  });

  it("renders a page again at another detail level, under its own key, leaving the standard page alone", async () => {
    const { imageId, originalKey } = await seedImage(await toJpeg(syntheticPhoto(480, 320, 12)));
    await run("sketch-jobs", [imageId]);
    const standard = await storedPng(sketchKeyFor(originalKey));
    // The photo's region hierarchy is kept beside the page; another level is a cut of it, so it
    // is drawn without the photo (here: with the original gone from R2).
    expect(await env.IMAGES.head(regionsKeyFor(originalKey))).not.toBeNull();
    const original = await env.IMAGES.get(originalKey);
    await env.IMAGES.delete(originalKey);
    await env.DB.prepare("UPDATE images SET detail_level = 'simple' WHERE id = ?").bind(imageId).run();

    const batch = createMessageBatch<SketchJob>("sketch-jobs", [
      { id: `msg-${++messageIds}`, timestamp: new Date(), attempts: 1, body: { imageId, detail: "simple" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, sketchEnv);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);

    const simpleKey = sketchKeyFor(originalKey, "simple");
    expect(simpleKey).not.toBe(sketchKeyFor(originalKey));
    expect(await imageRow(imageId)).toMatchObject({ processingStatus: "completed", sketchKey: simpleKey });
    const simple = await storedPng(simpleKey);
    const ink = (image: { data: Uint8ClampedArray }) => image.data.filter((v, i) => i % 4 === 0 && v === 0).length;
    // Fewer lines: ink over the line's width is the length of line drawn.
    expect(ink(simple.image) / LEVEL_REGIONS.simple.lineWidthMm).toBeLessThan(ink(standard.image) / LEVEL_REGIONS.standard.lineWidthMm);
    expect((await storedPng(sketchKeyFor(originalKey))).etag).toBe(standard.etag); // untouched
    await env.IMAGES.put(originalKey, await original!.arrayBuffer());
  });

  it("jobs of one page delivered in the wrong order and twice: the page ends drawn at the level it wants", async () => {
    const { imageId, originalKey } = await seedImage(await toJpeg(syntheticPhoto(360, 240, 21)));
    // The customer set the page to Simple and at once to Detailed: two jobs, the Detailed one landing first.
    await env.DB.prepare("UPDATE images SET detail_level = 'detailed' WHERE id = ?").bind(imageId).run();
    const job = (detail: SketchJob["detail"]) =>
      ({ id: `msg-${++messageIds}`, timestamp: new Date(), attempts: 1, body: { imageId, detail } }) as const;
    for (const detail of ["detailed", "simple", "detailed", "simple"] as const) {
      const batch = createMessageBatch<SketchJob>("sketch-jobs", [job(detail)]);
      const ctx = createExecutionContext();
      await worker.queue(batch, sketchEnv);
      const result = await getQueueResult(batch, ctx);
      expect(result.explicitAcks, `the ${detail} job is settled`).toHaveLength(1);
      expect(result.retryMessages).toEqual([]);
      expect(await imageRow(imageId)).toMatchObject({ processingStatus: "completed", sketchKey: sketchKeyFor(originalKey, "detailed") });
    }
    // The stale job wrote nothing, not even its page.
    expect(await env.IMAGES.head(sketchKeyFor(originalKey, "simple"))).toBeNull();
  });

  it("a stale job that used up its retries fails nothing: the page's own job decides", async () => {
    const { imageId } = await seedImage(await toJpeg(syntheticPhoto(200, 150, 5)));
    await env.DB.prepare("UPDATE images SET detail_level = 'detailed', processing_status = 'pending' WHERE id = ?").bind(imageId).run();
    const batch = createMessageBatch<SketchJob>("sketch-jobs-dlq", [
      { id: `msg-${++messageIds}`, timestamp: new Date(), attempts: 4, body: { imageId, detail: "simple" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, sketchEnv);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);
    expect(await imageRow(imageId)).toMatchObject({ processingStatus: "pending", error: null });
  });

  it("redraws a page an older engine made: the new page has today's versioned key, the old one is not served as new", async () => {
    const { imageId, originalKey } = await seedImage(await toJpeg(syntheticPhoto(480, 320, 12)));
    const oldKey = `sketches/${originalKey.split("/").pop()}.png`; // how pages were keyed before versions
    await env.IMAGES.put(oldKey, new Uint8Array([1, 2, 3]));
    await env.DB.prepare("UPDATE images SET processing_status = 'completed', sketch_key = ? WHERE id = ?").bind(oldKey, imageId).run();
    await run("sketch-jobs", [imageId]);
    const row = await imageRow(imageId);
    expect(row).toMatchObject({ processingStatus: "completed", sketchKey: sketchKeyFor(originalKey) });
    expect(row!.sketchKey).toContain(`.${ENGINE_VERSION}-standard.png`);
    expect((await storedPng(row!.sketchKey!)).image.width).toBeGreaterThan(0);
  });

  it("a re-run after a lost update (row not completed, sketch stored) ends with the same row and bytes", async () => {
    const { imageId } = await seedImage(await toPng(syntheticPhoto(300, 200, 12)), "image/png");
    await run("sketch-jobs", [imageId]);
    const done = await imageRow(imageId);
    const bytes = (await storedPng(done!.sketchKey!)).bytes;

    // As if the worker died before writing "completed": D1 still says processing.
    await env.DB.prepare("UPDATE images SET processing_status = 'processing', sketch_key = NULL, quality_score = NULL WHERE id = ?")
      .bind(imageId)
      .run();
    await run("sketch-jobs", [imageId]);
    expect(await imageRow(imageId)).toEqual(done);
    expect((await storedPng(done!.sketchKey!)).bytes).toEqual(bytes);
  });

  it("retries a transient failure with exponential backoff and does not fail the image", async () => {
    const { imageId } = await seedImage(await toJpeg(syntheticPhoto(200, 150, 2)));
    const flakyBucket = new Proxy(env.IMAGES, {
      get(target, property) {
        if (property === "get" || property === "head") {
          return () => Promise.reject(new Error("R2 is having a moment (simulated)"));
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const flakyEnv = { ...sketchEnv, IMAGES: flakyBucket };

    const first = await run("sketch-jobs", [imageId], { env: flakyEnv, attempts: 1 });
    expect(first.result.explicitAcks).toEqual([]);
    expect(first.result.retryMessages).toEqual([{ msgId: first.batch.messages[0].id }]);
    expect(first.retryDelays).toEqual([RETRY_BASE_DELAY_SECONDS]);
    const third = await run("sketch-jobs", [imageId], { env: flakyEnv, attempts: 3 });
    expect(third.result.retryMessages).toHaveLength(1);
    expect(third.retryDelays).toEqual([RETRY_BASE_DELAY_SECONDS * 4]);

    const row = await imageRow(imageId);
    expect(row!.processingStatus).not.toBe("failed");
    // The storage error is for the log; the customer's row never quotes it.
    expect(row!.error).toBeNull();

    // Once storage is back, the next delivery completes.
    await run("sketch-jobs", [imageId], { attempts: 4 });
    expect(await imageRow(imageId)).toMatchObject({ processingStatus: "completed", error: null });
  });

  it("fails a file that is not an image, with a reason, without retrying", async () => {
    const { imageId } = await seedImage(new TextEncoder().encode("this is a shopping list, not a photo"), "image/jpeg");
    const { result } = await run("sketch-jobs", [imageId]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    const row = await imageRow(imageId);
    expect(row).toMatchObject({ processingStatus: "failed", sketchKey: null });
    expect(row!.error).toMatch(/not a photo we can read/);
  });

  it("fails a truncated JPEG with a reason", async () => {
    const jpeg = await toJpeg(syntheticPhoto(400, 300, 5));
    const { imageId } = await seedImage(jpeg.slice(0, Math.floor(jpeg.length / 2)));
    const { result } = await run("sketch-jobs", [imageId]);
    expect(result.retryMessages).toEqual([]);
    const row = await imageRow(imageId);
    expect(row!.processingStatus).toBe("failed");
    expect(row!.error).toMatch(/incomplete|truncated/i);
  });

  it("fails a corrupt PNG (valid header, damaged data) with a reason", async () => {
    const png = await toPng(syntheticPhoto(200, 150, 6));
    const damaged = png.slice();
    for (let i = 60; i < damaged.length - 20; i += 7) damaged[i] ^= 0x5a;
    const { imageId } = await seedImage(damaged, "image/png");
    await run("sketch-jobs", [imageId]);
    const row = await imageRow(imageId);
    expect(row!.processingStatus).toBe("failed");
    expect(row!.error).toMatch(/PNG file is damaged/);
  });

  it("refuses a PNG claiming 30000x30000 before decoding, and the rest of the batch completes", async () => {
    const before = await seedImage(await toJpeg(syntheticPhoto(240, 160, 1)));
    const huge = await seedImage(pngHeaderOnly(30000, 30000), "image/png");
    const after = await seedImage(await toWebp(syntheticPhoto(240, 160, 2)), "image/webp");

    const { result } = await run("sketch-jobs", [before.imageId, huge.imageId, after.imageId]);
    expect(result.explicitAcks).toHaveLength(3);
    expect(result.retryMessages).toEqual([]);
    const refused = await imageRow(huge.imageId);
    expect(refused!.processingStatus).toBe("failed");
    expect(refused!.error).toContain("30000 x 30000");
    expect(refused!.error).toMatch(/too large/);
    expect((await imageRow(before.imageId))!.processingStatus).toBe("completed");
    expect((await imageRow(after.imageId))!.processingStatus).toBe("completed");
  });

  it("fails a GIF that has no image after its header, with a reason", async () => {
    const gif = new Uint8Array([...new TextEncoder().encode("GIF89a"), 10, 0, 10, 0, 0, 0, 0]);
    const { imageId } = await seedImage(gif, "image/gif");
    await run("sketch-jobs", [imageId]);
    expect((await imageRow(imageId))!.error).toMatch(/GIF file is damaged or incomplete/);
  });

  it("acks a job for an image row that does not exist, and a malformed message", async () => {
    const batch = createMessageBatch("sketch-jobs", [
      { id: "missing-row", timestamp: new Date(), attempts: 1, body: { imageId: 987654 } },
      { id: "malformed", timestamp: new Date(), attempts: 1, body: { nope: true } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch as MessageBatch<SketchJob>, sketchEnv);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["malformed", "missing-row"]);
  });
});

describe("batch isolation (decision 014)", () => {
  // A photo that gets the invocation killed (CPU or memory limit) makes Queues retry every
  // unacked message of its batch; only a batch of one keeps it from failing other photos.
  it("sketch-jobs is consumed one photo per invocation, in production and in the test pool", () => {
    const consumers = sketchWranglerToml.split("[[queues.consumers]]").slice(1);
    const sketchJobs = consumers.find((block) => /^\s*queue = "sketch-jobs"\s*$/m.test(block));
    expect(sketchJobs).toMatch(/^max_batch_size = 1$/m);
    expect(apiPoolConfig).toMatch(/"sketch-jobs": \{ maxBatchSize: 1,/);
  });
});

describe("sketch-jobs-dlq consumer", () => {
  it("marks an image that used up its retries failed with the customer's reason, no internal text", async () => {
    const { imageId } = await seedImage(await toJpeg(syntheticPhoto(200, 150, 3)));
    await env.DB.prepare("UPDATE images SET processing_status = 'processing', error = 'D1_ERROR: timeout' WHERE id = ?")
      .bind(imageId)
      .run();
    const { result } = await run("sketch-jobs-dlq", [imageId]);
    expect(result.explicitAcks).toHaveLength(1);
    const row = await imageRow(imageId);
    expect(row!.processingStatus).toBe("failed");
    expect(row!.error).toBe(GAVE_UP_REASON);
  });

  it("leaves an image that completed meanwhile alone", async () => {
    const { imageId } = await seedImage(await toJpeg(syntheticPhoto(200, 150, 4)));
    await run("sketch-jobs", [imageId]);
    const completed = await imageRow(imageId);
    await run("sketch-jobs-dlq", [imageId]);
    expect(await imageRow(imageId)).toEqual(completed);
  });
});

describe("Sketcher RPC", () => {
  it("converts an original in R2 and stores the sketch at its deterministic key", async () => {
    const originalKey = "originals/preview-abc123.png";
    await env.IMAGES.put(originalKey, await toPng(syntheticPhoto(320, 200, 14)));
    const sketcher = new Sketcher(createExecutionContext(), sketchEnv);
    const outcome = await sketcher.convert(originalKey);
    if (!outcome.ok) throw new Error(outcome.reason);
    const { result } = outcome;
    expect(result).toMatchObject({ sketchKey: sketchKeyFor("originals/preview-abc123"), width: 3300, height: 2063 });
    expect(result.qualityScore).toBeGreaterThan(0);
    expect((await storedPng(result.sketchKey)).image.width).toBe(3300);
    // Asking again returns the same answer from the stored sketch.
    expect(await sketcher.convert(originalKey)).toEqual({ ok: true, result });
  });

  it("answers a readable reason for something that is not a photo", async () => {
    await env.IMAGES.put("originals/not-a-photo", new TextEncoder().encode("hello"));
    const sketcher = new Sketcher(createExecutionContext(), sketchEnv);
    expect(await sketcher.convert("originals/not-a-photo")).toEqual({ ok: false, reason: expect.stringMatching(/not a photo we can read/) });
    expect(await sketcher.convert("originals/never-uploaded")).toEqual({ ok: false, reason: expect.stringMatching(/missing from storage/) });
  });
});
