import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_PHOTOS_PER_BOOK, MB, MESSAGES } from "~/lib/constants";
import { dbRun, fakeJpeg, pngFile, r2Keys, Visitor, type ApiError, type ImageDto } from "./helpers";

async function errorOf(response: Response): Promise<ApiError> {
  return (await response.json()) as ApiError;
}

async function imageCount(bookId: number): Promise<number> {
  const { results } = await env.DB.prepare("SELECT count(*) AS n FROM images WHERE book_id = ?").bind(bookId).all<{ n: number }>();
  return results[0].n;
}

describe("POST /api/books/{id}/images", () => {
  it("stores originals under random keys and answers the new images", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const response = await visitor.upload(bookId, [fakeJpeg("beach day.jpg", 1200, 800, 500), await pngFile("cat.png", 64, 48)]);
    expect(response.status).toBe(201);
    const { images } = (await response.json()) as { images: ImageDto[] };
    expect(images).toHaveLength(2);
    expect(images[0]).toEqual({
      id: expect.any(Number),
      bookId,
      originalFilename: "beach day.jpg",
      originalUrl: expect.stringMatching(/^\/images\/originals\/[0-9a-f-]{36}\.jpg$/),
      sketchUrl: null,
      isSelected: false,
      processingStatus: "pending",
      qualityScore: null,
      fileSize: 500,
      width: 1200,
      height: 800,
      error: null,
      createdAt: expect.any(String),
    });
    expect(images[1]).toMatchObject({ originalFilename: "cat.png", width: 64, height: 48 });
    expect(images[1].originalUrl).toMatch(/\.png$/);

    const stored = await env.IMAGES.head(images[0].originalUrl.slice("/images/".length));
    expect(stored?.httpMetadata?.contentType).toBe("image/jpeg");
    expect(stored?.size).toBe(500);

    const list = await visitor.fetch(`/api/books/${bookId}/images`);
    expect(list.status).toBe(200);
    expect(((await list.json()) as ImageDto[]).map((image) => image.id)).toEqual(images.map((image) => image.id));
  });

  it("refuses bytes that are not an image even when named .jpg, and stores nothing", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const keysBefore = await r2Keys();
    const notAnImage = new File([new TextEncoder().encode("just some text, not a photo")], "holiday.jpg", { type: "image/jpeg" });
    const response = await visitor.upload(bookId, [fakeJpeg("good.jpg"), notAnImage]);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(MESSAGES.unsupportedBookUpload("holiday.jpg"));
    expect(await imageCount(bookId)).toBe(0);
    expect(await r2Keys()).toEqual(keysBefore);
  });

  it("refuses GIF on book uploads (JPEG, PNG and WebP only)", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x10, 0x00, 0x10, 0x00, 0, 0, 0]);
    const response = await visitor.upload(bookId, [new File([gif], "anim.gif", { type: "image/gif" })]);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(MESSAGES.unsupportedBookUpload("anim.gif"));
  });

  it("refuses a 16 MB file with 413, counting the bytes as they arrive", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const keysBefore = await r2Keys();
    const response = await visitor.upload(bookId, [fakeJpeg("small.jpg"), fakeJpeg("huge.jpg", 4000, 3000, 16 * MB)]);
    expect(response.status).toBe(413);
    expect((await errorOf(response)).message).toBe(MESSAGES.fileTooLarge("huge.jpg"));
    expect(await imageCount(bookId)).toBe(0);
    expect(await r2Keys()).toEqual(keysBefore);
  });

  it("counts the bytes of a body that declares no length, and of one that understates it", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const form = new FormData();
    form.append("images", fakeJpeg("streamed.jpg", 100, 100, 16 * MB));
    const formResponse = new Response(form);
    const contentType = formResponse.headers.get("Content-Type")!;
    const body = new Uint8Array(await formResponse.arrayBuffer());
    const post = (headers: Record<string, string>) =>
      visitor.fetch(`/api/books/${bookId}/images`, {
        method: "POST",
        headers: { "Content-Type": contentType, ...headers },
        body: new Blob([body]).stream(), // a stream: sent chunked, no Content-Length of its own
        duplex: "half",
      } as RequestInit);

    const chunked = await post({});
    expect(chunked.status).toBe(413);
    expect((await errorOf(chunked)).message).toBe(MESSAGES.fileTooLarge("streamed.jpg"));

    const understated = await post({ "Content-Length": "1000" });
    expect(understated.status).toBe(413);
    expect((await errorOf(understated)).message).toBe(MESSAGES.fileTooLarge("streamed.jpg"));
    expect(await imageCount(bookId)).toBe(0);
  });

  it("refuses a body whose declared length is already over the limit before reading it", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const response = await visitor.fetch(`/api/books/${bookId}/images`, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=xyz", "Content-Length": String(51 * 16 * MB) },
      body: new ReadableStream({ start: (controller) => controller.close() }),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("allows 50 images per book and refuses the 51st with SPEC's message", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const files = Array.from({ length: MAX_PHOTOS_PER_BOOK - 1 }, (_, i) => fakeJpeg(`photo-${i}.jpg`));
    expect(await visitor.uploadOk(bookId, files)).toHaveLength(49);
    expect(await visitor.uploadOk(bookId, [fakeJpeg("fiftieth.jpg")])).toHaveLength(1);

    const keysBefore = await r2Keys();
    const response = await visitor.upload(bookId, [fakeJpeg("fifty-first.jpg")]);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(MESSAGES.tooManyImagesPerBook);
    expect(await imageCount(bookId)).toBe(MAX_PHOTOS_PER_BOOK);
    expect(await r2Keys()).toEqual(keysBefore);
  });

  it("refuses 51 images in one request without storing any of them", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const keysBefore = await r2Keys();
    const files = Array.from({ length: MAX_PHOTOS_PER_BOOK + 1 }, (_, i) => fakeJpeg(`p${i}.jpg`));
    const response = await visitor.upload(bookId, files);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(MESSAGES.tooManyImagesPerBook);
    expect(await imageCount(bookId)).toBe(0);
    expect(await r2Keys()).toEqual(keysBefore);
  });

  it("keeps the limit when two uploads race: one goes in whole, the other not at all", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const batch = (tag: string) => Array.from({ length: 30 }, (_, i) => fakeJpeg(`${tag}-${i}.jpg`));
    const keysBefore = await r2Keys();
    const statuses = (await Promise.all([visitor.upload(bookId, batch("a")), visitor.upload(bookId, batch("b"))])).map((r) => r.status);
    expect(statuses.sort()).toEqual([201, 400]);
    expect(await imageCount(bookId)).toBe(30);
    expect((await r2Keys()).length).toBe(keysBefore.length + 30);
  });

  it("refuses an empty request and a body that is not multipart", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const empty = await visitor.upload(bookId, []);
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).message).toBeTruthy();

    const noBody = await visitor.fetch(`/api/books/${bookId}/images`, { method: "POST" });
    expect(noBody.status).toBe(400);

    const json = await visitor.send("POST", `/api/books/${bookId}/images`, { images: [] });
    expect(json.status).toBe(400);

    const truncated = await visitor.fetch(`/api/books/${bookId}/images`, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="images"; filename="a.jpg"\r\n\r\nabc',
    });
    expect(truncated.status).toBe(400);
    expect(await imageCount(bookId)).toBe(0);
  });

  it("is 404 for a stranger, a missing book and a non-integer id", async () => {
    const owner = new Visitor();
    const stranger = new Visitor();
    const bookId = await owner.createBook();
    await owner.uploadOk(bookId, [fakeJpeg("mine.jpg")]);

    for (const path of [`/api/books/${bookId}/images`, "/api/books/999999/images", "/api/books/abc/images", "/api/books/1.5/images"]) {
      const list = await stranger.fetch(path);
      expect(list.status, path).toBe(404);
      expect(await list.json()).toEqual({ message: "Not found" });
    }
    const upload = await stranger.upload(bookId, [fakeJpeg("theirs.jpg")]);
    expect(upload.status).toBe(404);
    expect(await imageCount(bookId)).toBe(1);
  });
});

