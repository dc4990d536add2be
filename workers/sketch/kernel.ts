/**
 * The sketch kernel: a grey photo in, a black-and-white colouring page out.
 *
 * Pure TypeScript over typed arrays (no Worker APIs), so it runs the same in workerd, in the
 * Node benchmark (bench/run.mjs) and in unit tests. The recipe (DESIGN.md section 5; the
 * choices are in docs/decisions/004-sketch-kernel.md):
 *
 *   grey plane → area downscale to the print size (long edge ≤ 3300 px)
 *   → tone curve (stretch a dull or dark photo to the full range)
 *   → colour dodge of the lightly smoothed grey over its Gaussian blur
 *   → darkened where the Sobel edge magnitude is strong → levels
 *   → cleanup: erase specks and faint smudges, paper lighter than a mark becomes pure white.
 *
 * Speed: both Gaussians are computed on area-reduced planes (the blurred planes are band-limited
 * far below the reduced Nyquist frequency, so nothing visible is lost) with stacked box blurs
 * whose cost does not depend on sigma; the page is then made in one fused pass at full
 * resolution that upsamples both planes a row at a time, applies Sobel on three rolling rows,
 * the dodge and the levels. Planes are Uint16 in 8.8 fixed point; scratch rows are allocated
 * once per call, never inside a loop.
 */
import { PRINT_LONG_EDGE_PX } from "../../app/lib/constants";

/** One byte per pixel, row-major, 0 = black ink, 255 = white paper. */
export interface GrayPlane {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The look of the page. Chosen by eye on the contact sheet (`npm run bench`) and checked by the
 * quality score; the float reference in test/sketch/kernel-reference.ts reads the same values.
 */
export const SKETCH_TUNING = {
  /** Blur sigma = long edge / this, so the drawing looks the same at every resolution. */
  blurSigmaDivisor: 200,
  minBlurSigma: 1.5,
  maxBlurSigma: 24,
  /** The grey is smoothed by sigma = long edge / this before the dodge and Sobel (≈ 0.25 mm). */
  edgeSigmaDivisor: 1100,
  maxEdgeSigma: 4,
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
  /** A pixel darker than this is a mark on the paper; lighter ones become pure white. */
  markLevel: 224,
  /** A mark with no pixel darker than this is a smudge, not a line, and is erased. */
  faintLevel: 150,
  /** Marks of fewer pixels than a square of this side (print pixels, 300 dpi) are specks. */
  speckSidePrintPx: 8,
} as const;

export type SketchTuning = { readonly [Name in keyof typeof SKETCH_TUNING]: number };

/** Rec. 601 luma weights in 1/256ths (77 + 150 + 29 = 256), so grey needs integer maths only. */
const LUMA_R = 77;
const LUMA_G = 150;
const LUMA_B = 29;

/**
 * RGBA (4 bytes per pixel) to one grey byte per pixel, for callers that still hold RGBA.
 * Transparent pixels become white paper, as they would print.
 */
export function rgbaToGray(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GrayPlane {
  const count = width * height;
  if (rgba.length < count * 4) throw new RangeError(`expected ${count * 4} RGBA bytes, got ${rgba.length}`);
  const data = new Uint8Array(count);
  for (let i = 0, p = 0; i < count; i++, p += 4) {
    const luma = (LUMA_R * rgba[p] + LUMA_G * rgba[p + 1] + LUMA_B * rgba[p + 2] + 128) >> 8;
    const alpha = rgba[p + 3];
    data[i] = alpha === 255 ? luma : ((luma * alpha + 255 * (255 - alpha) + 127) / 255) | 0;
  }
  return { data, width, height };
}

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
    if (here > 0) {
      addRow(accumulator, source, row, inWidth, here, empty);
      empty = false;
    }
    if (there > 0) {
      addRow(nextAccumulator, source, row, inWidth, there, nextEmpty);
      nextEmpty = false;
    }
    // Output row outY is complete once its last source row is in.
    if (y + 1 >= rowEnd && finishOutputRow()) break;
  }
  return { data: out, width: outWidth, height: outHeight };
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

/** Blur radius of the dodge, proportional to the image so the look does not depend on size. */
export function blurSigmaFor(width: number, height: number, tuning: SketchTuning = SKETCH_TUNING): number {
  const sigma = Math.max(width, height) / tuning.blurSigmaDivisor;
  return Math.min(tuning.maxBlurSigma, Math.max(tuning.minBlurSigma, sigma));
}

/**
 * Smoothing before the dodge and the Sobel operator: proportional to the page, more on a noisy
 * photo (noise = its standard deviation in grey levels per working pixel); under 1 px, none.
 */
export function edgeSigmaFor(width: number, height: number, noise = 0, tuning: SketchTuning = SKETCH_TUNING): number {
  const sigma = Math.min(
    tuning.maxEdgeSigma,
    Math.max(Math.max(width, height) / tuning.edgeSigmaDivisor, noise * tuning.noiseSmoothing),
  );
  return sigma < 1 ? 0 : sigma;
}

/**
 * Standard deviation of the photo's noise in grey levels (J. Immerkær, "Fast noise variance
 * estimation", 1996: the mean absolute response to a mask that cancels edges and gradients),
 * over at most about a million pixels (every few rows of a large photo).
 */
export function estimateNoise({ data, width, height }: GrayPlane): number {
  if (width < 3 || height < 3) return 0;
  const step = Math.max(1, Math.floor((width * height) / 1_000_000));
  let sum = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y += step) {
    const row = y * width;
    for (let i = row + 1, end = row + width - 1; i < end; i++) {
      const up = i - width;
      const down = i + width;
      const response =
        data[up - 1] - 2 * data[up] + data[up + 1] - 2 * data[i - 1] + 4 * data[i] - 2 * data[i + 1] +
        data[down - 1] - 2 * data[down] + data[down + 1];
      sum += response < 0 ? -response : response;
    }
    count += width - 2;
  }
  return (Math.sqrt(Math.PI / 2) * sum) / (6 * count);
}

