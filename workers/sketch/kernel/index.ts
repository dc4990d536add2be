/**
 * The sketch kernel: a grey photo in, a black-and-white colouring page out. One file per stage
 * in this folder; this one reads as the recipe (choices: docs/decisions/004-sketch-kernel.md and
 * 010-colourability-measure.md):
 *
 *   grey plane → area downscale toward the print size (long edge ≤ 3300 px)      resize.ts
 *   → tone curve (stretch a dull or dark photo to the full range)                tone.ts
 *   → noise estimate, which sets how much the grey is smoothed                   noise.ts, scale.ts
 *   → the smoothed grey and its wide Gaussian blur, on reduced planes            blur.ts
 *   → coarse outlines: Canny at about 1 mm of the page (trunks, crowns, soft     outlines.ts
 *     boundaries that the fine edges lose in texture)
 *   → surround plane: the mean edge strength around each pixel (texture)          surround.ts
 *   → fused pass: colour dodge of the smoothed grey over its blur, darkened by     render.ts
 *     the Sobel edge magnitude minus the surround, levels (on the smoothed plane's grid,
 *     then upsampled); the coarse outlines drawn in
 *   → binarise: hysteresis, strokes judged by size and reach                     binarise.ts
 *   → lines thickened to a printable weight                                      thicken.ts
 *
 * Pure TypeScript over typed arrays (no Worker APIs), so it runs the same in workerd, in the Node
 * benchmark (bench/run.mjs) and in unit tests. The detail level (simple, standard, detailed)
 * picks the tuning (tuning.ts).
 */
import { DEFAULT_DETAIL_LEVEL, PRINT_LONG_EDGE_PX, type DetailLevel } from "../../../app/lib/constants";
import { binarise, type PageStats } from "./binarise";
import { baseReductionFor, blockMeans, dodgeReductionFor, gaussianInPlace, reducedSigma, smallGaussianInPlace } from "./blur";
import { estimateNoise } from "./noise";
import { rgbaToGray, type FixedPlane, type GrayPlane } from "./plane";
import { coarseOutlines, drawOutlines } from "./outlines";
import { renderPage } from "./render";
import { areaResize, fitWithin } from "./resize";
import { blurSigmaFor, edgeSigmaFor, lineRadiusFor } from "./scale";
import { surroundPlane } from "./surround";
import { thickenLines } from "./thicken";
import { histogramOf, tonedFixed, toneCurve } from "./tone";
import { tuningFor, type SketchTuning } from "./tuning";

export { binarise, type PageStats } from "./binarise";
export { boxWidthsForGaussian, reductionFor } from "./blur";
export { extentOf, findMarks, type Marks } from "./components";
export { estimateNoise } from "./noise";
export { rgbaToGray, type GrayPlane } from "./plane";
export { areaResize, downscaleToFit, fitWithin } from "./resize";
export { blurSigmaFor, edgeSigmaFor, lineRadiusFor, speckPixelsFor } from "./scale";
export { thickenLines } from "./thicken";
export { histogramOf, toneCurve } from "./tone";
export { DETAIL_TUNING, SKETCH_TUNING, tuningFor, type SketchTuning } from "./tuning";

export interface KernelResult {
  /** The finished page: the photo's aspect, long edge at most maxLongEdge; only 0 and 255. */
  sketch: GrayPlane;
  stats: PageStats;
  /** Blur and smoothing sigmas used, in working pixels, and the noise estimate. */
  blurSigma: number;
  edgeSigma: number;
  noise: number;
}

export interface KernelOptions {
  detail?: DetailLevel;
  maxLongEdge?: number;
  /** Overrides the level's tuning (tests, experiments). */
  tuning?: SketchTuning;
}

/** The kernel for callers that still hold RGBA (tests, older decoders). */
export function photoToSketch(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  options: KernelOptions = {},
): KernelResult {
  return grayToSketch(rgbaToGray(rgba, width, height), options);
}

let stageClock: ((stage: string) => void) | null = null;

/** For the benchmark (bench/kernel-only.mjs): called after each kernel stage with its name. */
export function onKernelStage(clock: ((stage: string) => void) | null): void {
  stageClock = clock;
}

