/**
 * The look of the feature strokes (docs/decisions/033-feature-strokes.md), chosen on the face
 * crops of the contact sheet (`npm run bench`). Sizes are on the printed page, depths in grey
 * levels of the toned photo.
 */
import type { DetailLevel } from "../../../../app/core/engine-limits";

export const STROKE_TUNING = {
  /**
   * Dark lines and spots up to this wide on the page are features (an eyelid, a pupil, a mouth's
   * line, a nostril, a whisker): the grey's closing by a square this wide fills them, and not a
   * dark coat or a shadow, whose inside it leaves as it is.
   */
  widestLineMm: 1.8,
  /**
   * Texture is no feature: the mean depth around a pixel (a Gaussian of this) is subtracted ×
   * surroundSuppression, so ground covered by dark lines (a dense lawn, gravel, a crowd) cancels
   * out and a lone line on smooth ground stands. Sparse strands (a dog's fur a few millimetres
   * apart) stand as an eyelid does: nothing in the grey tells them apart (decision 033), so a
   * face found by kernel/faces/ has its own, weaker suppression (FACE_TUNING) and this one can
   * be strong enough to keep fur and suits clean (decision 034).
   */
  surroundSigmaMm: 6,
  surroundSuppression: 2,
  /** Strokes are traced where the depth reaches this share of the finest level's weakest stroke... */
  traceShare: 0.6,
  /** ...and each is judged by the depth this share of its pixels stay under (0.5: the median). */
  judgedAtShare: 0.75,
  /** A twig shorter than this from a line to a free end is no stroke (thinning leaves them where a line thickens). */
  spurMm: 2,
  /** Strokes are smoothed along their length by a Gaussian of this (on the page), then every few points kept. */
  smoothingMm: 0.6,
  pointStep: 2,
  /** A stroke stops this short of a region line drawn at its level, so it never doubles one. */
  clearanceMm: 0.6,
} as const;

/**
 * Per level: the weakest stroke drawn (its mean depth, grey levels; on a faint photo scaled with
 * its contrast, as the borders are), and the shortest (on the page). A stroke twice as deep as the
 * weakest is drawn however short: a pupil, a nostril, the dot of a far eye.
 */
export const LEVEL_STROKES: Record<DetailLevel, { weakestDepth: number; shortestMm: number }> = {
  detailed: { weakestDepth: 20, shortestMm: 1.5 },
  standard: { weakestDepth: 25, shortestMm: 2.5 },
  simple: { weakestDepth: 30, shortestMm: 3.5 },
};
