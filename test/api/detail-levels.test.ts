/**
 * Detail levels of a book and of single pages, and "Try again" on a failed photo: which pages go
 * back into the queue (the producer is watched), then the real consumer redrawing a real photo.
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BookDetailChange } from "~/lib/api-types";
import { API_MESSAGES, DETAIL_LEVEL_MESSAGES, SHOP_LIMIT_MESSAGES } from "~/lib/customer-copy";
import { SHOP_DAILY_LIMITS } from "~/lib/shop-rules";
import astronautUrl from "../fixtures/photos/astronaut.jpg?inline";
import { dbRun, fakeJpeg, sessionIdOf, Visitor, type ApiError, type ImageDto } from "./helpers";
import { ENGINE_VERSION } from "../../app/core/contracts/sketch";

afterEach(() => {
  vi.restoreAllMocks();
});

function spyOnQueue() {
  return vi.spyOn(env.SKETCH_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
}

interface ImageRow {
  id: number;
  processing_status: string;
  queued_at: number | null;
  process_attempts: number;
  detail_level: string | null;
  error: string | null;
}

async function imageRow(id: number): Promise<ImageRow> {
  return (await env.DB.prepare("SELECT * FROM images WHERE id = ?").bind(id).first<ImageRow>())!;
}

/** A page drawn at `level` by the engine: completed, with that level's sketch key. */
async function markDrawn(image: ImageDto, level: string) {
  await dbRun(
    "UPDATE images SET processing_status = 'completed', quality_score = 80, sketch_key = ? WHERE id = ?",
    `sketches/page-${image.id}.${ENGINE_VERSION}-${level}.png`,
    image.id,
  );
}

/** A visitor with a book of `count` pages, all drawn at standard. */
async function bookWithDrawnPages(count: number) {
  const visitor = new Visitor();
  const bookId = await visitor.createBook();
  const images = await visitor.uploadOk(bookId, Array.from({ length: count }, (_, n) => fakeJpeg(`page-${n + 1}.jpg`)));
  for (const image of images) await markDrawn(image, "standard");
  return { visitor, bookId, images };
}

const jobsSent = (sendBatch: ReturnType<typeof spyOnQueue>) => sendBatch.mock.calls.flatMap((call) => [...call[0]].map((message) => message.body));

describe("PATCH /api/books/{id}/detail", () => {
  it("redraws only the pages that follow the book, and nothing when the level stays", async () => {
    const sendBatch = spyOnQueue();
    const { visitor, bookId, images } = await bookWithDrawnPages(5);
    const [follows, ownLevel, failed, neverSent, alsoFollows] = images;
    await dbRun("UPDATE images SET detail_level = 'detailed' WHERE id = ?", ownLevel.id);
    await dbRun("UPDATE images SET processing_status = 'failed', error = 'Unreadable photo' WHERE id = ?", failed.id);
    await dbRun("UPDATE images SET processing_status = 'pending', sketch_key = NULL WHERE id = ?", neverSent.id);

    const response = await visitor.send("PATCH", `/api/books/${bookId}/detail`, { detailLevel: "simple" });
    expect(response.status).toBe(200);
    const change = (await response.json()) as BookDetailChange;
    expect(change).toMatchObject({ detailLevel: "simple", redrawing: 2 });
    expect(jobsSent(sendBatch)).toEqual([
      { imageId: follows.id, detail: "simple" },
      { imageId: alsoFollows.id, detail: "simple" },
    ]);

    // The old sketch stays on show while the new one is drawn; the DTO says which level is coming.
    const redrawn = change.images.find((image) => image.id === follows.id)!;
    expect(redrawn).toMatchObject({
      processingStatus: "pending",
      detailLevel: "simple",
      ownDetailLevel: null,
      sketchDetailLevel: "standard",
      qualityScore: 80,
    });
    expect(redrawn.sketchUrl).toMatch(/-standard\.png$/);
    expect(change.images.find((image) => image.id === ownLevel.id)).toMatchObject({
      processingStatus: "completed",
      detailLevel: "detailed",
      ownDetailLevel: "detailed",
    });

    for (const image of [follows, alsoFollows]) {
      const row = await imageRow(image.id);
      expect(row).toMatchObject({ processing_status: "pending", process_attempts: 1 });
      expect(row.queued_at).not.toBeNull();
    }
    expect(await imageRow(ownLevel.id)).toMatchObject({ processing_status: "completed", process_attempts: 0 });
    expect(await imageRow(failed.id)).toMatchObject({ processing_status: "failed", process_attempts: 0 });
    expect(await imageRow(neverSent.id)).toMatchObject({ processing_status: "pending", queued_at: null, process_attempts: 0 });

    // The progress the preview page polls sees the redraws.
    const progress = await (await visitor.fetch(`/api/books/${bookId}/progress`)).json();
    expect(progress).toEqual({ processedImages: 2, totalImages: 5 });

    // The same level again: nothing is queued, nothing changes.
    sendBatch.mockClear();
    const again = await visitor.send("PATCH", `/api/books/${bookId}/detail`, { detailLevel: "simple" });
    expect(((await again.json()) as BookDetailChange).redrawing).toBe(0);
    expect(sendBatch).not.toHaveBeenCalled();
    expect(await imageRow(follows.id)).toMatchObject({ process_attempts: 1 });
  });

  it("refuses a level it does not know", async () => {
    const sendBatch = spyOnQueue();
    const { visitor, bookId } = await bookWithDrawnPages(1);
    const response = await visitor.send("PATCH", `/api/books/${bookId}/detail`, { detailLevel: "extreme" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ApiError).message).toBe(DETAIL_LEVEL_MESSAGES.invalidLevel);
    expect(sendBatch).not.toHaveBeenCalled();
  });
});

