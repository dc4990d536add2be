import { DEFAULT_DETAIL_LEVEL, type DetailLevel } from "../../../app/lib/constants";

/**
 * The look of the page. Chosen by eye on the contact sheet (`npm run bench`) and checked by the
 * quality score. These are the standard level; DETAIL_TUNING below says what the other levels
 * change.
 */
export const SKETCH_TUNING = {
  /** Blur sigma = long edge / this, so the drawing looks the same at every resolution. */
  blurSigmaDivisor: 200,
  minBlurSigma: 1.5,
  maxBlurSigma: 24,
  /** The grey is smoothed by sigma = long edge / this before the dodge and Sobel (≈ 0.25 mm). */
  edgeSigmaDivisor: 1100,
  maxEdgeSigma: 6,
  /** On a noisy photo the smoothing is at least noise (grey levels) × this. */
  noiseSmoothing: 0.15,
  /** Tone curve: these percentiles of the grey are stretched toward black and white... */
  toneLowPercentile: 0.01,
  toneHighPercentile: 0.99,
  /** ...by at most this gain, so a blank or nearly flat photo does not turn noise into lines. */
  maxToneGain: 3,
  /** A dark photo (median below mid-grey after the stretch) is lifted by a gamma down to this. */
  minToneGamma: 0.5,
  /** Scale-normalised Sobel magnitude (on 0-255 grey) below which an edge adds no ink... */
  edgeLow: 70,
  /** ...and above which it adds the full edgeDarkening. */
  edgeHigh: 220,
  edgeDarkening: 0.9,
  /** Added to both sides of the dodge ratio so that noise in deep shadows is not amplified. */
  dodgeOffset: 16,
  /** Levels applied to the dodge (255 = as light as the surroundings): this and darker is black... */
  levelsBlack: 120,
  /** ...and this and lighter is white paper. */
  levelsWhite: 236,
  /**
   * Binarise (hysteresis, like Canny's): a pixel darker than weakLevel may be ink; a mark of such
   * pixels is kept only if one of them is at least as dark as strongLevel...
   */
  weakLevel: 190,
  strongLevel: 90,
  /** ...it has at least a square of this side of pixels (print pixels at 300 dpi: 12² ≈ 1 mm²)... */
  speckSidePrintPx: 12,
  /** ...and it reaches at least this far (print pixels): shorter strokes are texture. */
  minStrokeExtentPrintPx: 60,
  /** Kept lines are thickened by this radius (print pixels) to a printable weight. */
  lineRadiusPrintPx: 1,
  /** The edge smoothing sigma is multiplied by this (more smoothing = fewer, calmer lines). */
  smoothingScale: 1.3,
  /**
   * Surround suppression (Grigorescu et al. 2003): the mean edge strength around a pixel, over a
   * Gaussian of this many edge sigmas, is subtracted × surroundSuppression from its own, so an
   * outline stands while a field of pebbles, grass or fur cancels itself out...
   */
  surroundSigmaFactor: 4,
  surroundSuppression: 0.7,
  /** ...and lightens the dodge by this × the surround (in grey levels), for the same reason. */
  dodgeSuppression: 0.45,
  /**
   * Coarse outlines (outlines.ts): Canny's detector on the grey smoothed by long edge / this
   * (≈ 1 mm on the page; 0 = off), drawing boundaries whose step is at least outlineHigh grey
   * levels, followed through parts of at least outlineLow.
   */
  outlineSigmaDivisor: 285,
  outlineHigh: 60,
  outlineLow: 25,
} as const;

export type SketchTuning = { readonly [Name in keyof typeof SKETCH_TUNING]: number };

/** What each detail level changes from the standard look (chosen on the contact sheet). */
export const DETAIL_TUNING: Record<DetailLevel, Partial<SketchTuning>> = {
  simple: {
    smoothingScale: 1.7,
    minStrokeExtentPrintPx: 120,
    speckSidePrintPx: 20,
    lineRadiusPrintPx: 2,
    surroundSuppression: 1,
    dodgeSuppression: 0.6,
    strongLevel: 80,
    outlineHigh: 80,
    outlineLow: 35,
  },
  standard: {},
  detailed: {
    smoothingScale: 1,
    minStrokeExtentPrintPx: 30,
    surroundSuppression: 0.45,
    dodgeSuppression: 0.3,
    weakLevel: 200,
    strongLevel: 110,
    outlineSigmaDivisor: 400,
    outlineHigh: 45,
    outlineLow: 20,
  },
};

/**
 * Made once per level and kept: a tuning object spread afresh per call gets a map that dies with
 * it at the next garbage collection, and every stage's optimised code that read it is thrown away
 * and compiled again on the next photo (tens of ms of CPU per small photo).
 */
const TUNING_BY_LEVEL = new Map<DetailLevel, SketchTuning>();

export function tuningFor(level: DetailLevel = DEFAULT_DETAIL_LEVEL): SketchTuning {
  let tuning = TUNING_BY_LEVEL.get(level);
  if (!tuning) {
    tuning = Object.freeze({ ...SKETCH_TUNING, ...DETAIL_TUNING[level] });
    TUNING_BY_LEVEL.set(level, tuning);
  }
  return tuning;
}
