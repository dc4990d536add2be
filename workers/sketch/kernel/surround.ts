/**
 * The surround plane for surround suppression (C. Grigorescu, N. Petkov, M. Westenberg,
 * "Contour detection based on nonclassical receptive field inhibition", 2003): the mean edge
 * strength around each pixel. An outline is a thin ridge of strong edges in a quiet
 * neighbourhood, so its surround is small next to its own strength; pebbles, grass, fur and
 * sensor noise are edges everywhere, so their surround is as strong as they are and the render
 * pass subtracts it away.
 *
 * Made on the reduced smoothed plane (the one Sobel reads, at half the working resolution on a
 * page), then averaged and blurred further down: the surround is a low-frequency plane.
 */
import { addBlockRow, blockMeansRow, gaussianInPlace, reducedSigma, reductionFor } from "./blur";
import type { FixedPlane } from "./plane";

/** Surround values are stored as edge strength (the render pass's scale) × this, in Uint16. */
export const SURROUND_FIXED = 32;

/**
 * The Sobel magnitudes are made a row at a time and, when the surround is reduced (factor > 1,
 * the usual case), summed straight into the block means that blockMeans would make of the whole
 * magnitude plane: the same values, without a full-size magnitude plane to allocate and read again.
 */
export function surroundPlane(smoothed: FixedPlane, edgeSigma: number, surroundSigma: number): FixedPlane {
  const { width, height, data, scale } = smoothed;
  // The render pass's edge strength: the Sobel magnitude per working pixel (a plane pixel spans
  // `scale` of them) × max(1, edgeSigma), 8.8 fixed point undone.
  const toEdgeUnits = (SURROUND_FIXED * Math.max(1, edgeSigma)) / (256 * scale);
  const factor = Math.max(1, reductionFor(surroundSigma) / scale);
  let reduced: FixedPlane;
  if (factor === 1) {
    const magnitude = new Uint16Array(width * height);
    for (let y = 0; y < height; y++) magnitudeRow(data, width, height, y, toEdgeUnits, magnitude, y * width);
    reduced = { data: magnitude, width, height, scale };
  } else {
    const outWidth = Math.ceil(width / factor);
    const outHeight = Math.ceil(height / factor);
    const out = new Uint16Array(outWidth * outHeight);
    if (magnitudes.length < width) magnitudes = new Uint16Array(width);
    if (blockSums.length < outWidth) blockSums = new Uint32Array(outWidth);
    const sums = blockSums;
    // The block means from every second pixel of every second row (factor is even): an unbiased
    // sample of each block, blurred by a surround sigma of several blocks afterwards, for a
    // quarter of the square roots. A line's magnitude spans two pixels across it, so one of the
    // pair is always sampled.
    const samplesWide = (width + 1) >> 1;
    const half = factor >> 1;
    for (let by = 0; by < outHeight; by++) {
      sums.fill(0, 0, outWidth);
      const yEnd = Math.min(height, (by + 1) * factor);
      for (let y = by * factor; y < yEnd; y += 2) {
        sampledMagnitudeRow(data, width, height, y, toEdgeUnits, magnitudes);
        addBlockRow(magnitudes, 0, samplesWide, half, sums);
      }
      blockMeansRow(sums, out, by * outWidth, outWidth, samplesWide, half, (yEnd - by * factor + 1) >> 1);
    }
    reduced = { data: out, width: outWidth, height: outHeight, scale: scale * factor };
  }
  gaussianInPlace(reduced, reducedSigma(surroundSigma, reduced.scale));
  return reduced;
}

/** One row of magnitudes and the block sums, kept for the isolate's life (grown as needed). */
let magnitudes = new Uint16Array(0);
let blockSums = new Uint32Array(0);

/**
 * Row y's Sobel magnitudes (as magnitudeRow) at its even columns only: out[x / 2] for x = 0, 2, 4...
 * The border rows and columns repeat their edge. Separable as in magnitudeRow: the right-hand
 * column of one sample (x + 1) is the left-hand column of the next, so it is carried, and each
 * sample reads two new columns (six values), not eight values.
 */
function sampledMagnitudeRow(data: Uint16Array, width: number, height: number, y: number, toEdgeUnits: number, out: Uint16Array): void {
  const up = (y > 0 ? y - 1 : y) * width;
  const row = y * width;
  const down = (y + 1 < height ? y + 1 : y) * width;
  const last = width - 1;
  // Column x - 1 of the first sample is column 0 (the left border repeats it).
  let vLeft = data[up] + 2 * data[row] + data[down];
  let dLeft = data[down] - data[up];
  for (let x = 0, s = 0; x < width; x += 2, s++) {
    const dHere = data[down + x] - data[up + x];
    const r = x < last ? x + 1 : last;
    const above = data[up + r];
    const below = data[down + r];
    const vRight = above + 2 * data[row + r] + below;
    const dRight = below - above;
    const gx = vRight - vLeft;
    const gy = dLeft + 2 * dHere + dRight;
    const value = Math.sqrt(gx * gx + gy * gy) * toEdgeUnits;
    out[s] = value > 65535 ? 65535 : value;
    vLeft = vRight;
    dLeft = dRight;
  }
}

/**
 * Row y's Sobel magnitudes in edge units × SURROUND_FIXED into out[at .. at + width); the border
 * rows and columns repeat their edge. The stencil is separable: per column V = up + 2 here + down
 * and D = down - up, then gx = V[x+1] - V[x-1] and gy = D[x-1] + 2 D[x] + D[x+1]; two columns are
 * carried in locals, so each pixel reads three values, not eight.
 */
function magnitudeRow(data: Uint16Array, width: number, height: number, y: number, toEdgeUnits: number, out: Uint16Array, at: number): void {
  const up = (y > 0 ? y - 1 : y) * width;
  const row = y * width;
  const down = (y + 1 < height ? y + 1 : y) * width;
  let vLeft = data[up] + 2 * data[row] + data[down];
  let dLeft = data[down] - data[up];
  let vHere = vLeft;
  let dHere = dLeft;
  const last = width - 1;
  for (let x = 0; x < last; x++) {
    const vRight = data[up + x + 1] + 2 * data[row + x + 1] + data[down + x + 1];
    const dRight = data[down + x + 1] - data[up + x + 1];
    const gx = vRight - vLeft;
    const gy = dLeft + 2 * dHere + dRight;
    const value = Math.sqrt(gx * gx + gy * gy) * toEdgeUnits;
    out[at + x] = value > 65535 ? 65535 : value;
    vLeft = vHere;
    vHere = vRight;
    dLeft = dHere;
    dHere = dRight;
  }
  // The last column is its own right neighbour.
  const gx = vHere - vLeft;
  const gy = dLeft + 3 * dHere;
  const value = Math.sqrt(gx * gx + gy * gy) * toEdgeUnits;
  out[at + last] = value > 65535 ? 65535 : value;
}
