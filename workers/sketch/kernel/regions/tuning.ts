/**
 * The look of the region pages, chosen on the contact sheet (`npm run bench`). Sizes are on the
 * printed page (mm, cm²) so a page looks the same whatever the photo's resolution.
 */
import type { DetailLevel } from "../../../../app/lib/constants";

export const REGION_TUNING = {
  /** The regions are found on the photo reduced to at most this long edge (about 0.25 mm a pixel in print). */
  analysisLongEdge: 1100,
  /** The grey is smoothed by this before Sobel, and by noise × noiseSmoothing more on a noisy photo. */
  smoothingMm: 0.35,
  noiseSmoothing: 0.15,
  /** Surround suppression: the mean edge strength within this is subtracted × surroundSuppression. */
  surroundSigmaMm: 2.5,
  surroundSuppression: 1,
  /** Borders are smoothed along their length by this many grid pixels, then every few points kept. */
  arcSmoothingPx: 2.2,
  arcPointStep: 2,
} as const;

/** Per level: the smallest region, the weakest border kept (grey levels of a step), the line's width. */
export const LEVEL_REGIONS: Record<DetailLevel, { minAreaCm2: number; maxSaliency: number; lineWidthMm: number }> = {
  detailed: { minAreaCm2: 0.1, maxSaliency: 5, lineWidthMm: 0.4 },
  standard: { minAreaCm2: 0.25, maxSaliency: 8, lineWidthMm: 0.5 },
  simple: { minAreaCm2: 1, maxSaliency: 14, lineWidthMm: 0.7 },
};
