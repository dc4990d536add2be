/**
 * One conversion, original in R2 → sketch in R2: decode, region hierarchy (kept in R2), the
 * level's page, quality, encode, store; or, when the photo's hierarchy is already stored (another
 * level was drawn before), the level's page cut from it. Shared by the queue consumer (book
 * photos) and the Sketcher RPC (free preview).
 *
 * Memory is the tight budget (128 MB per isolate), so the stages are separate functions: the
 * file bytes and the decoded RGBA (4 bytes per pixel, the biggest buffers) are locals of
 * loadGray and become garbage as soon as the one-byte grey plane exists.
 */
import { regionsKeyFor, sketchKeyFor, type ConvertOptions, type ConvertResult, type DebugPlaneKeys } from "../../app/core/contracts/sketch";
import { storeDebugPlanes } from "./debug";
import { decodeToGrayPlane } from "./decode";
import { encodeGrayPng, storeSketch, storedSketch } from "./encode";
import { PermanentSketchError } from "./errors";
import { DEFAULT_DETAIL_LEVEL, DETAIL_LEVELS, type DetailLevel } from "../../app/core/engine-limits";
import { drawLevel, grayToHierarchy, REGION_TUNING, type ChromaPlanes, type FaceBox, type GrayPlane, type RegionHierarchy } from "./kernel";
import { facesOnPage } from "./measure/faces";
import { measureQuality, varianceOfLaplacian } from "./measure/quality";
import { loadRegions, storeRegions, type PhotoSummary, type StoredRegions } from "./stored-regions";

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
  const detail = options.detail ?? DEFAULT_DETAIL_LEVEL;
  const sketchKey = sketchKeyFor(originalKey, detail);
  // A debug run always renders: the intermediate planes are not kept with the sketch.
  const existing = options.debug ? null : await storedSketch(bucket, sketchKey);
  if (existing) return { sketchKey, ...existing };

  // Another level of a photo already converted: a cut of its stored hierarchy, no decode.
  const regionsKey = regionsKeyFor(originalKey);
  let regions = options.debug ? null : await loadRegions(bucket, regionsKey);
  let debug: DebugPlaneKeys | undefined;
  if (!regions) {
    let photo: LoadedPhoto | null = await loadGray(bucket, originalKey);
    // Decode, regions and encode each hold the thread for up to a few hundred ms; between them the
    // isolate's other requests (free-preview calls, and under wrangler dev the whole shop) get a turn.
    await yieldToRuntime();
    regions = photoRegions(photo);
    await yieldToRuntime();
    if (options.debug) debug = await storeDebugPlanes(bucket, originalKey, photo.gray, drawLevel(regions.hierarchy, detail));
    // The decoded plane (the biggest buffer left) must be garbage before the page is drawn.
    photo = null;
    await storeRegions(bucket, regionsKey, regions);
  }
  const { sketch, qualityScore } = renderLevel(regions, detail);
  await yieldToRuntime();
  const png = await encodeGrayPng(sketch);
  const result = { qualityScore, width: sketch.width, height: sketch.height };
  await storeSketch(bucket, sketchKey, png, result);
  return debug ? { sketchKey, ...result, debug } : { sketchKey, ...result };
}

/**
 * Lets the runtime poll its sockets and timers before the next CPU-bound stage. Under `wrangler
 * dev` the app and this Worker share one workerd thread, and a conversion is a chain of
 * in-process steps (R2, D1, wasm) that keeps that thread's run queue busy; kj checks sockets and
 * timers only once the queue has drained. Requests sat unread in the app's socket for seconds,
 * and one that wrangler's proxy had written on a reused keep-alive connection was dropped unread
 * when kj's 5 s idle-connection timer fired in the same poll: the proxy answers that with 503
 * "Your worker restarted mid-request" (`npm run load`). A timer wait only ends after
 * such a poll, so no more than one stage runs between two polls. This narrows that window; it
 * does not close it (a busy machine still sees a few such 503s under wrangler dev).
 */
