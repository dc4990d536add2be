/**
 * The quality score (0-100) shown on the preview page; "Select High Quality Only" keeps >= 90,
 * which means "print it as is". Built on how colourable the finished page is, read as lines and
 * regions (lines.ts) and as pixels (pixels.ts); the formula, and its check against a
 * ranking of pages by eye: docs/decisions/017-region-page-score.md.
 *
 *   resolution   R = min(1, photo long edge / the analysis grid's), to the power 0.2
 *   closure      B = 0 at LINES_BOUND_POOR of the line bounding regions, 1 at LINES_BOUND_GOOD
 *   free ends    F = 1 up to FREE_ENDS_GOOD per metre of line, 0 at FREE_ENDS_MAX
 *   clean        G × P: G = max(0, 1 - grey share / GREY_SHARE_MAX); P = 1 up to SPECKS_GOOD per MP, 0 at SPECKS_MAX
 *   amount       A = 0 at LINE_METRES_EMPTY of line on the page, 1 from LINE_METRES_LOW to
 *                LINE_METRES_HIGH, down to BUSY_FLOOR at LINE_METRES_BUSY (a puzzle, not a picture)
 *   clarity      C = CLARITY_FLOOR + (1 - CLARITY_FLOOR) × min(1, clear share / CLEAR_SHARE_GOOD):
 *                the lines part regions that look different, not patches of one texture
 *   on edges     E = (0 at EDGE_PRECISION_POOR of the line on the photo's edges, 1 at EDGE_PRECISION_GOOD)^0.5
 *   ink          K = 1 up to INK_CEILING of the page, 0 at INK_MAX (a black page is no page)
 *   filled       S = 1 up to BACKGROUND_FULL of the page in background (white regions over 15 %
 *                of it), down to 1 - EMPTY_PAGE_PENALTY at BACKGROUND_EMPTY: a few shapes
 *                floating on an empty page (a flower's fragments, a misty lake) leave a child
 *                little to colour, however clean they are
 *   faces        L = 1 - FACELESS_PENALTY × the share of the faces' eyes and mouths the page does
 *                not show (faces.ts; 1 when the photo has no face the engine found)
 *   likeness     H = min(1, edge recall / EDGE_RECALL_GOOD): the share of the photo's strongest
 *                edges the page draws (likeness.ts): a clean page that lost its subject is no likeness
 *
 *   score = round(100 × R × B × F × G × P × A × C × E × K × S × L × H)
 */
import { REGION_TUNING, type ChromaPlanes, type GrayPlane } from "../kernel";
import type { FaceBox } from "../kernel/faces";
import { faceFeatureShare } from "./faces";
import { edgeRecall } from "./likeness";
import { pageFigures, type PageFigures } from "./lines";
import { measureInk, type InkFigures } from "./pixels";

export const RESOLUTION_WEIGHT = 0.2;
export const LINES_BOUND_POOR = 0.8;
export const LINES_BOUND_GOOD = 0.95;
export const FREE_ENDS_GOOD = 10;
export const FREE_ENDS_MAX = 60;
export const GREY_SHARE_MAX = 0.05;
export const SPECKS_GOOD = 50;
export const SPECKS_MAX = 400;
/** Metres of line on the printed page (11 in on the long edge). */
export const LINE_METRES_EMPTY = 0.3;
export const LINE_METRES_LOW = 1.8;
export const LINE_METRES_HIGH = 5;
export const LINE_METRES_BUSY = 14;
export const BUSY_FLOOR = 0.2;
export const CLARITY_FLOOR = 0.3;
export const CLEAR_SHARE_GOOD = 0.8;
export const EDGE_PRECISION_POOR = 0.6;
export const EDGE_PRECISION_GOOD = 0.97;
export const INK_CEILING = 0.15;
export const INK_MAX = 0.4;
export const BACKGROUND_FULL = 0.8;
export const BACKGROUND_EMPTY = 0.95;
export const EMPTY_PAGE_PENALTY = 0.5;
/** A portrait drawn without its eyes and mouth keeps this much less of its score. */
export const FACELESS_PENALTY = 0.5;
/** A page that draws this share of the photo's strongest edges is a full likeness (the best pages of the ranking by eye draw 0.8-1). */
export const EDGE_RECALL_GOOD = 0.8;