/** Speck size in pixels at this resolution: a square of speckSidePrintPx print pixels. */
export function speckPixelsFor(width: number, height: number, tuning: SketchTuning = SKETCH_TUNING): number {
  const side = (tuning.speckSidePrintPx * Math.max(width, height)) / PRINT_LONG_EDGE_PX;
  return Math.max(2, Math.round(side * side));
}

/**
 * The tone curve as a 256-entry table: the toneLow/HighPercentile greys are stretched toward 0
 * and 255 (gain capped at maxToneGain, centred on their midpoint), then a gamma lifts a photo
 * whose median is still below mid-grey. Computed from the histogram of the working grey.
 */
export function toneCurve(histogram: ArrayLike<number>, tuning: SketchTuning = SKETCH_TUNING): Uint8Array {
  let total = 0;
  for (let v = 0; v < 256; v++) total += histogram[v];
  const percentile = (fraction: number) => {
    const target = fraction * total;
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v];
      if (seen > target) return v;
    }
    return 255;
  };
  const low = percentile(tuning.toneLowPercentile);
  const high = percentile(tuning.toneHighPercentile);
  const median = percentile(0.5);
  const gain = Math.min(tuning.maxToneGain, 255 / Math.max(1, high - low));
  const middle = (low + high) / 2;
  const stretch = (v: number) => Math.min(255, Math.max(0, (v - middle) * gain + 127.5));
  const stretchedMedian = stretch(median) / 255;
  const gamma =
    stretchedMedian > 0 && stretchedMedian < 0.5
      ? Math.max(tuning.minToneGamma, Math.log(0.5) / Math.log(Math.max(stretchedMedian, 1e-3)))
      : 1;
  const curve = new Uint8Array(256);
  for (let v = 0; v < 256; v++) curve[v] = Math.round(255 * Math.pow(stretch(v) / 255, gamma));
  return curve;
}

/**
 * Widths of `passes` stacked box filters whose combined variance matches a Gaussian of the
 * given sigma (W. Wells, "Efficient synthesis of Gaussian filters by cascaded uniform filters",
 * 1986; some boxes of odd width w, the rest w + 2).
 */
export function boxWidthsForGaussian(sigma: number, passes = 3): number[] {
  const variance = sigma * sigma;
  const ideal = Math.sqrt((12 * variance) / passes + 1);
  let lower = Math.floor(ideal);
  if (lower % 2 === 0) lower--;
  lower = Math.max(1, lower);
  const upper = lower + 2;
  // A box of odd width w has variance (w² - 1) / 12; choose how many use `lower`.
  const lowerCount = Math.min(
    passes,
    Math.max(0, Math.round((12 * variance - passes * upper * upper + passes) / (lower * lower - upper * upper))),
  );
  const widths: number[] = [];
  for (let i = 0; i < passes; i++) widths.push(i < lowerCount ? lower : upper);
  return widths;
}

