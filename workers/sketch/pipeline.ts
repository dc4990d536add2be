/**
 * One conversion, original in R2 → sketch in R2: decode, kernel, quality, encode, store.
 * Shared by the queue consumer (book photos) and the Sketcher RPC (free preview).
 *
 * Memory is the tight budget (128 MB per isolate), so the stages are separate functions: the
 * file bytes and the decoded RGBA (4 bytes per pixel, the biggest buffers) are locals of
 * loadGray and become garbage as soon as the one-byte grey plane exists.
 */
import { sketchKeyFor, type ConvertOptions, type ConvertResult } from "./contract";
import { storeDebugPlanes } from "./debug";
import { decodeToGrayPlane } from "./decode";
import { encodeGrayPng, storeSketch, storedSketch } from "./encode";
import { PermanentSketchError } from "./errors";
import { DEFAULT_DETAIL_LEVEL, type DetailLevel } from "../../app/lib/constants";
import { grayToSketch, type GrayPlane } from "./kernel";
import { measureQuality } from "./quality";

/**
 * Converts the original at originalKey, or returns the sketch already stored for it: the sketch
 * key is derived from the original's key, so a repeat (a redelivered message, a double click)
 * costs one HEAD request and changes nothing.
 */
export async function convertOriginal(
  bucket: R2Bucket,
  originalKey: string,
  options: ConvertOptions = {},
): Promise<ConvertResult> {
  const sketchKey = sketchKeyFor(originalKey, options.detail);
  // A debug run always renders: the intermediate planes are not kept with the sketch.
  const existing = options.debug ? null : await storedSketch(bucket, sketchKey);
  if (existing) return { sketchKey, ...existing };

  let photo: LoadedPhoto | null = await loadGray(bucket, originalKey);
  const { sketch, qualityScore } = renderSketch(photo, options.detail ?? DEFAULT_DETAIL_LEVEL);
  const debug = options.debug ? await storeDebugPlanes(bucket, originalKey, photo.gray, sketch) : undefined;
  // The decoded plane (the biggest buffer left) must be garbage before the PNG is encoded.
  photo = null;
  const png = await encodeGrayPng(sketch);
  const result = { qualityScore, width: sketch.width, height: sketch.height };
  await storeSketch(bucket, sketchKey, png, result);
  return debug ? { sketchKey, ...result, debug } : { sketchKey, ...result };
}

interface LoadedPhoto {
  gray: GrayPlane;
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

/**
 * The upright grey plane, already reduced toward print size for large JPEGs; no RGBA survives
 * the decoder. `bytes` is the caller's last reference to the file, so it is garbage once the
 * kernel runs.
 */
export async function decodeToGray(bytes: Uint8Array): Promise<LoadedPhoto> {
  const { data, width, height, sourceWidth, sourceHeight } = await decodeToGrayPlane(bytes);
  return { gray: { data, width, height }, width: sourceWidth, height: sourceHeight };
}

/**
 * The kernel at a detail level and the score, from the decoded grey plane (any size; the kernel fits the page to
 * the print size). Sharpness is measured on the decoded plane, before any reduction.
 */
export function renderSketch(
  { gray, width, height }: LoadedPhoto,
  detail: DetailLevel = DEFAULT_DETAIL_LEVEL,
): { sketch: GrayPlane; qualityScore: number } {
  const { sketch } = grayToSketch(gray, { detail });
  const { score } = measureQuality({ sourceWidth: width, sourceHeight: height, source: gray, sketch });
  return { sketch, qualityScore: score };
}
