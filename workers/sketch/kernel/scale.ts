/** Sizes that follow the page, so the drawing looks the same at every resolution. */
import { PRINT_LONG_EDGE_PX } from "../../../app/lib/constants";
import { SKETCH_TUNING, type SketchTuning } from "./tuning";

/** Blur radius of the dodge, proportional to the image so the look does not depend on size. */
export function blurSigmaFor(width: number, height: number, tuning: SketchTuning = SKETCH_TUNING): number {
  const sigma = Math.max(width, height) / tuning.blurSigmaDivisor;
  return Math.min(tuning.maxBlurSigma, Math.max(tuning.minBlurSigma, sigma));
}

/**
 * Smoothing before the dodge and the Sobel operator: proportional to the page, more on a noisy
 * photo (noise = its standard deviation in grey levels per working pixel), times the detail
 * level's smoothingScale; under 1 px, none.
 */
export function edgeSigmaFor(width: number, height: number, noise = 0, tuning: SketchTuning = SKETCH_TUNING): number {
  const longEdge = Math.max(width, height);
  const base = Math.max(longEdge / tuning.edgeSigmaDivisor, noise * tuning.noiseSmoothing);
  // The level's scale applies before the caps: a noisy small photo is not smoothed into blobs.
  const sigma = Math.min(tuning.maxEdgeSigma, longEdge / MAX_EDGE_SIGMA_DIVISOR, tuning.smoothingScale * base);
  return sigma < 1 ? 0 : sigma;
}

/** The smoothing never exceeds long edge / this (about 5 mm on a page): beyond, shapes melt. */
const MAX_EDGE_SIGMA_DIVISOR = 250;

/** Speck size in pixels at this resolution: a square of speckSidePrintPx print pixels. */
export function speckPixelsFor(width: number, height: number, tuning: SketchTuning = SKETCH_TUNING): number {
  const side = (tuning.speckSidePrintPx * Math.max(width, height)) / PRINT_LONG_EDGE_PX;
  return Math.max(2, Math.round(side * side));
}


/** Line thickening radius in pixels at this resolution (at least 1 on any page with lines). */
export function lineRadiusFor(width: number, height: number, tuning: SketchTuning = SKETCH_TUNING): number {
  return Math.max(1, Math.round((tuning.lineRadiusPrintPx * Math.max(width, height)) / PRINT_LONG_EDGE_PX));
}

/**
 * Sobel on a half grid (every second pixel of every second row) differences pixels two working
 * pixels apart, not one, and reads less of a smoothed step's peak (about 15 % at σ 1.8), so faint
 * strokes fall under the thresholds. Both half-grid passes give 10 % of the gradient back:
 * - the coarse outlines of a small photo (outlines.ts): the test photos' ink and outline measure
 *   stay where the full-resolution detector had them (the whole 15-19 % added 1 % ink and lines
 *   across faces);
 * - the render pass on a half-size smoothed plane (render.ts): a 1600 px photo's page keeps
 *   114 169 ink pixels against the full-size pass's 115 235 (107 150 without the gain).
 */
export const HALF_GRID_SOBEL_GAIN = 1.1;