/** A Uint16 plane in 8.8 fixed point (value × 256), at a reduced resolution. */
interface FixedPlane {
  data: Uint16Array;
  width: number;
  height: number;
  /** Working-resolution pixels per plane pixel (along both axes). */
  scale: number;
}

/** The smallest sigma, in reduced pixels, the stacked boxes still approximate well. */
const MIN_REDUCED_SIGMA = 1.2;

/**
 * The largest reduction (1, 2, 4, ... 16) at which a Gaussian of this sigma can still be made:
 * the block average (variance (k² - 1) / 12) and the bilinear upsampling (k² / 6) blur too, so
 * what is left for the boxes must stay at least MIN_REDUCED_SIGMA at the reduced scale.
 */
export function reductionFor(sigma: number): number {
  let factor = 1;
  while (factor < 16 && reducedSigma(sigma, factor * 2) >= MIN_REDUCED_SIGMA) factor *= 2;
  return factor;
}

/** What is left of sigma (in reduced pixels) after averaging and upsampling at this scale. */
function reducedSigma(sigma: number, scale: number): number {
  if (scale <= 1) return sigma;
  const variance = sigma * sigma - (scale * scale - 1) / 12 - (scale * scale) / 6;
  return variance > 0 ? Math.sqrt(variance) / scale : 0;
}

/** Means of factor × factor blocks (a partial block at the right or bottom averages what it has). */
function blockMeans(plane: FixedPlane, factor: number): FixedPlane {
  const { width, height, data } = plane;
  if (factor === 1) return { ...plane, data: data.slice() };
  const outWidth = Math.ceil(width / factor);
  const outHeight = Math.ceil(height / factor);
  const out = new Uint16Array(outWidth * outHeight);
  const sums = new Uint32Array(outWidth);
  for (let by = 0; by < outHeight; by++) {
    sums.fill(0);
    const yEnd = Math.min(height, (by + 1) * factor);
    for (let y = by * factor; y < yEnd; y++) {
      const row = y * width;
      for (let x = 0; x < width; x++) sums[(x / factor) | 0] += data[row + x];
    }
    const blockHeight = yEnd - by * factor;
    const outRow = by * outWidth;
    for (let bx = 0; bx < outWidth; bx++) {
      const blockWidth = Math.min(width, (bx + 1) * factor) - bx * factor;
      out[outRow + bx] = (sums[bx] / (blockWidth * blockHeight) + 0.5) | 0;
    }
  }
  return { data: out, width: outWidth, height: outHeight, scale: plane.scale * factor };
}

/** Gaussian blur in place by stacked running-sum boxes: cost per pixel independent of sigma. */
function gaussianInPlace(plane: FixedPlane, sigma: number): void {
  if (sigma < 1) return;
  const { width, height } = plane;
  let current: Uint16Array = plane.data;
  let next: Uint16Array = new Uint16Array(current.length);
  const widths = boxWidthsForGaussian(sigma);
  if (widths.every((w) => w === 3) && widths.length === 3 && width >= 4 && height >= 4) {
    // Three boxes of width 3 (the edge smoothing at print size) are one 7-tap kernel
    // [1 3 6 7 6 3 1] / 27: one direct pass per axis instead of three running sums.
    sevenTapRows(current, next, width, height);
    sevenTapColumns(next, current, width, height);
    return;
  }
  for (const boxWidth of widths) {
    boxBlurRows(current, next, width, height, boxWidth >> 1);
    [current, next] = [next, current];
  }
  const columnSums = new Int32Array(width);
  for (const boxWidth of widths) {
    boxBlurColumns(current, next, width, height, boxWidth >> 1, columnSums);
    [current, next] = [next, current];
  }
  plane.data = current;
}

