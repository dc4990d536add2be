/**
 * Acting as visitors of the shop: each Visitor keeps its own signed session cookie, so a test
 * can be two different people. Plus small image files made on the spot.
 */
import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import type { ImageDto } from "~/lib/api-types";
import type { ApiError } from "~/server/http/http.server";

export type { ApiError, ImageDto };

export const ORIGIN = "http://shop.test";

export class Visitor {
  /** The `name=value` of this visitor's session cookie, once the server has set one. */
  cookie: string | null = null;

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("Cookie", this.cookie);
    const response = await SELF.fetch(`${ORIGIN}${path}`, { ...init, headers });
    const setCookie = response.headers.get("Set-Cookie");
    if (setCookie) this.cookie = setCookie.split(";")[0];
    return response;
  }

  send(method: string, path: string, body?: unknown): Promise<Response> {
    return this.fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async createBook(title = "Summer at Grandma's", personalMessage?: string): Promise<number> {
    const response = await this.send("POST", "/api/books", { title, personalMessage });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: number }).id;
  }

  upload(bookId: number, files: File[]): Promise<Response> {
    const form = new FormData();
    for (const file of files) form.append("images", file);
    return this.fetch(`/api/books/${bookId}/images`, { method: "POST", body: form });
  }

  async uploadOk(bookId: number, files: File[]): Promise<ImageDto[]> {
    const response = await this.upload(bookId, files);
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { images: ImageDto[] }).images;
  }
}

/**
 * A JPEG header (SOI, APP0, SOF0 with the given size) padded to `size` bytes: enough for the
 * upload's magic-byte and dimension checks, not a decodable picture.
 */
export function jpegHeaderBytes(width: number, height: number, size = 64): Uint8Array<ArrayBuffer> {
  const header = [
    0xff, 0xd8, // SOI
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, // APP0 JFIF
    0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03,
    0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, // SOF0, 3 components
  ];
  const bytes = new Uint8Array(Math.max(size, header.length + 2));
  bytes.set(header);
  bytes.set([0xff, 0xd9], bytes.length - 2); // EOI
  return bytes;
}

export function fakeJpeg(name: string, width = 640, height = 480, size = 64): File {
  return new File([jpegHeaderBytes(width, height, size)], name, { type: "image/jpeg" });
}

