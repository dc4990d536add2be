/** Area-average downscale of the decoded grey to the print size. */
import { PRINT_LONG_EDGE_PX } from "../../../app/core/engine-limits";
import type { GrayPlane } from "./plane";

/** Output size when the long edge is brought down to at most maxLongEdge (never up). */
export function fitWithin(width: number, height: number, maxLongEdge: number): { width: number; height: number } {
  const longEdge = Math.max(width, height);
  if (longEdge <= maxLongEdge) return { width, height };
  const scale = maxLongEdge / longEdge;
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * Area-average downscale: each output pixel is the exact mean of the source area it covers
 * (fractional pixels weighted by coverage).
 */
export function downscaleToFit(image: GrayPlane, maxLongEdge: number = PRINT_LONG_EDGE_PX): GrayPlane {
  const { width, height } = fitWithin(image.width, image.height, maxLongEdge);
  return areaResize(image, width, height);
}

/**
 * Area-average shrink to exactly outWidth x outHeight (each at most the input's).
 *
 * Rows first: every source row is added once, with its coverage weight, into the one or two
 * full-width Int32 accumulators of the output rows it falls into (one multiply-add per source
 * pixel, sequential, no gathers); when an output row is complete its accumulator is shrunk
 * horizontally once. Weights are 16-bit fixed point: a row sum is at most 255 × 2^16 (Int32),
 * a pixel's sum at most 2^40 (exact in a double), so the result is the exact integer maths.
 */
export function areaResize(image: GrayPlane, outWidth: number, outHeight: number): GrayPlane {
  if (outWidth === image.width && outHeight === image.height) return image;
  for (const factor of [2, 4, 8]) {
    if (image.width === outWidth * factor && image.height === outHeight * factor) return blockShrink(image, factor);
  }

  const { width: inWidth, height: inHeight, data: source } = image;
  const columns = areaWeights(inWidth, outWidth);
  const rows = areaWeights(inHeight, outHeight);
  const out = new Uint8Array(outWidth * outHeight);
  let accumulator = new Int32Array(inWidth);
  let nextAccumulator = new Int32Array(inWidth);
  // Whether an accumulator holds nothing yet (its first row is stored, not added: no fill(0)).
  let empty = true;
  let nextEmpty = true;
  let outY = 0;
  let rowEnd = lastSourceRow(rows, 0, inHeight);
  /** Shrinks the complete output row outY and moves on to the next; true when all are done. */
  const finishOutputRow = (): boolean => {
    if (empty) accumulator.fill(0);
    shrinkRow(accumulator, out, outY * outWidth, outWidth, columns);
    const done = accumulator;
    accumulator = nextAccumulator;
    nextAccumulator = done;
    empty = nextEmpty;
    nextEmpty = true;
    outY++;
    if (outY === outHeight) return true;
    rowEnd = lastSourceRow(rows, outY, inHeight);
    return false;
  };
  for (let y = 0; y < inHeight; y++) {
    const row = y * inWidth;
    // Source row y covers output row rows.first[oy] + t with weight rows.weight[oy * taps + t]:
    // find its share of outY and of outY + 1.
    const here = coverage(rows, outY, y);
    const there = outY + 1 < outHeight ? coverage(rows, outY + 1, y) : 0;
    if (here > 0 && there === 0 && y + 1 < rowEnd) {
      // Rows y and y + 1 both fall in outY only: add them together (half the accumulator traffic).
      const hereNext = coverage(rows, outY, y + 1);
      const thereNext = outY + 1 < outHeight ? coverage(rows, outY + 1, y + 1) : 0;
      if (thereNext === 0) {
        addRows(accumulator, source, row, inWidth, here, hereNext, empty);
        empty = false;
        y++;
        if (y + 1 >= rowEnd && finishOutputRow()) break;
        continue;
      }
    }
    if (here > 0 && there > 0 && !empty && nextEmpty) {
      // The usual straddling row: one read of the source row for both output rows.
      splitRow(accumulator, nextAccumulator, source, row, inWidth, here, there);
      nextEmpty = false;
    } else {
      if (here > 0) {
        addRow(accumulator, source, row, inWidth, here, empty);
        empty = false;
      }
      if (there > 0) {
        addRow(nextAccumulator, source, row, inWidth, there, nextEmpty);
        nextEmpty = false;
      }
    }
    // Output row outY is complete once its last source row is in.
    if (y + 1 >= rowEnd && finishOutputRow()) break;
  }
  return { data: out, width: outWidth, height: outHeight };
}

/**
 * areaResize for an exact shrink by 2, 4 or 8 (a 2560 x 1600 photo to its 1280 x 800 base plane,
 * a page to its outline cells): every output pixel is the mean of a whole factor x factor block.
 * The general path's weights are then exactly 2^16 / factor each, so its result is
 * floor(sum / factor² + 1/2), which this computes with integers: the same bytes, without the
 * weights.
 */
function blockShrink(image: GrayPlane, factor: number): GrayPlane {
  const { width, data } = image;
  const outWidth = width / factor;
  const outHeight = image.height / factor;
  const out = new Uint8Array(outWidth * outHeight);
  if (factor === 2) {
    for (let oy = 0; oy < outHeight; oy++) halveRows(data, 2 * oy * width, width, out, oy * outWidth, outWidth);
  } else {
    const sums = new Int32Array(outWidth);
    for (let oy = 0; oy < outHeight; oy++) shrinkBlockRow(data, width, oy, factor, sums, out, outWidth);
  }
  return { data: out, width: outWidth, height: outHeight };
}

/**
 * Output row oy of a shrink by 4 or 8: its blocks' sums, then each rounded mean. A function per
 * row, so the loops are compiled once and early, not on the spot in blockShrink for each photo.
 */
function shrinkBlockRow(data: Uint8Array, width: number, oy: number, factor: number, sums: Int32Array, out: Uint8Array, outWidth: number): void {
  const shift = factor === 4 ? 4 : 6;
  sums.fill((factor * factor) >> 1);
  for (let y = oy * factor, end = y + factor; y < end; y++) addBlocks(data, y * width, outWidth, factor, sums);
  const outRow = oy * outWidth;
  for (let ox = 0; ox < outWidth; ox++) out[outRow + ox] = sums[ox] >> shift;
}

/** One output row of a shrink by 2: each pixel the rounded mean of its 2 x 2 block. */
function halveRows(data: Uint8Array, row: number, width: number, out: Uint8Array, outRow: number, outWidth: number): void {
  const next = row + width;
  for (let x = 0, i = 0; x < outWidth; x++, i += 2) {
    out[outRow + x] = (data[row + i] + data[row + i + 1] + data[next + i] + data[next + i + 1] + 2) >> 2;
  }
}

/** sums[b] += the row's pixels b × factor .. (b + 1) × factor - 1, for every whole block b. */
function addBlocks(data: Uint8Array, row: number, blocks: number, factor: number, sums: Int32Array): void {
  if (factor === 4) {
    for (let b = 0, i = row; b < blocks; b++, i += 4) sums[b] += data[i] + data[i + 1] + data[i + 2] + data[i + 3];
    return;
  }
  for (let b = 0, i = row; b < blocks; b++) {
    let sum = 0;
    for (const end = i + factor; i < end; i++) sum += data[i];
    sums[b] += sum;
  }
}

/** accumulator (+)= source row × weight + the next source row × nextWeight. */
function addRows(
  accumulator: Int32Array,
  source: Uint8Array,
  row: number,
  width: number,
  weight: number,
  nextWeight: number,
  store: boolean,
): void {
  const next = row + width;
  if (store) for (let x = 0; x < width; x++) accumulator[x] = source[row + x] * weight + source[next + x] * nextWeight;
  else for (let x = 0; x < width; x++) accumulator[x] += source[row + x] * weight + source[next + x] * nextWeight;
}

/** accumulator += source row × weight, and nextAccumulator = source row × nextWeight (its first row). */
function splitRow(accumulator: Int32Array, nextAccumulator: Int32Array, source: Uint8Array, row: number, width: number, weight: number, nextWeight: number): void {
  for (let x = 0; x < width; x++) {
    const v = source[row + x];
    accumulator[x] += v * weight;
    nextAccumulator[x] = v * nextWeight;
  }
}

/** accumulator (+)= source row × weight. */
function addRow(accumulator: Int32Array, source: Uint8Array, row: number, width: number, weight: number, store: boolean): void {
  if (store) for (let x = 0; x < width; x++) accumulator[x] = source[row + x] * weight;
  else for (let x = 0; x < width; x++) accumulator[x] += source[row + x] * weight;
}

/** One output row from a complete row accumulator: the column weights, then ÷ 2^32, rounded. */
function shrinkRow(accumulator: Int32Array, out: Uint8Array, outRow: number, outWidth: number, columns: AreaWeights): void {
  const { taps, first, weight } = columns;
  const scale = 1 / 2 ** 32; // both weights are 16-bit fixed point
  if (taps === 2) {
    for (let x = 0, w = 0; x < outWidth; x++, w += 2) {
      const i = first[x];
      out[outRow + x] = ((accumulator[i] * weight[w] + accumulator[i + 1] * weight[w + 1]) * scale + 0.5) | 0;
    }
  } else if (taps === 3) {
    for (let x = 0, w = 0; x < outWidth; x++, w += 3) {
      const i = first[x];
      const sum = accumulator[i] * weight[w] + accumulator[i + 1] * weight[w + 1] + accumulator[i + 2] * weight[w + 2];
      out[outRow + x] = (sum * scale + 0.5) | 0;
    }
  } else if (taps === 4) {
    for (let x = 0, w = 0; x < outWidth; x++, w += 4) {
      const i = first[x];
      const sum =
        accumulator[i] * weight[w] + accumulator[i + 1] * weight[w + 1] +
        accumulator[i + 2] * weight[w + 2] + accumulator[i + 3] * weight[w + 3];
      out[outRow + x] = (sum * scale + 0.5) | 0;
    }
  } else if (taps === 5) {
    for (let x = 0, w = 0; x < outWidth; x++, w += 5) {
      const i = first[x];
      const sum =
        accumulator[i] * weight[w] + accumulator[i + 1] * weight[w + 1] + accumulator[i + 2] * weight[w + 2] +
        accumulator[i + 3] * weight[w + 3] + accumulator[i + 4] * weight[w + 4];
      out[outRow + x] = (sum * scale + 0.5) | 0;
    }
  } else {
    for (let x = 0, w = 0; x < outWidth; x++, w += taps) {
      const i = first[x];
      let sum = 0;
      for (let t = 0; t < taps; t++) sum += accumulator[i + t] * weight[w + t];
      out[outRow + x] = (sum * scale + 0.5) | 0;
    }
  }
}

interface AreaWeights {
  /** Every output sample reads `taps` consecutive source samples from first[i]... */
  taps: number;
  first: Int32Array;
  /** ...with these weights (taps per output, 2^16 = the whole output pixel, summing to 2^16). */
  weight: Int32Array;
}

/** Which source pixels cover each output pixel of a 1-D shrink, and by how much. */
function areaWeights(inSize: number, outSize: number): AreaWeights {
  const ratio = inSize / outSize;
  const taps = Math.min(inSize, Math.ceil(ratio) + 1);
  const first = new Int32Array(outSize);
  const weight = new Int32Array(outSize * taps);
  for (let o = 0; o < outSize; o++) {
    const from = o * ratio;
    const to = Math.min(inSize, (o + 1) * ratio);
    // The window of taps starts at the first covered pixel, moved left at the far edge so it
    // never reads past the end (the extra taps get weight 0).
    const start = Math.min(Math.floor(from), inSize - taps);
    first[o] = start;
    let assigned = 0;
    let largest = o * taps;
    for (let t = 0; t < taps; t++) {
      const i = start + t;
      const covered = Math.max(0, Math.min(to, i + 1) - Math.max(from, i));
      const w = Math.round((covered / ratio) * 65536);
      weight[o * taps + t] = w;
      assigned += w;
      if (w > weight[largest]) largest = o * taps + t;
    }
    // Rounding leftovers go to the largest tap so a flat area stays exactly flat.
    weight[largest] += 65536 - assigned;
  }
  return { taps, first, weight };
}

/** The weight of source sample i in output sample o (0 when it does not cover it). */
function coverage(weights: AreaWeights, o: number, i: number): number {
  const t = i - weights.first[o];
  return t >= 0 && t < weights.taps ? weights.weight[o * weights.taps + t] : 0;
}

/** One past the last source sample with weight in output sample o. */
function lastSourceRow(weights: AreaWeights, o: number, inSize: number): number {
  let end = weights.first[o] + weights.taps;
  while (end > weights.first[o] && weights.weight[o * weights.taps + end - 1 - weights.first[o]] === 0) end--;
  return Math.min(inSize, end);
}


/**
 * A plane brought to exactly outWidth x outHeight whichever way: area-averaged where it shrinks,
 * bilinear where it grows (chroma read at block scale is smaller than the analysis grid).
 */
export function resampleTo(image: GrayPlane, outWidth: number, outHeight: number): GrayPlane {
  if (image.width >= outWidth && image.height >= outHeight) return areaResize(image, outWidth, outHeight);
  const { width, height, data } = image;
  const out = new Uint8Array(outWidth * outHeight);
  // Each output column's two source columns and weight, worked out once for all rows; each source
  // row interpolated across once and kept while the output rows between it and the next need it.
  // The same sums in the same order as per pixel: the result is byte for byte the same.
  const { left, right, rightWeight } = bilinearTaps(width, outWidth);
  const rows = bilinearTaps(height, outHeight);
  let upper = new Float64Array(outWidth);
  let lower = new Float64Array(outWidth);
  let upperRow = -1;
  let lowerRow = -1;
  for (let y = 0; y < outHeight; y++) {
    const y0 = rows.left[y];
    const y1 = rows.right[y];
    if (upperRow !== y0) {
      if (lowerRow === y0) {
        [upper, lower] = [lower, upper];
        lowerRow = -1;
      } else interpolateRow(data, y0 * width, left, right, rightWeight, upper);
      upperRow = y0;
    }
    if (lowerRow !== y1) {
      interpolateRow(data, y1 * width, left, right, rightWeight, lower);
      lowerRow = y1;
    }
    blendRows(upper, lower, rows.rightWeight[y], out, y * outWidth);
  }
  return { data: out, width: outWidth, height: outHeight };
}

/** Bilinear interpolation from `inSize` samples to `outSize` (centres aligned): each output sample's two source samples and the right one's weight. */
export function bilinearTaps(inSize: number, outSize: number): { left: Int32Array; right: Int32Array; rightWeight: Float64Array } {
  const left = new Int32Array(outSize);
  const right = new Int32Array(outSize);
  const rightWeight = new Float64Array(outSize);
  const step = inSize / outSize;
  for (let o = 0; o < outSize; o++) {
    const at = Math.min(inSize - 1, Math.max(0, (o + 0.5) * step - 0.5));
    left[o] = Math.floor(at);
    right[o] = Math.min(inSize - 1, left[o] + 1);
    rightWeight[o] = at - left[o];
  }
  return { left, right, rightWeight };
}

/** A source row (at offset `start`) interpolated to the output's columns. */
function interpolateRow(data: Uint8Array, start: number, left: Int32Array, right: Int32Array, rightWeight: Float64Array, into: Float64Array): void {
  for (let x = 0; x < into.length; x++) {
    const wx = rightWeight[x];
    into[x] = data[start + left[x]] * (1 - wx) + data[start + right[x]] * wx;
  }
}

/** An output row: `wy` of the way from the upper interpolated row to the lower. */
function blendRows(upper: Float64Array, lower: Float64Array, wy: number, out: Uint8Array, start: number): void {
  for (let x = 0; x < upper.length; x++) out[start + x] = Math.round(upper[x] * (1 - wy) + lower[x] * wy);
}