/** Rows convolved with [1 3 6 7 6 3 1] / 27, edges repeated. */
function sevenTapRows(src: Uint16Array, dst: Uint16Array, width: number, height: number): void {
  const padded = new Int32Array(width + 6);
  const reciprocal = 1 / 27;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) padded[x + 3] = src[row + x];
    padded[0] = padded[1] = padded[2] = padded[3];
    padded[width + 3] = padded[width + 4] = padded[width + 5] = padded[width + 2];
    let a = padded[0], b = padded[1], c = padded[2], d = padded[3], e = padded[4], f = padded[5];
    for (let x = 0; x < width; x++) {
      const g = padded[x + 6];
      dst[row + x] = ((a + g + 3 * (b + f) + 6 * (c + e) + 7 * d) * reciprocal + 0.5) | 0;
      a = b; b = c; c = d; d = e; e = f; f = g;
    }
  }
}

/** Columns convolved with [1 3 6 7 6 3 1] / 27, edges repeated; row-major sweep. */
function sevenTapColumns(src: Uint16Array, dst: Uint16Array, width: number, height: number): void {
  const reciprocal = 1 / 27;
  const last = height - 1;
  for (let y = 0; y < height; y++) {
    const r0 = Math.max(0, y - 3) * width;
    const r1 = Math.max(0, y - 2) * width;
    const r2 = Math.max(0, y - 1) * width;
    const r3 = y * width;
    const r4 = Math.min(last, y + 1) * width;
    const r5 = Math.min(last, y + 2) * width;
    const r6 = Math.min(last, y + 3) * width;
    for (let x = 0; x < width; x++) {
      const sum = src[r0 + x] + src[r6 + x] + 3 * (src[r1 + x] + src[r5 + x]) + 6 * (src[r2 + x] + src[r4 + x]) + 7 * src[r3 + x];
      dst[r3 + x] = (sum * reciprocal + 0.5) | 0;
    }
  }
}

/** Running-sum box blur along rows; the interior loop has no border arithmetic. */
function boxBlurRows(src: Uint16Array, dst: Uint16Array, width: number, height: number, radius: number): void {
  if (radius === 0) {
    dst.set(src);
    return;
  }
  const reciprocal = 1 / (2 * radius + 1);
  const interiorEnd = width - radius - 1; // x + radius + 1 < width up to here
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const first = src[row];
    const last = src[row + width - 1];
    let sum = (radius + 1) * first;
    for (let i = 1; i <= radius; i++) sum += i < width ? src[row + i] : last;
    let x = 0;
    for (; x <= radius && x < width; x++) {
      dst[row + x] = (sum * reciprocal + 0.5) | 0;
      const entering = x + radius + 1;
      sum += (entering < width ? src[row + entering] : last) - first;
    }
    for (; x < interiorEnd; x++) {
      dst[row + x] = (sum * reciprocal + 0.5) | 0;
      sum += src[row + x + radius + 1] - src[row + x - radius];
    }
    for (; x < width; x++) {
      dst[row + x] = (sum * reciprocal + 0.5) | 0;
      const entering = x + radius + 1;
      sum += (entering < width ? src[row + entering] : last) - src[row + x - radius];
    }
  }
}

/** Column box blur kept row-major: one running sum per column, updated row by row. */
function boxBlurColumns(
  src: Uint16Array,
  dst: Uint16Array,
  width: number,
  height: number,
  radius: number,
  sums: Int32Array,
): void {
  if (radius === 0) {
    dst.set(src);
    return;
  }
  const reciprocal = 1 / (2 * radius + 1);
  const lastRow = (height - 1) * width;
  for (let x = 0; x < width; x++) {
    let sum = (radius + 1) * src[x];
    for (let i = 1; i <= radius; i++) sum += src[Math.min(i, height - 1) * width + x];
    sums[x] = sum;
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const entering = Math.min(row + (radius + 1) * width, lastRow);
    const leaving = Math.max(row - radius * width, 0);
    for (let x = 0; x < width; x++) {
      dst[row + x] = (sums[x] * reciprocal + 0.5) | 0;
      sums[x] += src[entering + x] - src[leaving + x];
    }
  }
}

interface Taps {
  index: Int32Array;
  /** Of the next sample, in 1/256ths. */
  weight: Int32Array;
}

/**
 * Bilinear sampling positions from a plane at `scale` working pixels per sample back to `size`
 * pixels: working pixel x sits at (x + 0.5) / scale - 0.5 in the plane.
 */
function upsampleTaps(size: number, reducedSize: number, scale: number): Taps {
  const index = new Int32Array(size);
  const weight = new Int32Array(size);
  for (let x = 0; x < size; x++) {
    const position = Math.min(reducedSize - 1, Math.max(0, (x + 0.5) / scale - 0.5));
    const i = Math.min(reducedSize - 2, Math.floor(position));
    if (i < 0) continue; // a one-sample plane: index 0, weight 0
    index[x] = i;
    weight[x] = Math.round((position - i) * 256);
  }
  return { index, weight };
}

