/**
 * One conversion, original in R2 → sketch in R2: decode, kernel, quality, encode, store.
 * Shared by the queue consumer (book photos) and the Sketcher RPC (free preview).
 *
 * Memory is the tight budget (128 MB per isolate), so the stages are separate functions: the
 * file bytes and the decoded RGBA (4 bytes per pixel, the biggest buffers) are locals of
 * loadGray and become garbage as soon as the one-byte grey plane exists.
 */
import { sketchKeyFor, type ConvertResult } from "./contract";
import { decodeImage } from "./decode";
import { encodeGrayPng, storeSketch, storedSketch } from "./encode";
import { PermanentSketchError } from "./errors";
import { downscaleToFit, rgbaToGray, sketchFromGray, type GrayImage } from "./kernel";
import { measureQuality } from "./quality";

/**
 * Converts the original at originalKey, or returns the sketch already stored for it: the sketch
 * key is derived from the original's key, so a repeat (a redelivered message, a double click)
 * costs one HEAD request and changes nothing.
 */
export async function convertOriginal(bucket: R2Bucket, originalKey: string): Promise<ConvertResult> {
  const sketchKey = sketchKeyFor(originalKey);
  const existing = await storedSketch(bucket, sketchKey);
  if (existing) return { sketchKey, ...existing };

  const { sketch, qualityScore } = renderSketch(await loadGray(bucket, originalKey));
  const png = await encodeGrayPng(sketch);
  const result = { qualityScore, width: sketch.width, height: sketch.height };
  await storeSketch(bucket, sketchKey, png, result);
  return { sketchKey, ...result };
}

interface LoadedPhoto {
  gray: GrayImage;
  /** Size as uploaded, for the resolution part of the quality score. */
  width: number;
  height: number;
}

async function loadGray(bucket: R2Bucket, originalKey: string): Promise<LoadedPhoto> {
  const original = await bucket.get(originalKey);
  if (!original) {
    throw new PermanentSketchError("The uploaded photo is missing from storage; please upload it again.");
  }
  return decodeToGray(new Uint8Array(await original.arrayBuffer()));
}

export async function decodeToGray(bytes: Uint8Array): Promise<LoadedPhoto> {
  const { rgba, width, height } = await decodeImage(bytes);
  return { gray: rgbaToGray(rgba, width, height), width, height };
}

/** The kernel and the score, from the full-size grey photo. */
export function renderSketch({ gray, width, height }: LoadedPhoto): { sketch: GrayImage; qualityScore: number } {
  const source = downscaleToFit(gray);
  const sketch = sketchFromGray(source);
  const { score } = measureQuality({ sourceWidth: width, sourceHeight: height, source, sketch });
  return { sketch, qualityScore: score };
}
