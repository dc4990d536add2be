/** Encodes the finished grey page as PNG and stores it in R2. */
import encodePng, { init as initPngEncoder } from "@jsquash/png/encode";
import type { GrayImage } from "./kernel";
import { pngCodecWasm } from "./wasm-modules";

let encoderReady: Promise<unknown> | undefined;

/**
 * jSquash's PNG encoder takes RGBA only, so the grey plane is expanded for now (4x the memory of
 * the page; a grey-PNG encoder is a later optimisation). Deterministic: the same page always
 * gives the same bytes, so a re-run overwrites the sketch with an identical object.
 */
export async function encodeGrayPng({ width, height, pixels }: GrayImage): Promise<ArrayBuffer> {
  encoderReady ??= initPngEncoder(pngCodecWasm);
  await encoderReady;
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, p = 0; i < pixels.length; i++, p += 4) {
    const value = pixels[i];
    rgba[p] = value;
    rgba[p + 1] = value;
    rgba[p + 2] = value;
    rgba[p + 3] = 255;
  }
  // The encoder only reads data, width and height; workerd has no ImageData constructor.
  const imageData = { data: rgba, width, height, colorSpace: "srgb" } as ImageData;
  return encodePng(imageData);
}

/** What a stored sketch remembers about itself, so a repeat request can skip the work. */
export interface SketchMetadata {
  qualityScore: number;
  width: number;
  height: number;
}

export async function storeSketch(
  bucket: R2Bucket,
  key: string,
  png: ArrayBuffer,
  metadata: SketchMetadata,
): Promise<void> {
  await bucket.put(key, png, {
    httpMetadata: { contentType: "image/png" },
    customMetadata: {
      qualityScore: String(metadata.qualityScore),
      width: String(metadata.width),
      height: String(metadata.height),
    },
  });
}

/** The metadata of an already stored sketch, or null when there is none (or it is incomplete). */
export async function storedSketch(bucket: R2Bucket, key: string): Promise<SketchMetadata | null> {
  const head = await bucket.head(key);
  if (!head?.customMetadata) return null;
  const qualityScore = Number(head.customMetadata.qualityScore);
  const width = Number(head.customMetadata.width);
  const height = Number(head.customMetadata.height);
  if (![qualityScore, width, height].every(Number.isFinite)) return null;
  return { qualityScore, width, height };
}