/**
 * Rows of a reduced plane upsampled along x to the working width, kept two at a time: the pair
 * of plane rows that working row y blends. Working rows are made in order, so each plane row is
 * upsampled along x once, however many working rows read it. Values are 8.8 × 16 (bilinear
 * weights in 1/256ths, then ÷ 16 rounded), so the blend along y stays in Int32.
 */
class UpsampledRows {
  top: Int32Array;
  bottom: Int32Array;
  private topIndex = -1;
  private bottomIndex = -1;

  constructor(
    private readonly plane: FixedPlane,
    private readonly columns: Taps,
    private readonly width: number,
  ) {
    this.top = new Int32Array(width);
    this.bottom = new Int32Array(width);
  }

  /** Makes `top` plane row i and `bottom` plane row i + 1 (the last row for a one-row plane). */
  select(i: number): void {
    const j = Math.min(i + 1, this.plane.height - 1);
    if (this.topIndex === i && this.bottomIndex === j) return;
    if (this.bottomIndex === i) {
      const t = this.top;
      this.top = this.bottom;
      this.bottom = t;
      this.topIndex = i;
      this.bottomIndex = -1;
    } else if (this.topIndex !== i) {
      this.fill(this.top, i);
      this.topIndex = i;
    }
    if (this.bottomIndex !== j) {
      this.fill(this.bottom, j);
      this.bottomIndex = j;
    }
  }

  private fill(out: Int32Array, y: number): void {
    const { data, width: reducedWidth } = this.plane;
    const row = y * reducedWidth;
    const index = this.columns.index;
    const weight = this.columns.weight;
    const next = reducedWidth > 1 ? 1 : 0;
    const width = this.width;
    for (let x = 0; x < width; x++) {
      const i = row + index[x];
      const wx = weight[x];
      out[x] = (data[i] * (256 - wx) + data[i + next] * wx + 8) >> 4;
    }
  }
}

/** out[x] (x < width) = top and bottom blended by weight / 256, back to 8.8. */
function blendRows(top: Int32Array, bottom: Int32Array, weight: number, out: Int32Array, offset: number, width: number): void {
  const wTop = 256 - weight;
  for (let x = 0; x < width; x++) out[offset + x] = (top[x] * wTop + bottom[x] * weight + 2048) >> 12;
}

/** What the cleanup found on the page; the quality score reads it. */
export interface PageStats {
  /** Ink pixels (darker than mid-grey) left on the page. */
  inkPixels: number;
  /** Of those, in marks at least 10 specks big: lines, not fragments. */
  lineInkPixels: number;
  /** Marks erased for being smaller than a speck. */
  specksRemoved: number;
  /** Marks erased for having no dark pixel (smudges, fog). */
  smudgesRemoved: number;
  /** Marks kept. */
  marks: number;
}

export interface KernelResult {
  /** The finished page: the photo's aspect, long edge at most maxLongEdge. */
  sketch: GrayPlane;
  stats: PageStats;
  /** Blur and smoothing sigmas used, in working pixels, and the noise estimate. */
  blurSigma: number;
  edgeSigma: number;
  noise: number;
}

/** The kernel for callers that still hold RGBA (tests, older decoders). */
export function photoToSketch(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  maxLongEdge: number = PRINT_LONG_EDGE_PX,
  tuning: SketchTuning = SKETCH_TUNING,
): KernelResult {
  return grayToSketch(rgbaToGray(rgba, width, height), maxLongEdge, tuning);
}

/** Histogram of the grey, every few rows of a large photo (about a million pixels). */
function histogramOf({ data, width, height }: GrayPlane): Float64Array {
  const histogram = new Float64Array(256);
  const step = Math.max(1, Math.floor((width * height) / 1_000_000));
  for (let y = 0; y < height; y += step) {
    for (let i = y * width, end = i + width; i < end; i++) histogram[data[i]]++;
  }
  return histogram;
}

