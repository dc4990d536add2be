/**
 * Feature strokes: the thin dark lines and spots of a photo (eyelids, pupils, brows, a mouth's
 * line, nostrils, whiskers), drawn as open strokes over the region page
 * (docs/decisions/033-feature-strokes.md). The regions keep a page's shapes closed; a face's
 * features are mostly not shapes but lines, and a region small enough to be an eye is merged away
 * at the coarser levels, so without strokes a face loses exactly what makes it someone.
 *
 *   the smoothed grey on the analysis grid
 *   → the depth of its dark lines: the black top-hat, minus its surround (texture)   dark-lines.ts
 *   → the pixels deep enough, thinned to one-pixel lines and followed as chains     skeleton.ts
 *   → each chain a stroke: its mean depth and its points, smoothed
 *   → a level: the strokes deep and long enough for it, kept clear of its region    (here)
 *     lines, inked with the level's line
 */
import type { DetailLevel } from "../../../../app/core/engine-limits";
import type { FloatPlane } from "../regions/float-plane";
import { smoothLines, type Polylines } from "../regions/arcs";
import { darkLineDepth } from "./dark-lines";
import { thin, traceChains, type Chains } from "./skeleton";
import { LEVEL_STROKES, STROKE_TUNING } from "./tuning";
import { FACE_TUNING } from "../faces/tuning";

export { LEVEL_STROKES, STROKE_TUNING } from "./tuning";

/** A photo's feature strokes, in analysis-grid coordinates (pixel centres at x + 0.5, y + 0.5). */
export interface Strokes extends Polylines {
  /** Each stroke's mean depth (grey levels of the toned photo, already divided by the photo's contrast). */
  depth: Float32Array;
  /** Each stroke's length on the printed page (mm). */
  lengthMm: Float32Array;
}

export const NO_STROKES: Strokes = { count: 0, pointStart: new Int32Array(1), points: new Float32Array(0), depth: new Float32Array(0), lengthMm: new Float32Array(0) };

/**
 * The strokes of a smoothed grey plane on the analysis grid: `mmPerPixel` of the printed page a
 * grid pixel, `contrast` the photo's (0..1: a faint photo's strokes are read against its own
 * strongest, as its borders are).
 */
export function findStrokes(smooth: FloatPlane, mmPerPixel: number, contrast: number, faceWeight: Float32Array | null = null): Strokes {
  const { width, height } = smooth;
  const radius = Math.max(1, Math.round(STROKE_TUNING.widestLineMm / mmPerPixel / 2));
  const suppression = faceWeight ? faceSuppression(faceWeight) : STROKE_TUNING.surroundSuppression;
  const depth = darkLineDepth(smooth, radius, STROKE_TUNING.surroundSigmaMm / mmPerPixel, suppression).data;
  for (let i = 0; i < depth.length; i++) depth[i] /= contrast;
  const traceFrom = STROKE_TUNING.traceShare * Math.min(...Object.values(LEVEL_STROKES).map((level) => level.weakestDepth));
  const mask = new Uint8Array(depth.length);
  for (let i = 0; i < depth.length; i++) mask[i] = depth[i] >= traceFrom ? 1 : 0;
  thin(mask, width, height);
  const chains = traceChains(mask, width, height);

  const pointStart: number[] = [0];
  const points: number[] = [];
  const strokeDepth: number[] = [];
  const depths: number[] = [];
  let count = 0;
  for (let k = 0; k < chains.count; k++) {
    if (isSpur(chains, k, STROKE_TUNING.spurMm / mmPerPixel)) continue;
    count++;
    depths.length = 0;
    let inFace = 0;
    for (let p = chains.start[k]; p < chains.start[k + 1]; p++) {
      const i = chains.pixels[p];
      depths.push(depth[i]);
      if (faceWeight) inFace += faceWeight[i];
      points.push((i % width) + 0.5, ((i / width) | 0) + 0.5);
    }
    // A stroke is as deep as most of it: traced down to its faint ends (so a line is not
    // dashed where it fades a little), it is judged by the depth its deeper part reaches.
    depths.sort((a, b) => a - b);
    // A face's feature counts more, as much as the stroke lies in the face.
    const weight = 1 + (FACE_TUNING.strokeWeight - 1) * (inFace / depths.length);
    strokeDepth.push(weight * depths[Math.floor(STROKE_TUNING.judgedAtShare * (depths.length - 1))]);
    pointStart.push(points.length >> 1);
  }
  const traced: Polylines = { count, pointStart: Int32Array.from(pointStart), points: Float32Array.from(points) };
  const smoothed = smoothLines(traced, STROKE_TUNING.smoothingMm / mmPerPixel, STROKE_TUNING.pointStep);
  const lengthMm = new Float32Array(smoothed.count);
  for (let k = 0; k < smoothed.count; k++) lengthMm[k] = polylineLength(smoothed, k) * mmPerPixel;
  return { ...smoothed, depth: Float32Array.from(strokeDepth), lengthMm };
}