export function yieldToRuntime(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export interface LoadedPhoto {
  gray: GrayPlane;
  /** The photo's colour (Cb, Cr), coarser than the grey; absent for a grey photo, a GIF or a BMP. */
  chroma?: ChromaPlanes;
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
 * The upright grey plane, already reduced toward the analysis grid for large JPEGs, and its chroma
 * (about half the grey's resolution from a JPEG); no RGBA survives the decoder. `bytes` is the caller's last reference to the file, so it is garbage once the
 * kernel runs.
 */
export async function decodeToGray(bytes: Uint8Array): Promise<LoadedPhoto> {
  // Reduced in the DCT domain only down to the analysis grid: the regions are found there, and the
  // page is drawn at print size from their borders, not from the photo's pixels.
  const { data, width, height, chroma, sourceWidth, sourceHeight } = await decodeToGrayPlane(bytes, { minLongEdge: REGION_TUNING.analysisLongEdge });
  const gray = { data, width, height };
  return chroma ? { gray, chroma, width: sourceWidth, height: sourceHeight } : { gray, width: sourceWidth, height: sourceHeight };
}

/**
 * The photo's regions, what the score needs of it, and every level's score: the part of a
 * conversion that reads the photo. Scoring the three levels here (on half-size drawings, about
 * 50 ms each on a 12 MP photo) leaves a level change nothing but a cut, a drawing and a PNG.
 */
export function photoRegions({ gray, chroma, width, height }: LoadedPhoto): StoredRegions {
  const { hierarchy, grey, faces } = grayToHierarchy(gray, chroma);
  const photo = { sourceWidth: width, sourceHeight: height, laplacianVariance: varianceOfLaplacian(gray), grey };
  return { hierarchy, photo, scores: levelScores(hierarchy, photo, chroma, faces) };
}

/**
 * Each level's quality score, read from its drawing at SCORED_PAGE_SCALE; with the photo's chroma,
 * lines on colour borders count as on the photo's edges. The figures read the region lines without
 * the feature strokes: the score's closure and free ends are goals of the region lines, and the
 * strokes are open by design (decision 033). Where the engine found faces (`faces`, in the
 * analysis grid's pixels), the page with its strokes is drawn too, to see whether each face's
 * eyes and mouth are on it.
 */
export function levelScores(hierarchy: RegionHierarchy, photo: PhotoSummary, chroma?: ChromaPlanes, faces: readonly FaceBox[] = []): Record<DetailLevel, number> {
  const scores = {} as Record<DetailLevel, number>;
  for (const level of DETAIL_LEVELS) {
    const sketch = drawLevel(hierarchy, level, SCORED_PAGE_SCALE, { strokes: false });
    const withFaces = faces.length
      ? { boxes: facesOnPage(faces, sketch.width / hierarchy.gridWidth), featurePage: drawLevel(hierarchy, level, SCORED_PAGE_SCALE) }
      : undefined;
    scores[level] = measureQuality({ ...photo, chroma, sketch, faces: withFaces }).score;
  }
  return scores;
}

/** A level's page, drawn from the regions, with the score measured when they were found. */
export function renderLevel({ hierarchy, scores }: StoredRegions, detail: DetailLevel = DEFAULT_DETAIL_LEVEL): { sketch: GrayPlane; qualityScore: number } {
  return { sketch: drawLevel(hierarchy, detail), qualityScore: scores[detail] };
}

/**
 * The score's drawing is half the print size: the page measures read a print-size page reduced by
 * 2 anyway (measure/lines/work-plane.ts; the outline cells are in print pixels), and a quarter of the pixels
 * to draw and count keeps the scoring of all three levels cheap.
 */
export const SCORED_PAGE_SCALE = 0.5;

/** The whole conversion in memory (tests, bench): the decoded photo to a level's page and its score. */
export function renderSketch(photo: LoadedPhoto, detail: DetailLevel = DEFAULT_DETAIL_LEVEL): { sketch: GrayPlane; qualityScore: number } {
  return renderLevel(photoRegions(photo), detail);
}