/**
 * The kernel's entry point: a decoded grey plane of any size in, the page at print size out.
 *
 * The page at working resolution W x H (the photo fitted to maxLongEdge) is a function of two
 * low-frequency planes only: the grey smoothed by edgeSigma and the grey blurred by blurSigma.
 * Both are computed at reduced resolution straight from the decoded plane (one area-average
 * pass), then upsampled a row at a time inside the fused pass that makes the page.
 *
 * Colour dodge is grey * 255 / (255 - blur(255 - grey)); since the blur kernel sums to one,
 * 255 - blur(255 - grey) = blur(grey), so the grey itself is blurred and no inverted plane is
 * made. The grey on top of the ratio is the smoothed one (the plane Sobel reads: finer detail
 * at print size is sensor noise), and dodgeOffset steadies the ratio in deep shadows.
 */
let stageClock: ((stage: string) => void) | null = null;

/** For the benchmark (bench/kernel-only.mjs): called after each kernel stage with its name. */
export function onKernelStage(clock: ((stage: string) => void) | null): void {
  stageClock = clock;
}

export function grayToSketch(
  gray: GrayPlane,
  maxLongEdge: number = PRINT_LONG_EDGE_PX,
  tuning: SketchTuning = SKETCH_TUNING,
): KernelResult {
  const { width, height } = fitWithin(gray.width, gray.height, maxLongEdge);
  const curve = toneCurve(histogramOf(gray), tuning);
  stageClock?.("tone");
  // Noise per working pixel: averaging n x n source pixels divides it by n.
  const noise = (estimateNoise(gray) * height) / gray.height;
  stageClock?.("noise");
  const edgeSigma = edgeSigmaFor(width, height, noise, tuning);
  const blurSigma = blurSigmaFor(width, height, tuning);

  // The base plane: the toned grey at the smoothed plane's reduction (1 or 2).
  const baseFactor = Math.min(2, reductionFor(edgeSigma));
  const baseWidth = Math.ceil(width / baseFactor);
  const baseHeight = Math.ceil(height / baseFactor);
  const reduced = areaResize(gray, baseWidth, baseHeight);
  stageClock?.("area");
  const baseData = new Uint16Array(baseWidth * baseHeight);
  for (let i = 0; i < baseData.length; i++) baseData[i] = curve[reduced.data[i]] << 8;
  const base: FixedPlane = { data: baseData, width: baseWidth, height: baseHeight, scale: width / baseWidth };
  stageClock?.("toned");

  const blurFactor = Math.max(1, reductionFor(blurSigma) / baseFactor);
  const blurred = blockMeans(base, blurFactor);
  stageClock?.("blocks");
  gaussianInPlace(blurred, reducedSigma(blurSigma, blurred.scale));
  stageClock?.("blur");
  const smoothed = base; // blurred last, in place: blockMeans read it unsmoothed
  gaussianInPlace(smoothed, reducedSigma(edgeSigma, smoothed.scale));
  stageClock?.("smooth");

  const page = new Uint8Array(width * height);
  renderPage(page, width, height, smoothed, blurred, edgeSigma, tuning);
  stageClock?.("render");
  const sketch = { data: page, width, height };
  const stats = cleanPage(sketch, tuning, true);
  stageClock?.("cleanup");
  return { sketch, stats, blurSigma, edgeSigma, noise };
}

/**
 * The fused pass: upsample both planes a row at a time, dodge, Sobel, levels. Pixels as light as
 * a mark's threshold or lighter are written as white paper (what the cleanup would make them).
 */
