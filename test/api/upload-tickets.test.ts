import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_PHOTOS_PER_BOOK, MAX_UPLOAD_BYTES } from "~/lib/shop-rules";
import { API_MESSAGES, MESSAGES, PREVIEW_API_MESSAGES } from "~/lib/customer-copy";
import { database } from "~/core/db/database.server";
import { findUploadedUploads } from "~/server/uploads/upload-tickets.server";
import { dbRun, jpegHeaderBytes, makePng, sessionIdOf, type ApiError } from "./helpers";
import { dataUrl, PreviewVisitor, type TicketAnswer } from "./preview-helpers";

interface UploadRow {
  key: string;
  session_id: string;
  browser_session_id: string | null;
  book_type: string | null;
  status: string;
  filename: string | null;
  size: number | null;
  mime_type: string | null;
  width: number | null;
  height: number | null;
}

async function uploadRow(key: string): Promise<UploadRow | null> {
  return env.DB.prepare("SELECT * FROM uploads WHERE key = ?").bind(key).first<UploadRow>();
}

async function messageOf(response: Response): Promise<string> {
  return ((await response.json()) as ApiError).message;
}

describe("GET /api/upload-complete", () => {
  it("mints one signed ticket for the free preview and stores it as a ticketed row", async () => {
    const visitor = new PreviewVisitor();
    const response = await visitor.tickets("count=1&sessionId=1732000000000-abc123");
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as TicketAnswer;
    expect(data.urls).toHaveLength(1);
    const [{ url, key }] = data.urls;
    expect(key).toMatch(/^originals\/[0-9a-f-]{36}$/);
    expect(url).toMatch(new RegExp(`^/api/uploads/${key.slice("originals/".length)}\\?expires=\\d+&signature=[A-Za-z0-9_-]+$`));
    expect(await uploadRow(key)).toMatchObject({
      status: "ticketed",
      browser_session_id: "1732000000000-abc123",
      book_type: null,
      filename: null,
    });
  });

  it("is refused to another site's page (an <img> or a link), and answered to our pages, a typed URL and tools", async () => {
    const visitor = new PreviewVisitor();
    const sessionId = await sessionIdOf(visitor);
    const ticketRows = () => env.DB.prepare("SELECT count(*) AS n FROM uploads WHERE session_id = ?").bind(sessionId).first<number>("n");
    const before = await ticketRows();
    for (const site of ["cross-site", "same-site"]) {
      const response = await visitor.fetch("/api/upload-complete?count=5&sessionId=s-1", { headers: { "Sec-Fetch-Site": site, "Sec-Fetch-Dest": "image" } });
      expect(response.status, site).toBe(403);
      expect(await messageOf(response)).toBe(API_MESSAGES.foreignOrigin);
    }
    expect(await ticketRows()).toBe(before); // nothing made, nothing counted
    for (const site of ["same-origin", "none", null]) {
      const headers: Record<string, string> = site ? { "Sec-Fetch-Site": site } : {};
      expect((await visitor.fetch("/api/upload-complete?count=1&sessionId=s-1", { headers })).status, String(site)).toBe(200);
    }
  });

  it("mints 50 distinct tickets for a book's photos", async () => {
    const visitor = new PreviewVisitor();
    const response = await visitor.tickets(`count=${MAX_PHOTOS_PER_BOOK}&sessionId=s-1&bookType=premium`);
    expect(response.status).toBe(200);
    const { urls } = ((await response.json()) as TicketAnswer).data;
    expect(urls).toHaveLength(MAX_PHOTOS_PER_BOOK);
    expect(new Set(urls.map((ticket) => ticket.key)).size).toBe(MAX_PHOTOS_PER_BOOK);
    expect(await uploadRow(urls[49].key)).toMatchObject({ status: "ticketed", book_type: "premium" });
  });

  it.each(["count=0", "count=51", "count=abc", "count=1.5", ""])("refuses %j with a clear message", async (query) => {
    const response = await new PreviewVisitor().tickets(`${query}&sessionId=s-1`);
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe(PREVIEW_API_MESSAGES.invalidCount);
  });

  it("refuses an unknown book type", async () => {
    const response = await new PreviewVisitor().tickets("count=1&sessionId=s-1&bookType=deluxe");
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe(PREVIEW_API_MESSAGES.invalidBookType);
  });
});