/**
 * The kernel's entry point: a decoded grey plane of any size in, the page at print size out.
 *
 * The grey page of the fused pass at working resolution W x H (the photo fitted to maxLongEdge)
 * is a function of three low-frequency planes only: the grey smoothed by edgeSigma, the grey
 * blurred by blurSigma and the surround. They are computed at reduced resolution straight from
 * the decoded plane (one area-average pass), then upsampled a row at a time inside the pass; when
 * even the smoothed plane is at half size, the pass runs at that size and its page is upsampled.
 *
 * Colour dodge is grey * 255 / (255 - blur(255 - grey)); since the blur kernel sums to one,
 * 255 - blur(255 - grey) = blur(grey), so the grey itself is blurred and no inverted plane is
 * made. The grey on top of the ratio is the smoothed one (the plane Sobel reads: finer detail
 * at print size is sensor noise), and dodgeOffset steadies the ratio in deep shadows.
 */
export function grayToSketch(gray: GrayPlane, options: KernelOptions = {}): KernelResult {
  const tuning = options.tuning ?? tuningFor(options.detail ?? DEFAULT_DETAIL_LEVEL);
  const { width, height } = fitWithin(gray.width, gray.height, options.maxLongEdge ?? PRINT_LONG_EDGE_PX);
  const curve = toneCurve(histogramOf(gray), tuning);
  stageClock?.("tone");
  // Noise per working pixel: averaging n x n source pixels divides it by n.
  const noise = (estimateNoise(gray) * height) / gray.height;
  stageClock?.("noise");
  const edgeSigma = edgeSigmaFor(width, height, noise, tuning);
  const blurSigma = blurSigmaFor(width, height, tuning);

  // The base plane: the toned grey at the smoothed plane's reduction (1 or 2).
  const baseFactor = baseReductionFor(edgeSigma);
  const baseWidth = Math.ceil(width / baseFactor);
  const baseHeight = Math.ceil(height / baseFactor);
  const reduced = areaResize(gray, baseWidth, baseHeight);
  stageClock?.("area");
  // The scale is the whole reduction, not width / baseWidth: an odd working width (every portrait
  // photo fitted to 2475 x 3300) made it 1.9992, every later reduction (reductionFor / scale) a
  // fraction, and the surround and outline loops read fractional indices: 7 s and a wrong page for
  // a 12 MP portrait. The area resize puts the last half-covered column's content in the last
  // base pixel, so 2 is off by at most half a working pixel at the far edge.
  const base: FixedPlane = { data: tonedFixed(reduced.data, curve), width: baseWidth, height: baseHeight, scale: baseFactor };
  stageClock?.("toned");

  const blurFactor = Math.max(1, dodgeReductionFor(blurSigma) / baseFactor);
  const blurred = blockMeans(base, blurFactor);
  stageClock?.("blocks");
  smallGaussianInPlace(blurred, reducedSigma(blurSigma, blurred.scale));
  stageClock?.("blur");
  const smoothed = base; // blurred last, in place: blockMeans read it unsmoothed
  // At full size a sigma below 1 is left out, as the small photos' pages were tuned with it; on
  // the half-size plane the small rest after the block mean is made too.
  if (baseFactor === 2) smallGaussianInPlace(smoothed, reducedSigma(edgeSigma, smoothed.scale));
  else gaussianInPlace(smoothed, edgeSigma);
  stageClock?.("smooth");
  const outlines = coarseOutlines(smoothed, edgeSigma, tuning);
  stageClock?.("outlines");
  const surround = surroundPlane(smoothed, edgeSigma, Math.max(2, edgeSigma) * tuning.surroundSigmaFactor);
  stageClock?.("surround");

  const page = new Uint8Array(width * height);
  renderPage(page, width, height, smoothed, blurred, surround, edgeSigma, tuning);
  drawOutlines({ data: page, width, height }, outlines);
  stageClock?.("render");
  const sketch = { data: page, width, height };
  const stats = binarise(sketch, tuning);
  stageClock?.("binarise");
  thickenLines(sketch, lineRadiusFor(width, height, tuning));
  stageClock?.("thicken");
  return { sketch, stats, blurSigma, edgeSigma, noise };
}