function renderPage(
  page: Uint8Array,
  width: number,
  height: number,
  smoothed: FixedPlane,
  blurred: FixedPlane,
  edgeSigma: number,
  tuning: SketchTuning,
): void {
  const smoothedRows = upsampleTaps(height, smoothed.height, smoothed.scale);
  const smoothedColumns = new UpsampledRows(smoothed, upsampleTaps(width, smoothed.width, smoothed.scale), width);
  const blurredRows = upsampleTaps(height, blurred.height, blurred.scale);
  const blurredColumns = new UpsampledRows(blurred, upsampleTaps(width, blurred.width, blurred.scale), width);
  // Three rolling rows of the upsampled smoothed plane, one pixel of padding on each side so the
  // Sobel stencil needs no border tests.
  const padded = width + 2;
  let above = new Int32Array(padded);
  let middle = new Int32Array(padded);
  let below = new Int32Array(padded);
  const fillRow = (row: Int32Array, y: number) => {
    smoothedColumns.select(smoothedRows.index[y]);
    blendRows(smoothedColumns.top, smoothedColumns.bottom, smoothedRows.weight[y], row, 1, width);
    row[0] = row[1];
    row[width + 1] = row[width];
  };
  fillRow(middle, 0);
  above.set(middle);
  fillRow(below, Math.min(1, height - 1));

  const offset = tuning.dodgeOffset * 256;
  const levelsScale = 255 / (tuning.levelsWhite - tuning.levelsBlack);
  // Smoothing by sigma lowers a step edge's gradient by about 1/sigma; multiplying by sigma keeps
  // the thresholds meaning the same contrast at every scale. /256 undoes the 8.8 fixed point.
  const gradientScale = Math.max(1, edgeSigma) / 256;
  const edgeLowSquared = (tuning.edgeLow / gradientScale) ** 2;
  const edgeScale = tuning.edgeDarkening / (tuning.edgeHigh - tuning.edgeLow);
  for (let y = 0; y < height; y++) {
    blurredColumns.select(blurredRows.index[y]);
    pageRow(page, y * width, width, above, middle, below, blurredColumns.top, blurredColumns.bottom, blurredRows.weight[y],
      offset, 255 * levelsScale, tuning.levelsBlack * levelsScale, edgeLowSquared, gradientScale, tuning.edgeLow,
      edgeScale, tuning.edgeDarkening, tuning.markLevel);
    const recycled = above;
    above = middle;
    middle = below;
    below = recycled;
    if (y + 2 < height) fillRow(below, y + 2);
    else below.set(middle);
  }
}

/**
 * One row of the page (a function of its own so the JIT optimises it as a whole). The Sobel
 * stencil is separable: per padded column c, V = above + 2 middle + below and D = below - above;
 * gx = V[c+1] - V[c-1], gy = D[c-1] + 2 D[c] + D[c+1]. Two columns are carried in locals, so each
 * pixel reads one new column (three values) and the blurred pair.
 */
function pageRow(
  page: Uint8Array,
  row: number,
  width: number,
  above: Int32Array,
  middle: Int32Array,
  below: Int32Array,
  blurTop: Int32Array,
  blurBottom: Int32Array,
  blurWeight: number,
  offset: number,
  dodgeScale: number,
  blackScaled: number,
  edgeLowSquared: number,
  gradientScale: number,
  edgeLow: number,
  edgeScale: number,
  edgeMax: number,
  markLevel: number,
): void {
  const blurTopWeight = 256 - blurWeight;
  let v0 = above[0] + 2 * middle[0] + below[0];
  let d0 = below[0] - above[0];
  let v1 = above[1] + 2 * middle[1] + below[1];
  let d1 = below[1] - above[1];
  let m1 = middle[1];
  for (let x = 0; x < width; x++) {
    // Column x of the image is index x + 1 of the padded rows.
    const a2 = above[x + 2];
    const m2 = middle[x + 2];
    const b2 = below[x + 2];
    const v2 = a2 + 2 * m2 + b2;
    const d2 = b2 - a2;
    const blur = (blurTop[x] * blurTopWeight + blurBottom[x] * blurWeight + 2048) >> 12;
    // Dodge, then levels, in one step.
    let value = ((m1 + offset) * dodgeScale) / (blur + offset) - blackScaled;
    if (value > 255) value = 255;
    else if (value < 0) value = 0;
    const gx = v2 - v0;
    const gy = d0 + 2 * d1 + d2;
    const squared = gx * gx + gy * gy;
    if (squared > edgeLowSquared) {
      let ink = (Math.sqrt(squared) * gradientScale - edgeLow) * edgeScale;
      if (ink > edgeMax) ink = edgeMax;
      value *= 1 - ink;
    }
    const v = (value + 0.5) | 0;
    page[row + x] = v >= markLevel ? 255 : v;
    v0 = v1;
    v1 = v2;
    d0 = d1;
    d1 = d2;
    m1 = m2;
  }
}

/**
 * Cleanup in place: a mark is an 8-connected set of pixels darker than markLevel. Marks smaller
 * than a speck, and marks with no pixel darker than faintLevel (grey smudges), are erased;
 * every pixel that is not part of a kept mark becomes pure white paper.
 *
 * Connected components by union-find over runs (one run = a horizontal stretch of mark pixels),
 * so memory grows with the number of runs, not with the image.
 */
