/**
 * Fixtures the sketch tests build themselves: deterministic synthetic photos, encoded with the
 * same jSquash codecs the Worker decodes with, and book/image rows with originals in R2.
 */
import encodeJpeg, { init as initJpegEncoder } from "@jsquash/jpeg/encode";
import encodePng, { init as initPngEncoder } from "@jsquash/png/encode";
import encodeWebp, { init as initWebpEncoder } from "@jsquash/webp/encode";
import { env } from "cloudflare:test";
import jpegEncoderWasm from "../../node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
import webpEncoderWasm from "../../node_modules/@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import { database, schema } from "../../app/core/db/database.server";
import { pngCodecWasm } from "../../workers/sketch/decode/wasm-modules";

export interface Rgba {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** A small deterministic pseudo-random generator, so every run draws the same picture. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * A stand-in for a photo: a soft vertical gradient with hard-edged discs and rectangles of
 * random colours and a little texture, so it has contours to draw and is sharp.
 */
export function syntheticPhoto(width: number, height: number, seed = 7, shapes = 40): Rgba {
  const random = seededRandom(seed);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const shade = 200 - Math.round((40 * y) / height);
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      data[p] = shade;
      data[p + 1] = shade - 10;
      data[p + 2] = shade - 30;
      data[p + 3] = 255;
    }
  }
  const scale = Math.min(width, height);
  for (let k = 0; k < shapes; k++) {
    const cx = random() * width;
    const cy = random() * height;
    const radius = (0.03 + random() * 0.12) * scale;
    const colour = [random() * 255, random() * 255, random() * 255];
    const disc = random() < 0.5;
    for (let y = Math.max(0, Math.floor(cy - radius)); y < Math.min(height, cy + radius); y++) {
      for (let x = Math.max(0, Math.floor(cx - radius)); x < Math.min(width, cx + radius); x++) {
        if (disc && (x - cx) ** 2 + (y - cy) ** 2 > radius * radius) continue;
        const p = (y * width + x) * 4;
        const grain = (random() - 0.5) * 12;
        data[p] = colour[0] + grain;
        data[p + 1] = colour[1] + grain;
        data[p + 2] = colour[2] + grain;
      }
    }
  }
  return { width, height, data };
}

/** A 3x3 box blur of every channel (the "out of focus" copy of a photo). */
export function boxBlurRgba({ width, height, data }: Rgba, radius: number): Rgba {
  const out = new Uint8ClampedArray(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        let count = 0;
        for (let dy = -radius; dy <= radius; dy++) {
          const yy = Math.min(height - 1, Math.max(0, y + dy));
          for (let dx = -radius; dx <= radius; dx++) {
            const xx = Math.min(width - 1, Math.max(0, x + dx));
            sum += data[(yy * width + xx) * 4 + c];
            count++;
          }
        }
        out[(y * width + x) * 4 + c] = Math.round(sum / count);
      }
    }
  }
  return { width, height, data: out };
}

type InitFromModule = (module: WebAssembly.Module) => Promise<unknown>;
let encodersReady: Promise<unknown> | undefined;
function encoders() {
  encodersReady ??= Promise.all([
    (initJpegEncoder as unknown as InitFromModule)(jpegEncoderWasm),
    initPngEncoder(pngCodecWasm),
    (initWebpEncoder as unknown as InitFromModule)(webpEncoderWasm),
  ]);
  return encodersReady;
}
const asImageData = (image: Rgba) => ({ ...image, colorSpace: "srgb" }) as ImageData;

export async function toJpeg(image: Rgba): Promise<Uint8Array> {
  await encoders();
  return new Uint8Array(await encodeJpeg(asImageData(image), { quality: 85 }));
}
export async function toPng(image: Rgba): Promise<Uint8Array> {
  await encoders();
  return new Uint8Array(await encodePng(asImageData(image)));
}
export async function toWebp(image: Rgba): Promise<Uint8Array> {
  await encoders();
  return new Uint8Array(await encodeWebp(asImageData(image), { quality: 85 }));
}

/** A PNG signature and IHDR chunk claiming width x height, with no pixel data after it. */
export function pngHeaderOnly(width: number, height: number): Uint8Array {
  const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  return new Uint8Array([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ...u32(13), 0x49, 0x48, 0x44, 0x52, ...u32(width), ...u32(height), 8, 6, 0, 0, 0,
    ...u32(0), // CRC (not checked: we refuse before any decoder reads it)
  ]);
}

let uploads = 0;

/** A book with one image row whose original (the given bytes) is in R2. Returns the image id. */
export async function seedImage(bytes: Uint8Array, mimeType = "image/jpeg"): Promise<{ imageId: number; originalKey: string }> {
  const db = database(env.DB);
  const [book] = await db.insert(schema.books).values({ sessionId: "test-session", title: "Test book" }).returning();
  const originalKey = `originals/test-${Date.now().toString(36)}-${++uploads}`;
  await env.IMAGES.put(originalKey, bytes, { httpMetadata: { contentType: mimeType } });
  const [image] = await db
    .insert(schema.images)
    .values({
      bookId: book.id,
      originalFilename: `photo-${uploads}`,
      originalKey,
      fileSize: bytes.byteLength,
      mimeType,
    })
    .returning();
  return { imageId: image.id, originalKey };
}

export async function imageRow(imageId: number) {
  return database(env.DB).query.images.findFirst({ where: (images, { eq }) => eq(images.id, imageId) });
}