/** A real, decodable RGB PNG with a few shapes on it (so a sketch has edges to find). */
export async function makePng(width: number, height: number): Promise<Uint8Array<ArrayBuffer>> {
  const rowLength = 1 + width * 3;
  const raw = new Uint8Array(rowLength * height);
  for (let y = 0; y < height; y++) {
    raw[y * rowLength] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const inCircle = (x - width / 2) ** 2 + (y - height / 2) ** 2 < (Math.min(width, height) / 3) ** 2;
      const inSquare = x > width / 8 && x < width / 3 && y > height / 8 && y < height / 3;
      const shade = inCircle ? 40 : inSquare ? 90 : 220 - Math.round((60 * y) / height);
      const offset = y * rowLength + 1 + x * 3;
      raw[offset] = shade;
      raw[offset + 1] = inCircle ? 120 : shade;
      raw[offset + 2] = shade;
    }
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, RGB, deflate, no filter, no interlace
  const idat = new Uint8Array(await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
  return concatBytes([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", idat),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

export async function pngFile(name: string, width = 64, height = 48): Promise<File> {
  return new File([await makePng(width, height)], name, { type: "image/png" });
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(new TextEncoder().encode(type), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function concatBytes(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Rows straight from D1, for what the API does not show (or to move a test's clock). */
export async function dbRun(query: string, ...values: unknown[]) {
  const { env } = await import("cloudflare:test");
  return env.DB.prepare(query).bind(...values).run();
}

export async function r2Keys(prefix = ""): Promise<string[]> {
  const { env } = await import("cloudflare:test");
  const listing = await env.IMAGES.list({ prefix });
  return listing.objects.map((object) => object.key);
}

export async function orderRow(orderId: number) {
  const { env } = await import("cloudflare:test");
  return env.DB.prepare("SELECT * FROM orders WHERE id = ?").bind(orderId).first<Record<string, unknown>>();
}

/** POST /api/orders/{id}/payment: the checkout page the buyer is sent to. */
export async function startPayment(visitor: Visitor, orderId: number): Promise<string> {
  const response = await visitor.send("POST", `/api/orders/${orderId}/payment`, { paymentMethod: "card" });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { checkoutUrl: string }).checkoutUrl;
}

export const TEST_DELIVERY = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  address1: "1 Downing Street",
  city: "London",
  zipCode: "SW1A 1AA",
  country: "UK",
  phone: "+44 20 7946 0000",
};

/** Presses Pay on the local test checkout (with an address when it asks for one); where it sends the buyer. */
export async function payLocally(visitor: Visitor, checkoutUrl: string, address: Record<string, string> = TEST_DELIVERY): Promise<string> {
  const form = new URLSearchParams({ intent: "pay", ...address });
  const response = await visitor.fetch(`${new URL(checkoutUrl).pathname}?_data=routes%2Ftest-checkout.%24sessionId`, {
    method: "POST",
    body: form,
  });
  expect([200, 204, 302]).toContain(response.status);
  const location = response.headers.get("X-Remix-Redirect") ?? response.headers.get("Location");
  expect(location, await response.clone().text()).toBeTruthy();
  return location!;
}

/**
 * Presses Cancel on the local test checkout: where it sends the buyer first (what Stripe's back
 * link is, the checkout's cancel URL), and the page the browser lands on after following it.
 */
export async function cancelLocally(visitor: Visitor, checkoutUrl: string, { follow = true } = {}): Promise<{ cancelUrl: string; landing: string }> {
  let response = await visitor.fetch(new URL(checkoutUrl).pathname, {
    method: "POST",
    body: new URLSearchParams({ intent: "cancel" }),
    redirect: "manual",
  });
  expect(response.status, await response.clone().text()).toBe(302);
  const cancelUrl = response.headers.get("Location")!;
  let landing = cancelUrl;
  while (follow && response.status === 302) {
    landing = response.headers.get("Location")!;
    const next = new URL(landing, ORIGIN);
    response = await visitor.fetch(`${next.pathname}${next.search}`, { redirect: "manual" });
  }
  return { cancelUrl, landing };
}

/** The server-side session id behind a visitor's signed cookie (read from a row it owns). */
export async function sessionIdOf(visitor: Visitor): Promise<string> {
  const { env } = await import("cloudflare:test");
  const bookId = await visitor.createBook("Session probe");
  const sessionId = await env.DB.prepare("SELECT session_id FROM books WHERE id = ?").bind(bookId).first<string>("session_id");
  await env.DB.prepare("DELETE FROM books WHERE id = ?").bind(bookId).run();
  return sessionId!;
}

/**
 * `count` photos as the upload tickets leave them (`uploaded` rows of the visitor's session, the
 * bytes in R2), ready for a create-book checkout. Real PNGs, so the sketch Worker can draw them.
 */
export async function uploadedPhotos(visitor: Visitor, count: number, bookType = "standard"): Promise<string[]> {
  const { env } = await import("cloudflare:test");
  const sessionId = await sessionIdOf(visitor);
  const png = await makePng(96, 72);
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = `originals/${crypto.randomUUID()}`;
    await env.IMAGES.put(key, png, { httpMetadata: { contentType: "image/png" } });
    await env.DB.prepare(
      `INSERT INTO uploads (key, session_id, book_type, filename, size, mime_type, width, height, status)
       VALUES (?, ?, ?, ?, ?, 'image/png', 96, 72, 'uploaded')`,
    )
      .bind(key, sessionId, bookType, `photo-${i + 1}.png`, png.length)
      .run();
    keys.push(key);
  }
  return keys;
}

export const address = { country: "UK", zipCode: "SW1A 1AA" };
export const deliveryInfo = { ...TEST_DELIVERY, ...address };

/** A book of the /book/{id} pages with `selected` completed, selected images, and a quote for `address`. */
export async function readyBook(visitor: Visitor, selected = 5, zipCode = address.zipCode) {
  const bookId = await visitor.createBook();
  const images = await visitor.uploadOk(bookId, Array.from({ length: selected + 1 }, (_, i) => fakeJpeg(`p${i}.jpg`)));
  await dbRun(`UPDATE images SET processing_status = 'completed' WHERE book_id = ?`, bookId);
  for (const image of images.slice(0, selected)) {
    await visitor.send("PATCH", `/api/images/${image.id}/selection`, { isSelected: true });
  }
  const quoteId = await quoteFor(visitor, bookId, zipCode);
  return { bookId, quoteId };
}

export async function quoteFor(visitor: Visitor, bookId: number, zipCode = address.zipCode): Promise<string> {
  const response = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { ...address, zipCode } });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { quoteId: string }).quoteId;
}

export async function placeOrder(visitor: Visitor, bookId: number, quoteId: string, zipCode = address.zipCode): Promise<number> {
  const response = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo: { ...deliveryInfo, zipCode } });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/**
 * Room a burst test asks of the limiter's window: 61 requests took over 5 s on a loaded CI
 * machine, so a 5 s margin let a burst run into the next window.
 */
export const BURST_WINDOW_MARGIN_MS = 20_000;

/**
 * A burst test's own timeout: the wait for a fresh window (at most the margin) plus the burst
 * itself. vitest's default 5 s timed one out on CI while it waited for the window.
 */
export const BURST_TEST_TIMEOUT_MS = BURST_WINDOW_MARGIN_MS + 40_000;

/**
 * Waits, if need be, until the rate limiter's current window has at least `marginMs` left. Under
 * Miniflare the Workers Rate Limiting binding counts in fixed windows (floor(now / period)), so a
 * burst that straddles a window's end starts counting again and its refusal comes late: a CI run
 * sent the 61st quote request of a "minute" just after the minute turned and got 400, not 429.
 */
export async function startOfRateLimitWindow(periodSeconds: number, marginMs = BURST_WINDOW_MARGIN_MS): Promise<void> {
  const periodMs = periodSeconds * 1000;
  const left = periodMs - (Date.now() % periodMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
