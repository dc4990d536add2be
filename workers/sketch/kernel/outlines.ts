/**
 * Coarse outlines: Canny's edge detector (J. Canny, "A computational approach to edge
 * detection", 1986) run at a coarser scale than the render pass, for the outlines of big shapes
 * that stand in busy surroundings: tree trunks in a forest, a tree's crown against the sky, a
 * path through ferns.
 *
 * The render pass draws an edge where the finely smoothed grey changes fast, less what its
 * surroundings do (surround suppression). In a forest the surroundings of a trunk are needles and
 * ferns, so the trunk's edge is suppressed with them, and a soft boundary (a crown painted with a
 * broad brush) is never fast enough. Smoothed over a few millimetres of the page, the texture
 * averages out to an even tone while a trunk or a crown stays a band of its own tone, whose
 * boundary is a clear gradient. Non-maximum suppression thins that gradient to a one-pixel line
 * at its centre (where the boundary is), and hysteresis keeps a line only where part of it is a
 * strong step, following it through weaker parts (so a trunk is one line, not dashes).
 *
 * Works on the smoothed plane (half the working resolution on large pages) or, on a small
 * photo's plane at working resolution, on every second pixel of its blur, so it costs a
 * fraction of a full-page pass. Thresholds are in grey levels of step height: a boundary between
 * two areas that differ by that much (after the tone curve), however wide the smoothing.
 */
import { blockMeans, boxStackSigma, gaussianInPlace, halfGridGaussian, reducedSigma, reductionFor } from "./blur";
import type { FixedPlane, GrayPlane } from "./plane";
import { HALF_GRID_SOBEL_GAIN } from "./scale";
import type { SketchTuning } from "./tuning";

/** tan(22.5°) in 1/256ths: splits gradient directions into horizontal, vertical and the two diagonals. */
const TAN_22_5 = 106;

/** Below this (working pixels) the coarse scale is no coarser than the render pass's own. */
const MIN_OUTLINE_SIGMA = 1.5;

/** Outline pixels (1) on a grid of `scale` × `scale` working pixels per cell. */
export interface OutlinePlane {
  data: Uint8Array;
  width: number;
  height: number;
  scale: number;
  /**
   * Drawn as a one-pixel line through the cells (the half grid of a small photo, see
   * coarseOutlines), not as filled cells.
   */
  joined?: boolean;
}

/** Outlines switched off (outlineSigmaDivisor 0): an empty grid, which drawOutlines skips. */
const NO_OUTLINES: OutlinePlane = { data: new Uint8Array(0), width: 0, height: 0, scale: 1, joined: false };

/**
 * The coarse outlines of `smoothed` (8.8 grey already smoothed by edgeSigma working pixels).
 * The grey is blurred on block means as coarse as the sigma allows (a quarter of the plane's
 * pixels on a large page: the blur is a low frequency), and the outlines are found on that grid.
 * `smoothed` is not changed.
 */
