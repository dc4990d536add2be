/**
 * The look of the region pages, chosen on the contact sheet (`npm run bench`). Sizes are on the
 * printed page (mm, cm²) so a page looks the same whatever the photo's resolution.
 */
import type { DetailLevel } from "../../../../app/core/engine-limits";

export const REGION_TUNING = {
  /** The regions are found on the photo reduced to at most this long edge (about 0.25 mm a pixel in print). */
  analysisLongEdge: 1100,
  /** The grey is smoothed by this before Sobel, and by noise × noiseSmoothing more on a noisy photo. */
  smoothingMm: 0.35,
  noiseSmoothing: 0.15,
  /** Surround suppression: the mean edge strength within this is subtracted × surroundSuppression. */
  surroundSigmaMm: 2.5,
  surroundSuppression: 1,
  /**
   * An edge fainter than this (grey levels of a step) is one the eye barely sees: its saliency
   * fades with (magnitude / visibleStep)², so a border through mist or a blurred background loses
   * to the outlines around it. Not on a photo whose strongest edges (top 0.5 % of pixels) are
   * themselves this faint (mist, night): there the gate eases off, to nothing at visibleStep, or
   * it would leave nothing but the photo's few sharpest specks.
   */
  visibleStep: 12,
  /**
   * A photo is clear when its strongest edges reach this many visible steps: the faintness gate
   * is whole there, and its borders are judged by the levels' own saliencies. On a fainter photo
   * the gate eases off and every level's saliency is scaled by strongest / (this × visibleStep).
   */
  clearPhotoEdgeSteps: 2,
  /** Basins whose shared border's mean saliency is below this (grey levels) are one region from the start. */
  noBorderBelow: 0.5,
  /**
   * A border between two regions alike inside (region-features.ts) counts for this share of its
   * saliency, rising to whole at a χ² distance of insideWholeAt; trusted fully only once the
   * smaller region is well over insideTrustCm2 on the page.
   */
  insideFloor: 0.3,
  /** A step of one unit of Cb or Cr counts as this many grey levels in the edge strength (colour borders of equal lightness). */
  colourWeight: 2,
  insideWholeAt: 0.4,
  insideTrustCm2: 0.2,
  /** Borders are smoothed along their length by a Gaussian of this (on the page), then every few points kept. */
  arcSmoothingMm: 1.6,
  arcPointStep: 2,
} as const;

/**
 * Per level: the smallest region and the narrowest (2 × area / border length, on the printed
 * page), the weakest border kept (grey levels of a step), the line's width.
 */
export const LEVEL_REGIONS: Record<DetailLevel, { minAreaCm2: number; minWidthMm: number; maxSaliency: number; lineWidthMm: number }> = {
  detailed: { minAreaCm2: 0.1, minWidthMm: 1.2, maxSaliency: 5, lineWidthMm: 0.4 },
  standard: { minAreaCm2: 0.25, minWidthMm: 2, maxSaliency: 8, lineWidthMm: 0.5 },
  simple: { minAreaCm2: 1, minWidthMm: 2, maxSaliency: 8.5, lineWidthMm: 0.6 },
};
