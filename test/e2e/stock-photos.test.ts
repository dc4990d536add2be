/**
 * The sample stock photos of docs/product.md §5.4: the records against the files in public/stock/
 * (Node, reading the JPEG headers), loading one as a File, and each image served by
 * `wrangler dev` and decoded by Chromium. The picker on the create-book page is tested there.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { STOCK_PHOTO_DELAY_MS } from "../../app/lib/shop-rules";
import { loadStockPhotoFile, STOCK_PHOTO_GROUPS, STOCK_PHOTOS, type StockPhoto } from "../../app/lib/stock-photos";

const root = path.resolve(import.meta.dirname, "../..");
const publicDir = path.join(root, "public");
const allPhotos = STOCK_PHOTO_GROUPS.flatMap((group) => STOCK_PHOTOS[group]);
const MAX_STOCK_PHOTO_BYTES = 60_000;

/** Width and height from a JPEG's start-of-frame segment (the first SOFn marker). */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error("not a JPEG (no SOI marker)");
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) throw new Error(`no marker at byte ${offset}`);
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    const length = (bytes[offset + 2] << 8) | bytes[offset + 3];
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return {
        height: (bytes[offset + 5] << 8) | bytes[offset + 6],
        width: (bytes[offset + 7] << 8) | bytes[offset + 8],
      };
    }
    offset += 2 + length;
  }
  throw new Error("no start-of-frame marker");
}

const fileOf = (photo: StockPhoto) => path.join(publicDir, photo.url);

describe("stock photo records", () => {
  it("has the two groups of four, with slug ids", () => {
    expect(STOCK_PHOTO_GROUPS).toEqual(["coloringPages", "sketches"]);
    expect(STOCK_PHOTOS.coloringPages.map((photo) => photo.id)).toEqual(["mandala-1", "geometric-1", "floral-1", "zentangle-1"]);
    expect(STOCK_PHOTOS.sketches.map((photo) => photo.id)).toEqual(["landscape-1", "portrait-1", "architecture-1", "botanical-1"]);
  });

  it.each(allPhotos.map((photo) => [photo.id, photo] as const))("%s has a title, a description and a file of ours", (_id, photo) => {
    expect(photo.title.trim()).not.toBe("");
    expect(photo.description.trim().length).toBeGreaterThan(photo.title.length);
    expect(photo.url).toBe(`/stock/${photo.id}.jpg`);
    expect(statSync(fileOf(photo)).isFile()).toBe(true);
  });

  it.each(allPhotos.map((photo) => [photo.id, photo] as const))("%s is a 400x300 JPEG under 60 KB", (_id, photo) => {
    const bytes = new Uint8Array(readFileSync(fileOf(photo)));
    expect(jpegSize(bytes)).toEqual({ width: 400, height: 300 });
    expect(bytes.length).toBeLessThan(MAX_STOCK_PHOTO_BYTES);
  });

  it("no two photos share a title or a picture", () => {
    expect(new Set(allPhotos.map((photo) => photo.title)).size).toBe(allPhotos.length);
    expect(new Set(allPhotos.map((photo) => readFileSync(fileOf(photo)).toString("base64"))).size).toBe(allPhotos.length);
  });
});

describe("loadStockPhotoFile", () => {
  const mandala = STOCK_PHOTOS.coloringPages[0];
  // Serves public/ like the site does, without a network.
  const fetchFromDisk = vi.fn(async (input: RequestInfo | URL) => {
    const bytes = readFileSync(path.join(publicDir, String(input)));
    return new Response(bytes, { headers: { "Content-Type": "image/jpeg" } });
  });

  afterEach(() => {
    vi.useRealTimers();
    fetchFromDisk.mockClear();
  });

  it("waits STOCK_PHOTO_DELAY_MS, then gives the image as <id>.jpg, image/jpeg", async () => {
    vi.useFakeTimers();
    const loading = loadStockPhotoFile(mandala, fetchFromDisk as typeof fetch);
    await vi.advanceTimersByTimeAsync(STOCK_PHOTO_DELAY_MS - 1);
    expect(fetchFromDisk).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const file = await loading;
    expect(fetchFromDisk).toHaveBeenCalledWith("/stock/mandala-1.jpg");
    expect(file.name).toBe("mandala-1.jpg");
    expect(file.type).toBe("image/jpeg");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(readFileSync(fileOf(mandala))));
  });

  it("fails when the image cannot be loaded", async () => {
    vi.useFakeTimers();
    const notFound = vi.fn(async () => new Response("Not Found", { status: 404 }));
    const loading = loadStockPhotoFile(mandala, notFound as typeof fetch);
    const outcome = expect(loading).rejects.toThrow("404");
    await vi.advanceTimersByTimeAsync(STOCK_PHOTO_DELAY_MS);
    await outcome;
  });
});

describe("stock photos on the site", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("serves each one as image/jpeg that Chromium decodes at 400x300", async () => {
    const context = await browser.newContext({ baseURL: inject("baseUrl") });
    const page = await context.newPage();
    try {
      for (const photo of allPhotos) {
        const response = await page.goto(photo.url);
        expect(response?.status(), photo.url).toBe(200);
        expect(response?.headers()["content-type"], photo.url).toMatch(/^image\/jpeg/);
        expect(new Uint8Array(await response!.body())).toEqual(new Uint8Array(readFileSync(fileOf(photo))));
      }
      // Decoded by the browser from a page of the site, as the picker's thumbnails are.
      await page.goto("/");
      const sizes = await page.evaluate(
        (urls) =>
          Promise.all(
            urls.map(async (url) => {
              const image = new Image();
              image.src = url;
              await image.decode();
              return { url, width: image.naturalWidth, height: image.naturalHeight };
            }),
          ),
        allPhotos.map((photo) => photo.url),
      );
      expect(sizes).toEqual(allPhotos.map((photo) => ({ url: photo.url, width: 400, height: 300 })));
    } finally {
      await context.close();
    }
  });
});