export function cleanPage(page: GrayPlane, tuning: SketchTuning = SKETCH_TUNING, paperIsWhite = false): PageStats {
  const { width, height, data } = page;
  const markLevel = tuning.markLevel;
  // Paper first: everything lighter than a mark is white (renderPage already wrote it so). Then
  // four white pixels at a time are skipped with one 32-bit read where the rows are aligned.
  if (!paperIsWhite) for (let i = 0; i < data.length; i++) if (data[i] >= markLevel) data[i] = 255;
  const aligned = data.byteOffset % 4 === 0;
  const words = new Uint32Array(data.buffer, data.byteOffset, aligned ? data.length >> 2 : 0);
  let capacity = Math.max(1024, height * 8);
  let runRow = new Int32Array(capacity);
  let runStart = new Int32Array(capacity);
  let runEnd = new Int32Array(capacity); // exclusive
  let parent = new Int32Array(capacity);
  let size = new Int32Array(capacity); // pixels of the component (valid at roots)
  let darkest = new Uint8Array(capacity); // darkest pixel of the component (valid at roots)
  let ink = new Int32Array(capacity); // pixels darker than 128 (valid at roots)
  let runCount = 0;

  let previousFirst = 0;
  let previousEnd = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const rowFirst = runCount;
    let x = 0;
    while (x < width) {
      const i = row + x;
      if ((i & 3) === 0 && aligned && x + 4 <= width && words[i >> 2] === 0xffffffff) {
        x += 4;
        continue;
      }
      if (data[i] >= markLevel) {
        x++;
        continue;
      }
      const start = x;
      let minimum = 255;
      let dark = 0;
      for (; x < width; x++) {
        const v = data[row + x];
        if (v >= markLevel) break;
        if (v < minimum) minimum = v;
        if (v < 128) dark++;
      }
      if (runCount === capacity) {
        capacity *= 2;
        runRow = grow(runRow, capacity);
        runStart = grow(runStart, capacity);
        runEnd = grow(runEnd, capacity);
        parent = grow(parent, capacity);
        size = grow(size, capacity);
        darkest = grow(darkest, capacity);
        ink = grow(ink, capacity);
      }
      runRow[runCount] = y;
      runStart[runCount] = start;
      runEnd[runCount] = x;
      parent[runCount] = runCount;
      size[runCount] = x - start;
      darkest[runCount] = minimum;
      ink[runCount] = dark;
      runCount++;
    }
    // Join with the previous row's runs that touch, diagonals included.
    let p = previousFirst;
    for (let c = rowFirst; c < runCount; c++) {
      while (p < previousEnd && runEnd[p] < runStart[c]) p++;
      for (let q = p; q < previousEnd && runStart[q] <= runEnd[c]; q++) {
        let a = c;
        while (parent[a] !== a) a = parent[a] = parent[parent[a]];
        let b = q;
        while (parent[b] !== b) b = parent[b] = parent[parent[b]];
        if (a === b) continue;
        if (size[a] < size[b]) {
          const t = a;
          a = b;
          b = t;
        }
        parent[b] = a;
        size[a] += size[b];
        ink[a] += ink[b];
        if (darkest[b] < darkest[a]) darkest[a] = darkest[b];
      }
    }
    previousFirst = rowFirst;
    previousEnd = runCount;
  }

  const speck = speckPixelsFor(width, height, tuning);
  const lineSize = 10 * speck;
  const faint = tuning.faintLevel;
  const stats: PageStats = { inkPixels: 0, lineInkPixels: 0, specksRemoved: 0, smudgesRemoved: 0, marks: 0 };
  for (let r = 0; r < runCount; r++) {
    if (parent[r] !== r) continue;
    if (size[r] < speck) stats.specksRemoved++;
    else if (darkest[r] > faint) stats.smudgesRemoved++;
    else {
      stats.marks++;
      stats.inkPixels += ink[r];
      if (size[r] >= lineSize) stats.lineInkPixels += ink[r];
    }
  }

  // Erase the runs of dropped marks.
  for (let r = 0; r < runCount; r++) {
    let root = r;
    while (parent[root] !== root) root = parent[root];
    if (size[root] < speck || darkest[root] > faint) data.fill(255, runRow[r] * width + runStart[r], runRow[r] * width + runEnd[r]);
  }
  return stats;
}

function grow<T extends Int32Array | Uint8Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