export function coarseOutlines(smoothed: FixedPlane, edgeSigma: number, tuning: SketchTuning): OutlinePlane {
  if (tuning.outlineSigmaDivisor <= 0) return NO_OUTLINES;
  // The coarse sigma in working pixels, a fixed share of the page (so the same size on paper
  // whatever the photo's resolution); the plane already carries edgeSigma of it.
  const sigma = Math.max(MIN_OUTLINE_SIGMA, edgeSigma, (Math.max(smoothed.width, smoothed.height) * smoothed.scale) / tuning.outlineSigmaDivisor);
  const more = Math.sqrt(Math.max(0, sigma * sigma - edgeSigma * edgeSigma));
  const factor = Math.max(1, reductionFor(more) / smoothed.scale);
  // A small photo's plane is at working resolution and its coarse sigma (about 2 px) too small
  // to reduce for the boxes: six box passes, Sobel and thinning over every pixel cost more than
  // the rest of the kernel's edges. Blurred that wide, the plane's detail fits on a half grid:
  // the outlines are found on the blur of its 2 x 2 block means and drawn as a joined line
  // (drawOutlines), one pixel wide.
  const halfGrid = factor === 1 && smoothed.scale === 1;
  let coarse: FixedPlane;
  if (halfGrid) {
    // The sigma the stacked boxes made here before (three of width 3 for sigma 1.58 make 1.41):
    // the outline thresholds were chosen by eye on pages made with it.
    coarse = halfGridGaussian(smoothed, boxStackSigma(more));
  } else {
    coarse = factor > 1 ? blockMeans(smoothed, factor) : { ...smoothed, data: smoothed.data.slice() };
    gaussianInPlace(coarse, factor > 1 ? reducedSigma(more, coarse.scale) : more / coarse.scale);
  }
  const { width, height, scale } = coarse;
  const outline = new Uint8Array(width * height);
  if (width < 5 || height < 5) return { data: outline, width, height, scale, joined: halfGrid };

  // A step of height h smoothed by sigma has a peak gradient of h / (sqrt(2 pi) sigma) per
  // working pixel; the Sobel sum on the 8.8 plane is 8 × 256 × scale times that gradient.
  // Squared, so the per-pixel pass needs no square root.
  // On the half grid Sobel reads less of a step's peak (HALF_GRID_SOBEL_GAIN gives 10 % back; not
  // all of it, as its hysteresis links candidates 2 px apart and follows weak parts further).
  const halfGridGain = halfGrid ? HALF_GRID_SOBEL_GAIN : 1;
  const toStepHeight = (Math.sqrt(2 * Math.PI) * sigma * halfGridGain) / (8 * 256 * scale);
  const strong = (tuning.outlineHigh / toStepHeight) ** 2;
  const weak = (tuning.outlineLow / toStepHeight) ** 2;
  const squared = new Float32Array(width * height);
  for (let y = 1; y < height - 1; y++) squaredGradientRow(coarse.data, squared, y * width, width);
  // Thin to the ridge of the gradient (1 = weak candidate, 2 = strong), listing the candidates,
  // then follow the weak ones out from the strong ones. The list (a tenth of the cells or fewer)
  // is all the later steps read: no more walks over the whole grid.
  let count = 0;
  for (let y = 2; y < height - 2; y++) {
    if (candidates.length < count + width) {
      const grown = new Int32Array(Math.max(2 * candidates.length, count + width));
      grown.set(candidates.subarray(0, count));
      candidates = grown;
    }
    count = ridgeRow(coarse.data, squared, outline, y * width, width, weak, strong, candidates, count);
  }
  followFromStrong(outline, width, candidates, count);
  keepFollowed(outline, candidates, count);
  return { data: outline, width, height, scale, joined: halfGrid };
}

/**
 * Squared Sobel magnitude of one row's interior. The stencil is separable, as in the render pass
 * (render.ts pageRow): per column V = above + 2 middle + below and D = below - above, then
 * gx = V[x+1] - V[x-1] and gy = D[x-1] + 2 D[x] + D[x+1]; two columns carried in locals, so each
 * pixel reads three values, not eight (5.2 → 3.2 ns a pixel; the same sums).
 */
function squaredGradientRow(data: Uint16Array, squared: Float32Array, row: number, width: number): void {
  const up = row - width;
  const down = row + width;
  let vLeft = data[up] + 2 * data[row] + data[down];
  let dLeft = data[down] - data[up];
  let vHere = data[up + 1] + 2 * data[row + 1] + data[down + 1];
  let dHere = data[down + 1] - data[up + 1];
  for (let x = 1, end = width - 1; x < end; x++) {
    const above = data[up + x + 1];
    const below = data[down + x + 1];
    const vRight = above + 2 * data[row + x + 1] + below;
    const dRight = below - above;
    const gx = vRight - vLeft;
    const gy = dLeft + 2 * dHere + dRight;
    squared[row + x] = gx * gx + gy * gy;
    vLeft = vHere;
    vHere = vRight;
    dLeft = dHere;
    dHere = dRight;
  }
}

/**
 * The candidates' indices, listed by ridgeRow (kept for the isolate's life, grown as needed; a
 * row adds at most its width).
 */
let candidates = new Int32Array(0);

/**
 * Non-maximum suppression of one row (2 px from the border): a pixel stays a candidate when its
 * gradient is at least weak and not below either neighbour across the edge (strictly above the
 * one before, so a flat-topped ridge gives one pixel, not two). The direction is worked out only
 * for those few pixels: the gradient is quantised to horizontal, vertical or a diagonal.
 * Appends the row's candidates to `listed` from `count` on; returns the new count.
 */
function ridgeRow(data: Uint16Array, squared: Float32Array, outline: Uint8Array, row: number, width: number, weak: number, strong: number, listed: Int32Array, count: number): number {
  for (let i = row + 2, end = row + width - 2; i < end; i++) {
    const m = squared[i];
    if (m < weak) continue;
    const up = i - width;
    const down = i + width;
    const gx = data[up + 1] + 2 * data[i + 1] + data[down + 1] - data[up - 1] - 2 * data[i - 1] - data[down - 1];
    const gy = data[down - 1] + 2 * data[down] + data[down + 1] - data[up - 1] - 2 * data[up] - data[up + 1];
    const ax = gx < 0 ? -gx : gx;
    const ay = gy < 0 ? -gy : gy;
    const step = ay * 256 <= ax * TAN_22_5 ? 1 : ax * 256 <= ay * TAN_22_5 ? width : (gx > 0) === (gy > 0) ? width + 1 : width - 1;
    if (m <= squared[i - step] || m < squared[i + step]) continue;
    outline[i] = m >= strong ? 2 : 1;
    listed[count++] = i;
  }
  return count;
}

