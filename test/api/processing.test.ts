import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_MESSAGES } from "~/lib/customer-copy";
import { dbRun, fakeJpeg, Visitor, type ApiError, type ImageDto } from "./helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

/** The producer is watched, not run: the sketch Worker is exercised in pipeline.test.ts. */
function spyOnQueue() {
  return vi.spyOn(env.SKETCH_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
}

async function bookStatus(bookId: number): Promise<string> {
  return (await env.DB.prepare("SELECT status FROM books WHERE id = ?").bind(bookId).first<string>("status"))!;
}

describe("POST /api/books/{id}/process", () => {
  it("queues one job per pending image, at its level, and marks the book processing", async () => {
    const sendBatch = spyOnQueue();
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const images = await visitor.uploadOk(bookId, [fakeJpeg("a.jpg"), fakeJpeg("b.jpg"), fakeJpeg("c.jpg")]);
    await dbRun("UPDATE images SET processing_status = 'completed' WHERE id = ?", images[2].id);
    await dbRun("UPDATE images SET detail_level = 'simple' WHERE id = ?", images[1].id);

    const response = await visitor.fetch(`/api/books/${bookId}/process`, { method: "POST" });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ queued: 2 });
    expect(sendBatch).toHaveBeenCalledOnce();
    expect(sendBatch.mock.calls[0][0]).toEqual([
      { body: { imageId: images[0].id, detail: "standard" } },
      { body: { imageId: images[1].id, detail: "simple" } },
    ]);
    expect(await bookStatus(bookId)).toBe("processing");
  });

  it("refuses a book without images, and is 404 for a stranger", async () => {
    const sendBatch = spyOnQueue();
    const owner = new Visitor();
    const bookId = await owner.createBook();
    const empty = await owner.fetch(`/api/books/${bookId}/process`, { method: "POST" });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as ApiError).message).toBe(API_MESSAGES.bookHasNoImages);

    await owner.uploadOk(bookId, [fakeJpeg("a.jpg")]);
    const stranger = await new Visitor().fetch(`/api/books/${bookId}/process`, { method: "POST" });
    expect(stranger.status).toBe(404);
    expect(sendBatch).not.toHaveBeenCalled();
    expect(await bookStatus(bookId)).toBe("draft");

    expect((await owner.fetch(`/api/books/${bookId}/process`)).status).toBe(405);
  });
});

describe("GET /api/books/{id}/progress", () => {
  it("counts completed and failed images as processed", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const progress = () => visitor.fetch(`/api/books/${bookId}/progress`).then((r) => r.json());
    expect(await progress()).toEqual({ processedImages: 0, totalImages: 0 });

    const images = await visitor.uploadOk(bookId, ["a", "b", "c", "d"].map((n) => fakeJpeg(`${n}.jpg`)));
    await dbRun("UPDATE images SET processing_status = 'completed' WHERE id = ?", images[0].id);
    await dbRun("UPDATE images SET processing_status = 'failed' WHERE id = ?", images[1].id);
    await dbRun("UPDATE images SET processing_status = 'processing' WHERE id = ?", images[2].id);
    expect(await progress()).toEqual({ processedImages: 2, totalImages: 4 });

    expect((await new Visitor().fetch(`/api/books/${bookId}/progress`)).status).toBe(404);
  });
});

describe("PATCH /api/images/{imageId}/selection", () => {
  it("selects and deselects a completed image", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const [image] = await visitor.uploadOk(bookId, [fakeJpeg("a.jpg")]);
    await dbRun("UPDATE images SET processing_status = 'completed', quality_score = 93 WHERE id = ?", image.id);

    const selected = await visitor.send("PATCH", `/api/images/${image.id}/selection`, { isSelected: true });
    expect(selected.status).toBe(200);
    expect(await selected.json()).toMatchObject({ id: image.id, isSelected: true, qualityScore: 93, processingStatus: "completed" });

    const deselected = await visitor.send("PATCH", `/api/images/${image.id}/selection`, { isSelected: false });
    expect(((await deselected.json()) as ImageDto).isSelected).toBe(false);
  });

  it("answers 409 for an image that is not completed", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const [pending, failed] = await visitor.uploadOk(bookId, [fakeJpeg("a.jpg"), fakeJpeg("b.jpg")]);
    await dbRun("UPDATE images SET processing_status = 'failed' WHERE id = ?", failed.id);
    for (const image of [pending, failed]) {
      const response = await visitor.send("PATCH", `/api/images/${image.id}/selection`, { isSelected: true });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ message: API_MESSAGES.onlyCompletedSelectable });
    }
  });

  it("validates the body and is 404 for a stranger", async () => {
    const owner = new Visitor();
    const bookId = await owner.createBook();
    const [image] = await owner.uploadOk(bookId, [fakeJpeg("a.jpg")]);
    await dbRun("UPDATE images SET processing_status = 'completed' WHERE id = ?", image.id);

    const bad = await owner.send("PATCH", `/api/images/${image.id}/selection`, { isSelected: "yes" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ApiError).fieldErrors).toHaveProperty("isSelected");

    const stranger = await new Visitor().send("PATCH", `/api/images/${image.id}/selection`, { isSelected: true });
    expect(stranger.status).toBe(404);
    expect((await owner.send("PATCH", "/api/images/999999/selection", { isSelected: true })).status).toBe(404);
    expect((await owner.send("POST", `/api/images/${image.id}/selection`, { isSelected: true })).status).toBe(405);
    const row = await env.DB.prepare("SELECT is_selected FROM images WHERE id = ?").bind(image.id).first<number>("is_selected");
    expect(row).toBe(0);
  });
});