describe("PUT <ticket url>", () => {
  it("stores the image in R2 under the ticket's key and marks the upload uploaded", async () => {
    const visitor = new PreviewVisitor();
    const { url, key } = await visitor.ticket();
    const png = await makePng(64, 48);
    const response = await visitor.put(url, png, "Our cat (1).png");
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ key, filename: "Our cat (1).png", size: png.length, width: 64, height: 48 });

    const stored = await env.IMAGES.get(key);
    expect(stored?.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(png);
    expect(await uploadRow(key)).toMatchObject({
      status: "uploaded",
      filename: "Our cat (1).png",
      size: png.length,
      mime_type: "image/png",
      width: 64,
      height: 48,
    });
    // The owner can look at it; the URL the conversion will answer is the same door.
    expect((await visitor.fetch(`/images/${key}`)).status).toBe(200);
  });

  it("answers 404 to a forged signature, an expired ticket and another visitor's ticket", async () => {
    const owner = new PreviewVisitor();
    const png = await makePng(32, 32);

    const forged = await owner.ticket();
    const badSignature = forged.url.replace(/signature=[^&]+/, "signature=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    expect((await owner.put(badSignature, png)).status).toBe(404);
    // Moving the expiry breaks the signature too.
    const later = forged.url.replace(/expires=(\d+)/, (_, s) => `expires=${Number(s) + 3600}`);
    expect((await owner.put(later, png)).status).toBe(404);

    const expired = await owner.ticket();
    await dbRun("UPDATE uploads SET expires_at = unixepoch() - 1 WHERE key = ?", expired.key);
    expect((await owner.put(expired.url, png)).status).toBe(404);

    const stranger = new PreviewVisitor();
    const theirs = await owner.ticket();
    const response = await stranger.put(theirs.url, png);
    expect(response.status).toBe(404);
    expect(await uploadRow(theirs.key)).toMatchObject({ status: "ticketed" });
    expect(await env.IMAGES.head(theirs.key)).toBeNull();
  });

  it("accepts one upload per ticket: the second PUT gets 409", async () => {
    const visitor = new PreviewVisitor();
    const { url } = await visitor.ticket();
    expect((await visitor.put(url, await makePng(16, 16))).status).toBe(200);
    const second = await visitor.put(url, await makePng(20, 20));
    expect(second.status).toBe(409);
    expect(await messageOf(second)).toBe(PREVIEW_API_MESSAGES.ticketAlreadyUsed);
  });

  it("lets exactly one of two racing uploads win", async () => {
    const visitor = new PreviewVisitor();
    const { url, key } = await visitor.ticket();
    const [a, b] = await Promise.all([visitor.put(url, await makePng(16, 16)), visitor.put(url, await makePng(24, 24))]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = (await (a.status === 200 ? a : b).json()) as { width: number };
    expect((await uploadRow(key))?.width).toBe(winner.width);
  });

  it("refuses 15 MB + 1 byte with the product's text, and keeps the ticket usable", async () => {
    const visitor = new PreviewVisitor();
    const { url, key } = await visitor.ticket();
    const big = jpegHeaderBytes(4000, 3000, MAX_UPLOAD_BYTES + 1);
    const response = await visitor.put(url, big);
    expect(response.status).toBe(413);
    expect(await messageOf(response)).toBe(MESSAGES.previewTooLarge);
    expect(await uploadRow(key)).toMatchObject({ status: "ticketed" });
    // Exactly 15 MB is allowed.
    expect((await visitor.put(url, jpegHeaderBytes(4000, 3000, MAX_UPLOAD_BYTES))).status).toBe(200);
  });

  it("refuses a text file with the 'not a supported image format' text", async () => {
    const visitor = new PreviewVisitor();
    const { url, key } = await visitor.ticket();
    const response = await visitor.put(url, new TextEncoder().encode("just some notes, not a photo"), "notes.jpg");
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe(MESSAGES.unsupportedPreviewUpload("notes.jpg"));
    expect(await env.IMAGES.head(key)).toBeNull();
  });
});

describe("POST /api/upload-file", () => {
  it("uploads a data URL to the ticket through the same checks", async () => {
    const visitor = new PreviewVisitor();
    const { url, key } = await visitor.ticket();
    const png = await makePng(40, 30);
    const response = await visitor.send("POST", "/api/upload-file", { imageData: dataUrl(png), presignedUrl: url, filename: "garden.png" });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ key, filename: "garden.png", size: png.length, width: 40, height: 30 });
    expect(new Uint8Array(await (await env.IMAGES.get(key))!.arrayBuffer())).toEqual(png);

    const again = await visitor.send("POST", "/api/upload-file", { imageData: dataUrl(png), presignedUrl: url, filename: "garden.png" });
    expect(again.status).toBe(409);
  });

  it("refuses a stranger's ticket, text, and a file over 15 MB", async () => {
    const owner = new PreviewVisitor();
    const stranger = new PreviewVisitor();
    const png = await makePng(16, 16);
    const theirs = await owner.ticket();
    expect((await stranger.send("POST", "/api/upload-file", { imageData: dataUrl(png), presignedUrl: theirs.url, filename: "a.png" })).status).toBe(404);

    const mine = await owner.ticket();
    const text = await owner.send("POST", "/api/upload-file", {
      imageData: dataUrl(new TextEncoder().encode("hello"), "image/png"),
      presignedUrl: mine.url,
      filename: "hello.png",
    });
    expect(text.status).toBe(400);
    expect(await messageOf(text)).toBe(MESSAGES.unsupportedPreviewUpload("hello.png"));

    const big = await owner.send("POST", "/api/upload-file", {
      imageData: dataUrl(jpegHeaderBytes(4000, 3000, MAX_UPLOAD_BYTES + 1), "image/jpeg"),
      presignedUrl: mine.url,
      filename: "huge.jpg",
    });
    expect(big.status).toBe(413);
    expect(await messageOf(big)).toBe(MESSAGES.previewTooLarge);
    expect(await uploadRow(mine.key)).toMatchObject({ status: "ticketed" });
  });

  it("takes a file of exactly 15 MB (about 21 MB of base64)", async () => {
    const visitor = new PreviewVisitor();
    const { url, key } = await visitor.ticket();
    const response = await visitor.send("POST", "/api/upload-file", {
      imageData: dataUrl(jpegHeaderBytes(4000, 3000, MAX_UPLOAD_BYTES), "image/jpeg"),
      presignedUrl: url,
      filename: "exactly-15-mb.jpg",
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ key, size: MAX_UPLOAD_BYTES, width: 4000, height: 3000 });
  });

  it("answers 400 with a message, not 500, to a field that is not JSON", async () => {
    const visitor = new PreviewVisitor();
    const { url, key } = await visitor.ticket();
    const imageData = dataUrl(await makePng(16, 16));
    for (const filename of ["tru", "01", "-", "[1,]"]) {
      const response = await visitor.fetch("/api/upload-file", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: `{"imageData":${JSON.stringify(imageData)},"presignedUrl":${JSON.stringify(url)},"filename":${filename}}`,
      });
      expect(response.status, filename).toBe(400);
      expect(await messageOf(response)).toBe(API_MESSAGES.invalidJson);
    }
    expect(await uploadRow(key)).toMatchObject({ status: "ticketed" });
  });

  it("refuses a body that is not a data URL", async () => {
    const visitor = new PreviewVisitor();
    const { url } = await visitor.ticket();
    const response = await visitor.send("POST", "/api/upload-file", { imageData: "https://example.com/cat.png", presignedUrl: url, filename: "cat.png" });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe(PREVIEW_API_MESSAGES.invalidDataUrl);
  });
});

describe("findUploadedUploads", () => {
  it("finds this session's uploaded photos in the order asked, leaving out the rest", async () => {
    const visitor = new PreviewVisitor();
    const first = await visitor.uploaded(await makePng(16, 16), "one.png");
    const second = await visitor.uploaded(await makePng(16, 16), "two.png");
    const unused = await visitor.ticket();
    const strangers = await new PreviewVisitor().uploaded(await makePng(16, 16));
    const { session_id: sessionId } = (await uploadRow(first))!;

    const found = await findUploadedUploads(database(env.DB), sessionId, [second, unused.key, strangers, first, "originals/nope"]);
    expect(found.map((upload) => upload.filename)).toEqual(["two.png", "one.png"]);

    await dbRun("INSERT INTO books (session_id, title) VALUES (?, 'Book')", sessionId);
    await dbRun("UPDATE uploads SET book_id = (SELECT max(id) FROM books) WHERE key = ?", second);
    expect((await findUploadedUploads(database(env.DB), sessionId, [second, first])).map((upload) => upload.key)).toEqual([first]);
  });
});
