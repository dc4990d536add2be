/**
 * The sketch kernel: a grey photo (and its chroma, where the decoder gives it) in, a colouring page
 * of closed shapes out. One file per stage in this folder, the region stage in regions/; this one
 * reads as the recipe (choices: docs/decisions/016-region-pages.md, 031-likeness.md, 033-feature-strokes.md,
 * 034-faces.md, 035-boundary-model.md):
 *
 *   decoded grey plane → tone curve (stretch a dull or dark photo to the full range)  tone.ts
 *   → noise estimate, which sets how much the grey is smoothed                       noise.ts
 *   → faces: where the analysis grid has a frontal face, its oval                      faces/
 *   → region hierarchy: on the analysis grid, the Sobel edge maps of grey and colour,  regions/
 *     their watershed basins and the merge tree (borders judged by both of their
 *     sides and by the boundary model, a per-pixel judge of where people draw     boundary/
 *     lines, trusted only where the border is in focus; inside a face less
 *     likely: its shading is no shape to colour) whose three cuts are the detail
 *     levels, the finest level's borders as smoothed arcs
 *   → feature strokes: the thin dark lines and spots (eyes, mouths, whiskers) as       strokes/
 *     open strokes, each with the depth that decides which levels draw it (a face's
 *     count more)
 *   → the level's cut drawn at print size (300 dpi on the page's long edge), its      regions/draw.ts
 *     strokes over it, clear of its lines
 *
 * Pure TypeScript over typed arrays (no Worker APIs), so it runs the same in workerd, in the Node
 * benchmark (bench/run.mjs) and in unit tests. The hierarchy is built once per photo and kept
 * (workers/sketch/stored-regions.ts): another level is another cut of it, drawn by drawLevel.
 */
import { DEFAULT_DETAIL_LEVEL, type DetailLevel } from "../../../app/core/engine-limits";
import { estimateNoise } from "./noise";
import { rgbaToChroma, rgbaToGray, type ChromaPlanes, type GrayPlane } from "./plane";
import type { FaceBox } from "./faces";
import { buildHierarchy, drawLevel, type RegionHierarchy } from "./regions";
import { stageDone } from "./stage-clock";
import { histogramOf, toneCurve } from "./tone";

export { extentOf, findMarks, type Marks } from "./components";
export type { FaceBox } from "./faces";
export { estimateNoise } from "./noise";
export { rgbaToChroma, rgbaToGray, type ChromaPlanes, type GrayPlane } from "./plane";
export { buildHierarchy, drawLevel, printPageSize, regionCountAt, regionsAt, type RegionHierarchy } from "./regions";
export { deserialiseHierarchy, serialiseHierarchy } from "./regions/serialise";
export { REGION_TUNING } from "./regions/tuning";
export { areaResize, downscaleToFit, fitWithin } from "./resize";
export { onKernelStage } from "./stage-clock";
export { histogramOf, toneCurve } from "./tone";

export interface KernelResult {
  /** The page at print size: the photo's aspect, long edge PRINT_LONG_EDGE_PX; only 0 and 255. */
  sketch: GrayPlane;
  /** Every level's regions: keep it to draw another level without the photo. */
  hierarchy: RegionHierarchy;
  /** The toned grey on the analysis grid the regions were found on (what the score compares the page with). */
  grey: GrayPlane;
  noise: number;
}

/** The photo's region hierarchy, the toned grey it was found on, and the faces found on it (in the grey's pixels). */
export function grayToHierarchy(gray: GrayPlane, chroma?: ChromaPlanes): { hierarchy: RegionHierarchy; grey: GrayPlane; noise: number; faces: FaceBox[] } {
  const curve = toneCurve(histogramOf(gray));
  stageDone("tone");
  const noise = estimateNoise(gray);
  stageDone("noise");
  const { hierarchy, grey, faces } = buildHierarchy(gray, curve, noise, chroma);
  stageDone("regions");
  return { hierarchy, grey, noise, faces };
}

/** The kernel's entry point: a decoded grey plane of any size in, the page at print size out. */
export function grayToSketch(gray: GrayPlane, options: { detail?: DetailLevel; chroma?: ChromaPlanes } = {}): KernelResult {
  const { hierarchy, grey, noise } = grayToHierarchy(gray, options.chroma);
  const sketch = drawLevel(hierarchy, options.detail ?? DEFAULT_DETAIL_LEVEL);
  stageDone("draw");
  return { sketch, hierarchy, grey, noise };
}

/** The kernel for callers that still hold RGBA (tests, older decoders). */
export function photoToSketch(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, options: { detail?: DetailLevel } = {}): KernelResult {
  return grayToSketch(rgbaToGray(rgba, width, height), { ...options, chroma: rgbaToChroma(rgba, width, height) });
}
