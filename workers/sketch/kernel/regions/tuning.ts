/**
 * The look of the region pages, chosen on the contact sheet (`npm run bench`). Sizes are on the
 * printed page (mm, cm²) so a page looks the same whatever the photo's resolution.
 */
import type { DetailLevel } from "../../../../app/core/engine-limits";
import type { BorderModel } from "./region-features";

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
  /** A step of one unit of Cb or Cr counts as this many grey levels in the edge strength (colour borders of equal lightness). */
  colourWeight: 3.5,
  /**
   * A page is never blank: borders stop merging at this many regions (small ones still join their
   * neighbours), so a faint photo (mist, night), whose every border the model finds unlikely,
   * keeps its strongest one.
   */
  fewestRegions: 2,
  /** A region that stands out (LEVEL_REGIONS' standOutSaliency) is kept from this size on the page, at every level. */
  smallestStandingOutCm2: 0.03,
  /** Borders are smoothed along their length by a Gaussian of this (on the page), then every few points kept. */
  arcSmoothingMm: 1.6,
  arcPointStep: 2,
} as const;

/**
 * The border model's weights (region-features.ts): a logistic fit of whether people drew a
 * border, on BSDS500's train photos in colour and in grey, as the merge tree weighs their borders
 * under the model before it (for the grain levels, engine e11's). docs/decisions/031-likeness.md
 * says how; `npm run bench:bsds-fit -- BSDS500 --as-merged` refits them, and `npm run bench:bsds`
 * measures the pages on its val photos.
 */
export const BORDER_MODEL: BorderModel = {
  bias: -6.127,
  logSaliency: -0.568,
  logMagnitude: 2.039,
  lightness: -0.749,
  grain: 1.097,
  colour: 0.032,
  sqrtLightness: 0.935,
  sqrtGrain: 1.071,
  sqrtColour: 0.641,
  logSmallerArea: 0.274,
  logLength: -0.252,
  greyPhoto: 0.332,
  smootherGrain: -0.668,
  grainierGrain: -3.675,
  logBoundary: 0.611,
};

/**
 * Per level: the smallest region and the narrowest (2 × area / border length, on the printed
 * page), the weakest border kept and the border that keeps a small region standing out (the
 * border model's chance that people draw it), the line's width.
 */
export const LEVEL_REGIONS: Record<DetailLevel, { minAreaCm2: number; minWidthMm: number; weakestBorderKept: number; standOutBorder: number; lineWidthMm: number }> = {
  detailed: { minAreaCm2: 0.5, minWidthMm: 1.2, weakestBorderKept: 0.14, standOutBorder: 0.5, lineWidthMm: 0.4 },
  standard: { minAreaCm2: 1, minWidthMm: 2, weakestBorderKept: 0.22, standOutBorder: 0.55, lineWidthMm: 0.5 },
  simple: { minAreaCm2: 1.5, minWidthMm: 2, weakestBorderKept: 0.3, standOutBorder: 0.6, lineWidthMm: 0.6 },
};