describe("PATCH /api/images/{imageId}/detail", () => {
  it("redraws that page only when the level it is drawn at changes", async () => {
    const sendBatch = spyOnQueue();
    const { visitor, images } = await bookWithDrawnPages(3);
    const [first, second, third] = images;

    const response = await visitor.send("PATCH", `/api/images/${second.id}/detail`, { detailLevel: "detailed" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: second.id,
      processingStatus: "pending",
      detailLevel: "detailed",
      ownDetailLevel: "detailed",
      sketchDetailLevel: "standard",
    });
    expect(jobsSent(sendBatch)).toEqual([{ imageId: second.id, detail: "detailed" }]);
    expect(await imageRow(second.id)).toMatchObject({ detail_level: "detailed", process_attempts: 1 });
    for (const other of [first, third]) {
      expect(await imageRow(other.id)).toMatchObject({ processing_status: "completed", process_attempts: 0 });
    }

    // Choosing the level a page is already drawn at redraws nothing: its own level again, the
    // book's level as its own, or following the book it already follows.
    sendBatch.mockClear();
    const same = await visitor.send("PATCH", `/api/images/${second.id}/detail`, { detailLevel: "detailed" });
    expect(same.status).toBe(200);
    const pinned = await visitor.send("PATCH", `/api/images/${first.id}/detail`, { detailLevel: "standard" });
    expect(await pinned.json()).toMatchObject({ processingStatus: "completed", detailLevel: "standard", ownDetailLevel: "standard" });
    const follows = await visitor.send("PATCH", `/api/images/${third.id}/detail`, { detailLevel: null });
    expect(await follows.json()).toMatchObject({ processingStatus: "completed", ownDetailLevel: null });
    expect(sendBatch).not.toHaveBeenCalled();
    expect(await imageRow(second.id)).toMatchObject({ process_attempts: 1 });
    expect(await imageRow(first.id)).toMatchObject({ processing_status: "completed", process_attempts: 0 });

    // Back to the book's level (null) from its own: drawn at the book's level again.
    await markDrawn(second, "detailed");
    const back = await visitor.send("PATCH", `/api/images/${second.id}/detail`, { detailLevel: null });
    expect(await back.json()).toMatchObject({ processingStatus: "pending", detailLevel: "standard", ownDetailLevel: null });
    expect(jobsSent(sendBatch)).toEqual([{ imageId: second.id, detail: "standard" }]);
  });
});

describe("POST /api/images/{imageId}/retry", () => {
  it("puts a failed photo back into the queue, and refuses one that did not fail", async () => {
    const sendBatch = spyOnQueue();
    const { visitor, images } = await bookWithDrawnPages(2);
    const [failed, completed] = images;
    await dbRun(
      "UPDATE images SET processing_status = 'failed', error = 'We could not read this photo.', detail_level = 'simple', process_attempts = 3 WHERE id = ?",
      failed.id,
    );

    const response = await visitor.fetch(`/api/images/${failed.id}/retry`, { method: "POST" });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ id: failed.id, processingStatus: "pending", error: null });
    expect(jobsSent(sendBatch)).toEqual([{ imageId: failed.id, detail: "simple" }]);
    const row = await imageRow(failed.id);
    // Its sends were used up; the customer's retry is a drawing of its own, with all its tries.
    expect(row).toMatchObject({ processing_status: "pending", process_attempts: 1, error: null });
    expect(row.queued_at).not.toBeNull();

    // Pressed twice: the photo is no longer failed, so nothing is queued twice.
    sendBatch.mockClear();
    const twice = await visitor.fetch(`/api/images/${failed.id}/retry`, { method: "POST" });
    expect(twice.status).toBe(409);
    const refused = await visitor.fetch(`/api/images/${completed.id}/retry`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as ApiError).message).toBe(DETAIL_LEVEL_MESSAGES.onlyFailedRetried);
    expect(sendBatch).not.toHaveBeenCalled();
    expect(await imageRow(completed.id)).toMatchObject({ processing_status: "completed", process_attempts: 0 });
    expect((await visitor.fetch(`/api/images/${completed.id}/retry`)).status).toBe(405);
  });
});