export interface QualityReport extends InkFigures, PageFigures {
  score: number;
  resolution: number;
  laplacianVariance: number;
  /** The factors of the score (each 0-1), for the bench and the decision record. */
  factors: { resolution: number; closure: number; freeEnds: number; clean: number; amount: number; clarity: number; onEdges: number; ink: number; filled: number; faces: number; likeness: number };
  /** The share of the faces' features the page shows (measure/faces.ts); null without faces. */
  faceFeatures: number | null;
  /** The share of the photo's strongest edges the page draws (likeness.ts). */
  edgeRecall: number;
}

export interface QualityInput {
  /** Size of the photo as decoded (before the kernel's downscale). */
  sourceWidth: number;
  sourceHeight: number;
  /** Variance of the Laplacian of the grey photo as decoded (varianceOfLaplacian): reported, not scored. */
  laplacianVariance: number;
  /** The photo's toned grey on the analysis grid: where the page's lines are compared with its edges. */
  grey: GrayPlane;
  /** The finished page. */
  sketch: GrayPlane;
  /** The photo's chroma (any size), when it has colour: its steps count as photo edges too. */
  chroma?: ChromaPlanes;
  /**
   * The faces the engine found, in `featurePage`'s pixels, and the page as printed (strokes
   * included, the size of `sketch`): whether their eyes and mouths are drawn. `sketch` may be
   * the region lines alone, which the closure figures read.
   */
  faces?: { boxes: readonly FaceBox[]; featurePage: GrayPlane };
}

export function measureQuality({ sourceWidth, sourceHeight, laplacianVariance, grey, sketch, chroma, faces }: QualityInput): QualityReport {
  const resolution = Math.min(1, Math.max(sourceWidth, sourceHeight) / REGION_TUNING.analysisLongEdge);
  const pixels = measureInk(sketch);
  const figures = pageFigures(grey, sketch, chroma);
  const faceFeatures = faces ? faceFeatureShare(faces.featurePage, faces.boxes) : null;
  const recall = edgeRecall(grey, sketch);
  const factors = {
    resolution: Math.pow(resolution, RESOLUTION_WEIGHT),
    closure: rampUp(figures.boundingShare, LINES_BOUND_POOR, LINES_BOUND_GOOD),
    freeEnds: rampDown(figures.freeEndsPerMetre, FREE_ENDS_GOOD, FREE_ENDS_MAX),
    clean: Math.max(0, 1 - pixels.greyShare / GREY_SHARE_MAX) * rampDown(pixels.specksPerMegapixel, SPECKS_GOOD, SPECKS_MAX),
    amount: lineAmount(figures.lineMetres),
    clarity: CLARITY_FLOOR + (1 - CLARITY_FLOOR) * Math.min(1, figures.clearShare / CLEAR_SHARE_GOOD),
    onEdges: Math.sqrt(rampUp(figures.edgePrecision, EDGE_PRECISION_POOR, EDGE_PRECISION_GOOD)),
    ink: rampDown(pixels.inkShare, INK_CEILING, INK_MAX),
    filled: 1 - EMPTY_PAGE_PENALTY * rampUp(figures.backgroundShare, BACKGROUND_FULL, BACKGROUND_EMPTY),
    faces: faceFeatures === null ? 1 : 1 - FACELESS_PENALTY * (1 - faceFeatures),
    likeness: Math.min(1, recall / EDGE_RECALL_GOOD),
  };
  const product = Object.values(factors).reduce((total, factor) => total * factor, 1);
  const score = Math.max(0, Math.min(100, Math.round(100 * product)));
  return { ...pixels, ...figures, score, resolution, laplacianVariance, factors, faceFeatures, edgeRecall: recall };
}

/** The amount factor A (see the module comment) for this many metres of line. */
export function lineAmount(metres: number): number {
  if (metres < LINE_METRES_LOW) return rampUp(metres, LINE_METRES_EMPTY, LINE_METRES_LOW);
  return 1 - (1 - BUSY_FLOOR) * (1 - rampDown(metres, LINE_METRES_HIGH, LINE_METRES_BUSY));
}

/** 0 up to `low`, linear to 1 at `high`. */
function rampUp(value: number, low: number, high: number): number {
  return Math.max(0, Math.min(1, (value - low) / (high - low)));
}

/** 1 up to `low`, linear to 0 at `high`. */
function rampDown(value: number, low: number, high: number): number {
  return 1 - rampUp(value, low, high);
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
