/**
 * The quality score (0-100) shown on the preview page; "Select High Quality Only" keeps >= 90,
 * which means "print it as is". Built on the colourability measure of the finished page
 * (measure.ts; the formula and why: docs/decisions/010-colourability-measure.md, which
 * replaces 003's colourability part):
 *
 *   resolution    R = min(1, source long edge / PRINT_LONG_EDGE_PX)
 *   sharpness     S = min(1, var(Laplacian of the decoded grey) / SHARP_LAPLACIAN_VARIANCE)
 *   grey          G = max(0, 1 - grey share / GREY_SHARE_MAX)
 *   specks        P = 1 up to SPECKS_GOOD per MP, linear to 0 at SPECKS_MAX per MP
 *   outlines      O = min(1, outline survival / OUTLINE_GOOD)
 *   continuity    L = 0 up to LINE_SHARE_POOR of the ink in long marks, linear to 1 at LINE_SHARE_GOOD
 *   coverage      K = 1 inside [INK_BAND_LOW, INK_BAND_HIGH] of ink, linear to 0 at no ink and
 *                 at INK_COVERAGE_MAX
 *   colourability C = G × P × O × L × K
 *
 *   score = round(100 × R^0.2 × S^0.3 × C^0.5)
 */
import { PRINT_LONG_EDGE_PX } from "../../app/lib/constants";
import type { GrayPlane } from "./kernel";
import { measureColourability, type Colourability } from "./measure";

export const SHARP_LAPLACIAN_VARIANCE = 120;
export const GREY_SHARE_MAX = 0.05;
export const SPECKS_GOOD = 50;
export const SPECKS_MAX = 400;
export const OUTLINE_GOOD = 0.45;
export const LINE_SHARE_POOR = 0.5;
export const LINE_SHARE_GOOD = 0.95;
/**
 * Region pages (issue 22) draw 0.4-0.7 mm lines round closed regions: a clean page of a few dozen
 * regions carries 2-3 % ink (the strokes of the engine before carried 4 % and more for the same
 * photo), so the band starts at 2 %; under it a page is mostly blank paper.
 */
export const INK_BAND_LOW = 0.02;
export const INK_BAND_HIGH = 0.2;
export const INK_COVERAGE_MAX = 0.5;
const WEIGHT_RESOLUTION = 0.2;
const WEIGHT_SHARPNESS = 0.3;
const WEIGHT_COLOURABILITY = 0.5;

export interface QualityReport extends Colourability {
  score: number;
  resolution: number;
  sharpness: number;
  laplacianVariance: number;
  colourability: number;
}

export interface QualityInput {
  /** Size of the photo as decoded (before the kernel's downscale). */
  sourceWidth: number;
  sourceHeight: number;
  /** Variance of the Laplacian of the grey photo as decoded (varianceOfLaplacian). */
  laplacianVariance: number;
  /** The photo's toned grey on the analysis grid: where the page's lines are compared with its edges. */
  grey: GrayPlane;
  /** The finished page. */
  sketch: GrayPlane;
}

export function measureQuality({ sourceWidth, sourceHeight, laplacianVariance, grey, sketch }: QualityInput): QualityReport {
  const resolution = Math.min(1, Math.max(sourceWidth, sourceHeight) / PRINT_LONG_EDGE_PX);
  const sharpness = Math.min(1, laplacianVariance / SHARP_LAPLACIAN_VARIANCE);
  const measure = measureColourability(grey, sketch);
  const colourability =
    Math.max(0, 1 - measure.greyShare / GREY_SHARE_MAX) *
    clamp01((SPECKS_MAX - measure.specksPerMegapixel) / (SPECKS_MAX - SPECKS_GOOD)) *
    Math.min(1, measure.outlineSurvival / OUTLINE_GOOD) *
    clamp01((measure.continuity - LINE_SHARE_POOR) / (LINE_SHARE_GOOD - LINE_SHARE_POOR)) *
    coverageInBand(measure.inkShare);
  const combined =
    Math.pow(resolution, WEIGHT_RESOLUTION) *
    Math.pow(sharpness, WEIGHT_SHARPNESS) *
    Math.pow(colourability, WEIGHT_COLOURABILITY);
  const score = Math.max(0, Math.min(100, Math.round(100 * combined)));
  return { score, resolution, sharpness, laplacianVariance, colourability, ...measure };
}

/**
 * Variance of the 4-neighbour Laplacian over the interior pixels of every second row (0 for
 * images under 3x3): half the rows of even a small photo are over 100k samples of a variance,
 * which moves by under 1 % (the sharpness part of the score by under 0.3 %).
 * Summed in Int32 over stretches of a row short enough not to overflow (|Laplacian| <= 1020, so
 * 2048 squares < 2^31), then into doubles: the same exact integer totals, without a chain of
 * floating-point additions per pixel.
 */
export function varianceOfLaplacian({ width, height, data }: GrayPlane): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumOfSquares = 0;
  let rows = 0;
  for (let y = 1; y < height - 1; y += 2) {
    const row = y * width;
    for (let start = row + 1, end = row + width - 1; start < end; start += LAPLACIAN_STRETCH) {
      laplacianStretch(data, start, Math.min(end, start + LAPLACIAN_STRETCH), width);
      sum += stretchTotals[0];
      sumOfSquares += stretchTotals[1];
    }
    rows++;
  }
  const count = (width - 2) * rows;
  const mean = sum / count;
  return sumOfSquares / count - mean * mean;
}

/** Pixels summed in Int32 at a time: 2048 × 1020² < 2^31. */
const LAPLACIAN_STRETCH = 2048;
const stretchTotals = new Float64Array(2);

/**
 * Sum and sum of squares of the Laplacian over pixels [start, stop) of one row, into stretchTotals.
 * A function of its own (called per row, so compiled once), not a loop in a function called once
 * per photo (compiled again on the spot for every photo).
 */
function laplacianStretch(data: Uint8Array, start: number, stop: number, width: number): void {
  let sum = 0;
  let squares = 0;
  // The pixel and its left neighbour are carried along: three reads per pixel, not five.
  let left = data[start - 1];
  let here = data[start];
  for (let i = start; i < stop; i++) {
    const right = data[i + 1];
    const laplacian = 4 * here - left - right - data[i - width] - data[i + width];
    sum += laplacian;
    squares += laplacian * laplacian;
    left = here;
    here = right;
  }
  stretchTotals[0] = sum;
  stretchTotals[1] = squares;
}

function clamp01(value: number): number {
  return Math.max(0, Math.min(1, value));
}

export function coverageInBand(coverage: number): number {
  if (coverage < INK_BAND_LOW) return coverage / INK_BAND_LOW;
  if (coverage <= INK_BAND_HIGH) return 1;
  return Math.max(0, (INK_COVERAGE_MAX - coverage) / (INK_COVERAGE_MAX - INK_BAND_HIGH));
}