/**
 * Per pixel, how much texture suppresses dark lines: STROKE_TUNING's, eased toward the face's
 * (FACE_TUNING.strokeSurroundSuppression) by the face weight. A loop, not Float32Array.from with a
 * mapping function, which V8 runs element by element through the iterator: 90 ms on an
 * 1100 × 688 grid against 2.
 */
function faceSuppression(faceWeight: Float32Array): Float32Array {
  const everywhere = STROKE_TUNING.surroundSuppression;
  const easing = everywhere - FACE_TUNING.strokeSurroundSuppression;
  const suppression = new Float32Array(faceWeight.length);
  for (let i = 0; i < faceWeight.length; i++) suppression[i] = everywhere - easing * faceWeight[i];
  return suppression;
}

/**
 * A short twig from a line to a free end: what thinning leaves where a line thickens (the corner
 * of an eye, the edge of an iris), drawn as a tick off the line. Not a feature.
 */
function isSpur(chains: Chains, k: number, longestPx: number): boolean {
  const { start, pixels, crossings } = chains;
  const length = start[k + 1] - start[k];
  if (length >= longestPx) return false;
  const first = crossings[pixels[start[k]]];
  const last = crossings[pixels[start[k + 1] - 1]];
  return (first === 1 && last >= 3) || (first >= 3 && last === 1);
}

/** Whether a level draws stroke k: deep enough, and long enough unless twice as deep. */
export function strokeDrawnAt(strokes: Strokes, k: number, level: DetailLevel): boolean {
  const { weakestDepth, shortestMm } = LEVEL_STROKES[level];
  const depth = strokes.depth[k];
  return depth >= weakestDepth && (strokes.lengthMm[k] >= shortestMm || depth >= 2 * weakestDepth);
}

/**
 * The pieces of a level's strokes that keep clear of its region lines: `nearLine(x, y)` says
 * whether a grid point lies within STROKE_TUNING.clearanceMm of a region line drawn at the level.
 * A stroke is cut where it comes near one (a feature line running into an outline joins it
 * there), and a piece left shorter than its level's shortest stroke is dropped unless it is the
 * whole stroke.
 */
export function strokePiecesAt(strokes: Strokes, level: DetailLevel, nearLine: (x: number, y: number) => boolean, mmPerPixel: number): Polylines {
  const pointStart: number[] = [0];
  const points: number[] = [];
  const { shortestMm } = LEVEL_STROKES[level];
  for (let k = 0; k < strokes.count; k++) {
    if (!strokeDrawnAt(strokes, k, level)) continue;
    const first = strokes.pointStart[k];
    const end = strokes.pointStart[k + 1];
    let piece: number[] = [];
    const flush = () => {
      const whole = piece.length === 2 * (end - first);
      if (piece.length > 0 && (whole || pathLength(piece, 0, piece.length >> 1) * mmPerPixel >= shortestMm)) {
        points.push(...piece);
        pointStart.push(points.length >> 1);
      }
      piece = [];
    };
    for (let p = first; p < end; p++) {
      const x = strokes.points[2 * p];
      const y = strokes.points[2 * p + 1];
      if (nearLine(x, y)) flush();
      else piece.push(x, y);
    }
    flush();
  }
  return { count: pointStart.length - 1, pointStart: Int32Array.from(pointStart), points: Float32Array.from(points) };
}

function polylineLength(lines: Polylines, k: number): number {
  return pathLength(lines.points, lines.pointStart[k], lines.pointStart[k + 1]);
}

/** The length of the path through points first .. end - 1 of an array of x, y pairs. */
function pathLength(points: ArrayLike<number>, first: number, end: number): number {
  let length = 0;
  for (let p = first + 1; p < end; p++) length += Math.hypot(points[2 * p] - points[2 * p - 2], points[2 * p + 1] - points[2 * p - 1]);
  return length;
}