describe("who may change levels", () => {
  it("is 404 for a stranger and 409 once the book is ordered", async () => {
    const sendBatch = spyOnQueue();
    const { visitor, bookId, images } = await bookWithDrawnPages(2);
    await dbRun("UPDATE images SET processing_status = 'failed' WHERE id = ?", images[1].id);

    const stranger = new Visitor();
    expect((await stranger.send("PATCH", `/api/books/${bookId}/detail`, { detailLevel: "simple" })).status).toBe(404);
    expect((await stranger.send("PATCH", `/api/images/${images[0].id}/detail`, { detailLevel: "simple" })).status).toBe(404);
    expect((await stranger.fetch(`/api/images/${images[1].id}/retry`, { method: "POST" })).status).toBe(404);

    await dbRun("UPDATE books SET status = 'ordered' WHERE id = ?", bookId);
    const attempts = [
      await visitor.send("PATCH", `/api/books/${bookId}/detail`, { detailLevel: "simple" }),
      await visitor.send("PATCH", `/api/images/${images[0].id}/detail`, { detailLevel: "simple" }),
      await visitor.fetch(`/api/images/${images[1].id}/retry`, { method: "POST" }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(409);
      expect(((await response.json()) as ApiError).message).toBe(API_MESSAGES.bookAlreadyOrdered);
    }
    expect(sendBatch).not.toHaveBeenCalled();
    const book = await env.DB.prepare("SELECT detail_level FROM books WHERE id = ?").bind(bookId).first<string>("detail_level");
    expect(book).toBe("standard");
    expect(await imageRow(images[0].id)).toMatchObject({ detail_level: null, processing_status: "completed" });
    expect(await imageRow(images[1].id)).toMatchObject({ processing_status: "failed" });
  });
});

describe("abuse limits", () => {
  it("counts level changes and retries as processing runs: past the daily count, 429 and nothing queued", async () => {
    const sendBatch = spyOnQueue();
    const { visitor, bookId, images } = await bookWithDrawnPages(2);
    await dbRun("UPDATE images SET processing_status = 'failed' WHERE id = ?", images[1].id);
    const subject = `session:${await sessionIdOf(visitor)}`;
    const processRuns = () =>
      env.DB.prepare("SELECT count FROM usage_counts WHERE action = 'process' AND subject = ? AND day = ?")
        .bind(subject, new Date().toISOString().slice(0, 10))
        .first<number>("count");

    await visitor.send("PATCH", `/api/images/${images[0].id}/detail`, { detailLevel: "simple" });
    expect(await processRuns()).toBe(1);
    sendBatch.mockClear();
    await dbRun("UPDATE usage_counts SET count = ? WHERE action = 'process' AND subject = ?", SHOP_DAILY_LIMITS.process.perSession, subject);

    const attempts = [
      await visitor.send("PATCH", `/api/books/${bookId}/detail`, { detailLevel: "detailed" }),
      await visitor.send("PATCH", `/api/images/${images[0].id}/detail`, { detailLevel: "detailed" }),
      await visitor.fetch(`/api/images/${images[1].id}/retry`, { method: "POST" }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(429);
      expect(((await response.json()) as ApiError).message).toBe(SHOP_LIMIT_MESSAGES.daily);
    }
    expect(sendBatch).not.toHaveBeenCalled();
    expect(await imageRow(images[1].id)).toMatchObject({ processing_status: "failed" });
  });
});

describe("pages an older engine drew", () => {
  /** The page as an older engine left it: finished, with that engine's key and score. */
  async function drawnByOlderEngine(image: ImageDto, level: string, score: number) {
    await dbRun(
      "UPDATE images SET processing_status = 'completed', quality_score = ?, sketch_key = ? WHERE id = ?",
      score,
      `sketches/page-${image.id}.e1-${level}.png`,
      image.id,
    );
  }

  it("are redrawn by today's engine when the preview opens, once, at their own level", async () => {
    const sendBatch = spyOnQueue();
    const { visitor, bookId, images } = await bookWithDrawnPages(3);
    await drawnByOlderEngine(images[0], "standard", 95);
    await drawnByOlderEngine(images[1], "simple", 97);
    await dbRun("UPDATE images SET detail_level = 'simple' WHERE id = ?", images[1].id);

    expect((await visitor.fetch(`/book/${bookId}/preview`)).status).toBe(200);
    const sent = jobsSent(sendBatch).sort((a, b) => a.imageId - b.imageId);
    expect(sent).toEqual([
      { imageId: images[0].id, detail: "standard" },
      { imageId: images[1].id, detail: "simple" },
    ]);
    // Being redrawn: the old page stays on show (dimmed) until the new one is stored.
    const redrawn = await imageRow(images[0].id);
    expect(redrawn).toMatchObject({ processing_status: "pending", sketch_key: `sketches/page-${images[0].id}.e1-standard.png` });
    expect(redrawn.queued_at).not.toBeNull();
    expect(await imageRow(images[2].id)).toMatchObject({ processing_status: "completed", quality_score: 80 });

    sendBatch.mockClear();
    expect((await visitor.fetch(`/book/${bookId}/preview`)).status).toBe(200);
    expect(sendBatch).not.toHaveBeenCalled();
  });

  it("stay as the customer approved them once the book is ordered", async () => {
    const sendBatch = spyOnQueue();
    const { visitor, bookId, images } = await bookWithDrawnPages(1);
    await drawnByOlderEngine(images[0], "standard", 95);
    await dbRun("UPDATE books SET status = 'ordered' WHERE id = ?", bookId);

    await visitor.fetch(`/book/${bookId}/preview`);
    expect(sendBatch).not.toHaveBeenCalled();
    expect(await imageRow(images[0].id)).toMatchObject({ processing_status: "completed", quality_score: 95 });
  });

  it("keep their old page when the queue refuses, and the preview still opens", async () => {
    const sendBatch = vi.spyOn(env.SKETCH_QUEUE, "sendBatch").mockRejectedValue(new Error("queue unavailable"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { visitor, bookId, images } = await bookWithDrawnPages(1);
    await drawnByOlderEngine(images[0], "standard", 95);

    expect((await visitor.fetch(`/book/${bookId}/preview`)).status).toBe(200);
    expect(sendBatch).toHaveBeenCalledTimes(1);
    expect(await imageRow(images[0].id)).toMatchObject({
      processing_status: "completed",
      sketch_key: `sketches/page-${images[0].id}.e1-standard.png`,
    });
  });
});

describe("redrawing through the real queue", () => {
  const TIMEOUT_MS = 60_000;

  function fileFromDataUrl(dataUrl: string, name: string): File {
    const [meta, base64] = dataUrl.split(",", 2);
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    return new File([bytes], name, { type: meta.slice(5).split(";")[0] });
  }

  /** Polls the list the preview page polls until the page is completed again. */
  async function waitForPage(visitor: Visitor, bookId: number, imageId: number): Promise<ImageDto> {
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      const list = (await (await visitor.fetch(`/api/books/${bookId}/images`)).json()) as ImageDto[];
      const image = list.find((candidate) => candidate.id === imageId)!;
      if (image.processingStatus === "completed" || image.processingStatus === "failed" || Date.now() > deadline) return image;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it(
    "draws the page again at the book's new level, then at the page's own",
    async () => {
      const visitor = new Visitor();
      const bookId = await visitor.createBook("Space");
      const [photo] = await visitor.uploadOk(bookId, [fileFromDataUrl(astronautUrl, "astronaut.jpg")]);
      expect((await visitor.fetch(`/api/books/${bookId}/process`, { method: "POST" })).status).toBe(202);
      const standard = await waitForPage(visitor, bookId, photo.id);
      expect(standard, standard.error ?? "").toMatchObject({ processingStatus: "completed", sketchDetailLevel: "standard" });

      await visitor.send("PATCH", `/api/books/${bookId}/detail`, { detailLevel: "simple" });
      const simple = await waitForPage(visitor, bookId, photo.id);
      expect(simple, simple.error ?? "").toMatchObject({ processingStatus: "completed", detailLevel: "simple", sketchDetailLevel: "simple" });
      expect(simple.sketchUrl).toMatch(/-simple\.png$/);
      expect((await visitor.fetch(simple.sketchUrl!)).status).toBe(200);

      await visitor.send("PATCH", `/api/images/${photo.id}/detail`, { detailLevel: "detailed" });
      const detailed = await waitForPage(visitor, bookId, photo.id);
      expect(detailed, detailed.error ?? "").toMatchObject({ processingStatus: "completed", sketchDetailLevel: "detailed" });
      expect(detailed.sketchUrl).toMatch(/-detailed\.png$/);
      // Each redraw starts its own count of sends (the stuck-image sweep's limit is per drawing).
      expect((await imageRow(photo.id)).process_attempts).toBe(1);
    },
    3 * TIMEOUT_MS + 10_000,
  );
});
