/**
 * The quality score (0-100) shown on the preview page; "Select High Quality Only" keeps >= 90,
 * which means "print it as is". Measured from the pixels, never guessed (the formula and why:
 * docs/decisions/003-sketch-quality-score.md):
 *
 *   resolution    R = min(1, source long edge / PRINT_LONG_EDGE_PX)
 *   sharpness     S = min(1, var(Laplacian of the working grey) / SHARP_LAPLACIAN_VARIANCE)
 *   coverage      K = 1 inside [INK_BAND_LOW, INK_BAND_HIGH] of ink on the page, linear to 0 at
 *                 no ink and at INK_COVERAGE_MAX
 *   speckles      P = 1 / (1 + specks erased by the cleanup / SPECKLE_TOLERANCE)
 *   continuity    L = min(1, share of ink in long marks / LINE_SHARE_GOOD)
 *   colourability C = K × P × L
 *
 *   score = round(100 × R^0.2 × S^0.35 × C^0.45)
 */
import { PRINT_LONG_EDGE_PX } from "../../app/lib/constants";
import type { GrayPlane, PageStats } from "./kernel";

export const SHARP_LAPLACIAN_VARIANCE = 120;
export const INK_BAND_LOW = 0.015;
export const INK_BAND_HIGH = 0.25;
export const INK_COVERAGE_MAX = 0.6;
export const SPECKLE_TOLERANCE = 1500;
export const LINE_SHARE_GOOD = 0.75;
const WEIGHT_RESOLUTION = 0.2;
const WEIGHT_SHARPNESS = 0.35;
const WEIGHT_COLOURABILITY = 0.45;

export interface QualityReport {
  score: number;
  resolution: number;
  sharpness: number;
  laplacianVariance: number;
  inkCoverage: number;
  speckles: number;
  continuity: number;
  colourability: number;
}

export interface QualityInput {
  /** Size of the photo as decoded (before the kernel's downscale). */
  sourceWidth: number;
  sourceHeight: number;
  /** The grey photo at working resolution. */
  source: GrayPlane;
  /** The finished page and what its cleanup counted. */
  sketch: GrayPlane;
  stats: PageStats;
}

export function measureQuality({ sourceWidth, sourceHeight, source, sketch, stats }: QualityInput): QualityReport {
  const resolution = Math.min(1, Math.max(sourceWidth, sourceHeight) / PRINT_LONG_EDGE_PX);

  const laplacianVariance = varianceOfLaplacian(source);
  const sharpness = Math.min(1, laplacianVariance / SHARP_LAPLACIAN_VARIANCE);

  const pixels = sketch.width * sketch.height;
  const inkCoverage = pixels === 0 ? 0 : stats.inkPixels / pixels;
  const speckles = stats.specksRemoved;
  const continuity = stats.inkPixels === 0 ? 0 : stats.lineInkPixels / stats.inkPixels;
  const colourability =
    (coverageInBand(inkCoverage) * Math.min(1, continuity / LINE_SHARE_GOOD)) / (1 + speckles / SPECKLE_TOLERANCE);

  const combined =
    Math.pow(resolution, WEIGHT_RESOLUTION) *
    Math.pow(sharpness, WEIGHT_SHARPNESS) *
    Math.pow(colourability, WEIGHT_COLOURABILITY);
  const score = Math.max(0, Math.min(100, Math.round(100 * combined)));
  return { score, resolution, sharpness, laplacianVariance, inkCoverage, speckles, continuity, colourability };
}

/** Variance of the 4-neighbour Laplacian over the interior pixels (0 for images under 3x3). */
export function varianceOfLaplacian({ width, height, data }: GrayPlane): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumOfSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let i = row + 1, end = row + width - 1; i < end; i++) {
      const laplacian = 4 * data[i] - data[i - 1] - data[i + 1] - data[i - width] - data[i + width];
      sum += laplacian;
      sumOfSquares += laplacian * laplacian;
    }
  }
  const count = (width - 2) * (height - 2);
  const mean = sum / count;
  return sumOfSquares / count - mean * mean;
}

function coverageInBand(coverage: number): number {
  if (coverage < INK_BAND_LOW) return coverage / INK_BAND_LOW;
  if (coverage <= INK_BAND_HIGH) return 1;
  return Math.max(0, (INK_COVERAGE_MAX - coverage) / (INK_COVERAGE_MAX - INK_BAND_HIGH));
}