/**
 * Hysteresis: weak candidates 8-connected to a strong one, directly or through others, become 3.
 * Each candidate is pushed at most once (the strong ones now, a weak one when reached), so a stack
 * as long as the list never overflows.
 */
function followFromStrong(outline: Uint8Array, width: number, listed: Int32Array, count: number): void {
  if (followStack.length < count) followStack = new Int32Array(count);
  const stack = followStack;
  let top = 0;
  for (let k = 0; k < count; k++) if (outline[listed[k]] === 2) stack[top++] = listed[k];
  while (top > 0) {
    const i = stack[--top];
    for (let dy = -width; dy <= width; dy += width) {
      for (let j = i + dy - 1, end = i + dy + 1; j <= end; j++) {
        if (outline[j] !== 1) continue;
        outline[j] = 3;
        stack[top++] = j;
      }
    }
  }
}

/** followFromStrong's stack, kept for the isolate's life and grown as needed. */
let followStack = new Int32Array(0);

/** Strong and followed candidates become 1, lone weak ones 0 (every other cell is 0 already). */
function keepFollowed(outline: Uint8Array, listed: Int32Array, count: number): void {
  for (let k = 0; k < count; k++) {
    const i = listed[k];
    outline[i] = outline[i] >= 2 ? 1 : 0;
  }
}

/**
 * The outlines onto the grey page as ink: each outline cell darkens the block of page pixels it
 * covers (cell x covers page columns x × scale .. x × scale + scale - 1), or on a joined half
 * grid the line through the cells (drawJoined).
 */
export function drawOutlines(page: GrayPlane, outlines: OutlinePlane): void {
  if (outlines.joined) {
    drawJoined(page, outlines);
    return;
  }
  const { data: outline, width: planeWidth, height: planeHeight, scale: factor } = outlines;
  const { width, height, data } = page;
  for (let py = 0; py < planeHeight; py++) {
    const yStart = py * factor;
    blockRow(outline, py * planeWidth, planeWidth, data, yStart, Math.min(height, yStart + factor), width, factor);
  }
}

/**
 * One cell row of drawOutlines: page rows yStart .. yEnd - 1. Plain stores, not data.fill per
 * block row: a fill of 2-4 pixels is a call into the runtime that costs more than the pixels
 * (0.65 ms of a 741 px photo's 17 ms kernel).
 */
function blockRow(outline: Uint8Array, cells: number, planeWidth: number, data: Uint8Array, yStart: number, yEnd: number, width: number, factor: number): void {
  for (let px = 0; px < planeWidth; px++) {
    if (outline[cells + px] === 0) continue;
    const xStart = px * factor;
    const xEnd = Math.min(width, xStart + factor);
    for (let y = yStart; y < yEnd; y++) {
      const row = y * width;
      for (let x = xStart; x < xEnd; x++) data[row + x] = 0;
    }
  }
}

/**
 * Outlines on a half grid (scale 2) as a one-pixel line: each cell inks the page pixel it was
 * sampled at (2x, 2y), and each pair of neighbouring cells (8-connected) the pixel between
 * theirs, so a line of cells becomes a connected line of pixels, not a staircase of 2 x 2 blocks.
 */
function drawJoined(page: GrayPlane, { data: outline, width: planeWidth, height: planeHeight }: OutlinePlane): void {
  const { width, height, data } = page;
  for (let cy = 0; cy < planeHeight; cy++) {
    const y = 2 * cy;
    if (y >= height) break;
    const hasBelow = cy + 1 < planeHeight && y + 1 < height;
    joinedRow(outline, cy * planeWidth, planeWidth, data, y * width, width, hasBelow);
  }
}

/** One cell row of drawJoined: `row` is the page row of its cells, the links down go to row + 1. */
function joinedRow(outline: Uint8Array, cells: number, planeWidth: number, data: Uint8Array, row: number, width: number, hasBelow: boolean): void {
  const below = cells + planeWidth;
  for (let cx = 0; cx < planeWidth; cx++) {
    if (outline[cells + cx] === 0) continue;
    const x = 2 * cx;
    if (x >= width) break;
    data[row + x] = 0;
    const hasRight = cx + 1 < planeWidth && x + 1 < width;
    if (hasRight && outline[cells + cx + 1] !== 0) data[row + x + 1] = 0;
    if (!hasBelow) continue;
    if (outline[below + cx] !== 0) data[row + width + x] = 0;
    if (hasRight && outline[below + cx + 1] !== 0) data[row + width + x + 1] = 0;
    if (cx > 0 && outline[below + cx - 1] !== 0) data[row + width + x - 1] = 0;
  }
}