describe("GET /images/<key>", () => {
  it("streams the owner's original with its type and cache headers, and 404s for anyone else", async () => {
    const owner = new Visitor();
    const bookId = await owner.createBook();
    const [image] = await owner.uploadOk(bookId, [await pngFile("kid.png", 32, 32)]);

    const response = await owner.fetch(image.originalUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
    const etag = response.headers.get("ETag");
    expect(etag).toBeTruthy();
    expect(new Uint8Array(await response.arrayBuffer()).length).toBe(image.fileSize);

    const revalidated = await owner.fetch(image.originalUrl, { headers: { "If-None-Match": etag! } });
    expect(revalidated.status).toBe(304);

    const stranger = await new Visitor().fetch(image.originalUrl);
    expect(stranger.status).toBe(404);
    expect(await owner.fetch("/images/originals/not-a-real-key.jpg")).toHaveProperty("status", 404);
  });

  it("serves a sketch once the row points at it", async () => {
    const owner = new Visitor();
    const bookId = await owner.createBook();
    const [image] = await owner.uploadOk(bookId, [await pngFile("dog.png", 16, 16)]);
    const sketchKey = `sketches/${crypto.randomUUID()}.png`;
    await env.IMAGES.put(sketchKey, await (await pngFile("s.png", 16, 16)).arrayBuffer(), { httpMetadata: { contentType: "image/png" } });
    expect((await owner.fetch(`/images/${sketchKey}`)).status).toBe(404);

    await dbRun("UPDATE images SET sketch_key = ?, processing_status = 'completed' WHERE id = ?", sketchKey, image.id);
    const response = await owner.fetch(`/images/${sketchKey}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect((await new Visitor().fetch(`/images/${sketchKey}`)).status).toBe(404);
  });
});
