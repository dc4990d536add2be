/**
 * One conversion, original in R2 → sketch in R2: decode, kernel, quality, encode, store.
 * Shared by the queue consumer (book photos) and the Sketcher RPC (free preview).
 */
import { sketchKeyFor, type ConvertResult } from "./contract";
import { decodeImage } from "./decode";
import { encodeGrayPng, storeSketch, storedSketch } from "./encode";
import { PermanentSketchError } from "./errors";
import { photoToSketch, type GrayImage } from "./kernel";
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

  const original = await bucket.get(originalKey);
  if (!original) {
    throw new PermanentSketchError("The uploaded photo is missing from storage; please upload it again.");
  }
  const { sketch, qualityScore } = await renderSketch(new Uint8Array(await original.arrayBuffer()));
  const png = await encodeGrayPng(sketch);
  const result = { qualityScore, width: sketch.width, height: sketch.height };
  await storeSketch(bucket, sketchKey, png, result);
  return { sketchKey, ...result };
}

/**
 * Bytes of a photo to the grey page and its score. A function of its own so the decoded RGBA
 * (the biggest buffer of the pipeline) is unreachable before the PNG encoder allocates.
 */
export async function renderSketch(bytes: Uint8Array): Promise<{ sketch: GrayImage; qualityScore: number }> {
  const decoded = await decodeImage(bytes);
  const { source, sketch } = photoToSketch(decoded.rgba, decoded.width, decoded.height);
  const { score } = measureQuality({ sourceWidth: decoded.width, sourceHeight: decoded.height, source, sketch });
  return { sketch, qualityScore: score };
}
