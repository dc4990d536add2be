import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_MESSAGES, MESSAGES } from "~/lib/customer-copy";
import { MAX_PHOTOS_PER_BOOK, MB } from "~/lib/shop-rules";
import { MAX_PNG_WEBP_SOURCE_PIXELS, MAX_SOURCE_PIXELS } from "~/core/engine-limits";
import { database } from "~/core/db/database.server";
import { addImages } from "~/server/books/images.server";
import { dbRun, fakeJpeg, jpegHeaderBytes, pngFile, r2Keys, Visitor, type ApiError, type ImageDto } from "./helpers";

async function errorOf(response: Response): Promise<ApiError> {
  return (await response.json()) as ApiError;
}

/** A PNG signature and IHDR claiming the given size: enough for the header checks. */
function pngHeader(width: number, height: number): Uint8Array<ArrayBuffer> {
  const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...be32(13), 0x49, 0x48, 0x44, 0x52, ...be32(width), ...be32(height), 8, 2, 0, 0, 0, 0, 0, 0, 0]);
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
      detailLevel: "standard",
      ownDetailLevel: null,
      sketchDetailLevel: null,
      createdAt: expect.any(String),
    });
    expect(images[1]).toMatchObject({ originalFilename: "cat.png", width: 64, height: 48 });
    expect(images[1].originalUrl).toMatch(/\.png$/);

    const stored = await env.IMAGES.head(images[0].originalUrl.slice("/images/".length));
    expect(stored?.httpMetadata?.contentType).toBe("image/jpeg");
    // Stored as uploaded minus metadata (this fake's zero padding is not image data either).
    expect(stored?.size).toBeGreaterThan(0);
    expect(stored?.size).toBeLessThanOrEqual(500);

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

  it("allows 50 images per book and refuses the 51st with the product's message", async () => {
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

  it("stores originals without EXIF GPS or camera data, keeping the orientation", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const plain = jpegHeaderBytes(640, 480, 256);
    // An APP1 Exif segment right after SOI: orientation 6 plus GPS and camera text a phone writes.
    const secret = "GPS 51.5007N 0.1246W Canon EOS serial 12345";
    const tiff = [0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];
    const payload = [...new TextEncoder().encode("Exif\0\0"), ...tiff, ...new TextEncoder().encode(secret)];
    const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
    const withExif = new Uint8Array([...plain.subarray(0, 2), ...app1, ...plain.subarray(2)]);
    const [image] = await visitor.uploadOk(bookId, [new File([withExif], "phone.jpg", { type: "image/jpeg" })]);

    const stored = new Uint8Array(await (await visitor.fetch(image.originalUrl)).arrayBuffer());
    const text = new TextDecoder("latin1").decode(stored);
    expect(text).not.toContain("GPS");
    expect(text).not.toContain("Canon");
    expect(text).toContain("Exif"); // the orientation-only EXIF that keeps the photo upright
    expect(image.fileSize).toBe(withExif.length);
  });

  it("refuses, from the header alone, more pixels than the format's decoding budget", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const hugeJpeg = await visitor.upload(bookId, [fakeJpeg("huge.jpg", 6008, 4000)]);
    expect(hugeJpeg.status).toBe(400);
    expect((await errorOf(hugeJpeg)).message).toBe(API_MESSAGES.imageTooManyPixels("huge.jpg", MAX_SOURCE_PIXELS));
    const bigPng = await visitor.upload(bookId, [new File([pngHeader(4000, 3000)], "big.png", { type: "image/png" })]);
    expect(bigPng.status).toBe(400);
    expect((await errorOf(bigPng)).message).toBe(API_MESSAGES.imageTooManyPixels("big.png", MAX_PNG_WEBP_SOURCE_PIXELS));
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

describe("an accepted upload's connection", () => {
  // `npm run load` found it: the closing boundary's CRLF left unread made the runtime reset the
  // connection when it answered, and the reset could destroy the answer (503s under wrangler dev).
  it("reads the body to its end, epilogue included, before answering", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook("Read to the end");
    const book = (await database(env.DB).query.books.findFirst({ where: (books, { eq }) => eq(books.id, bookId) }))!;
    const boundary = "----epilogue-test";
    const encoder = new TextEncoder();
    const chunks = [
      encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      jpegHeaderBytes(640, 480),
      encoder.encode(`\r\n--${boundary}--`),
      encoder.encode("\r\nan epilogue a client may send\r\n"),
    ];
    let readToEnd = false;
    // highWaterMark 0: a chunk is handed out only when the reader asks, so `readToEnd` says
    // whether the handler asked past the last one.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else {
            readToEnd = true;
            controller.close();
          }
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(`http://shop.test/api/books/${bookId}/images`, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
      // @ts-expect-error: workerd's RequestInit accepts a stream body without `duplex`
      duplex: "half",
    });
    const added = await addImages(env, database(env.DB), book, request, async () => undefined);
    expect(added).toHaveLength(1);
    expect(readToEnd).toBe(true);
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
