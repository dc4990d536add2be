/**
 * Gaussian blurs on reduced Uint16 8.8 planes: block means down to the largest reduction the
 * sigma allows, then stacked running-sum boxes (cost per pixel independent of sigma).
 */
import type { FixedPlane } from "./plane";

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

/** The smallest sigma, in reduced pixels, the stacked boxes still approximate well. */
const MIN_REDUCED_SIGMA = 1.2;

/**
 * The same for the dodge's wide blur: it only divides the grey (the low frequencies of the
 * page's light), so boxes of 1-3 reduced pixels (a triangle) are smooth enough there. At 1.2 the
 * blur of a 512 px photo (sigma 2.56, 1.19 left at reduction 2) stayed at full resolution, four
 * times the pixels, for a page that looks the same.
 */
const MIN_REDUCED_DODGE_SIGMA = 1;

/**
 * On a small photo's plane the dodge blur goes one reduction further, to 4, while at least this
 * is left (made exactly by smallGaussianInPlace's five taps): the blur of a 600-741 px photo on
 * a sixteenth of the pixels, not a quarter (0.7-1.4 ms less), for a page that changes by a few
 * stray pixels. Not on large photos: at a reduction of 16 instead of 8 the shadow of the boats'
 * shore became a dark band of ink.
 */
const MIN_FINE_DODGE_SIGMA = 0.5;
const MAX_FINE_DODGE_REDUCTION = 4;

/** The dodge's wide blur's reduction (1, 2, 4 ... 16); blur what is left with smallGaussianInPlace. */
export function dodgeReductionFor(blurSigma: number): number {
  const fine = Math.min(MAX_FINE_DODGE_REDUCTION, reductionFor(blurSigma, MIN_FINE_DODGE_SIGMA));
  return Math.max(reductionFor(blurSigma, MIN_REDUCED_DODGE_SIGMA), fine);
}

/**
 * The largest reduction (1, 2, 4, ... 16) at which a Gaussian of this sigma can still be made:
 * the block average (variance (k² - 1) / 12) and the bilinear upsampling (k² / 6) blur too, so
 * what is left for the boxes must stay at least `minReducedSigma` at the reduced scale.
 */
export function reductionFor(sigma: number, minReducedSigma = MIN_REDUCED_SIGMA): number {
  let factor = 1;
  while (factor < 16 && reducedSigma(sigma, factor * 2) >= minReducedSigma) factor *= 2;
  return factor;
}

/** The sigma gaussianInPlace's stacked boxes actually make for this sigma (0 below 1: no blur). */
export function boxStackSigma(sigma: number): number {
  if (sigma < 1) return 0;
  let variance = 0;
  for (const width of boxWidthsForGaussian(sigma)) variance += (width * width - 1) / 12;
  return Math.sqrt(variance);
}

/** What is left of sigma (in reduced pixels) after averaging and upsampling at this scale. */
export function reducedSigma(sigma: number, scale: number): number {
  if (scale <= 1) return sigma;
  const variance = sigma * sigma - (scale * scale - 1) / 12 - (scale * scale) / 6;
  return variance > 0 ? Math.sqrt(variance) / scale : 0;
}

/**
 * Below this edge sigma (working pixels) the smoothed plane stays at full resolution: a 2 × 2
 * block mean and the render pass's bilinear upsampling blur by σ ≈ 0.96 between them, and the
 * rest of the smoothing (σ ≥ 0.45 on the half-size plane) is made by smallGaussianInPlace.
 */
const MIN_SIGMA_FOR_HALF_SIZE_BASE = 1.3;

/**
 * The smoothed plane's reduction, 1 or 2. At 2 the plane, and every stage that reads it (wide
 * blur, coarse outlines, surround), has a quarter of the pixels: a mid-size photo (a 1600 px
 * photo from a messaging app, σ ≈ 1.9) no longer costs more than a print-size one.
 */
export function baseReductionFor(edgeSigma: number): number {
  return edgeSigma >= MIN_SIGMA_FOR_HALF_SIZE_BASE ? 2 : 1;
}

/**
 * A Gaussian of sigma (plane pixels) in place, including the small sigmas that the stacked boxes
 * cannot make: below MIN_REDUCED_SIGMA (1.2) a five-tap Gaussian of exactly that variance, once
 * per axis; nothing below σ 0.35. How much the grey is smoothed decides how much texture the page
 * keeps, so the rest after the block mean is made as asked: the nearest binomial ([1 4 6 4 1] for
 * σ 1.06) brought the pebbles back on a detailed page, and from σ 1 to 1.15 the boxes (widths 1,
 * 3, 3) made 1.155 in six passes where five taps make the σ asked in two (EveningGlow at
 * 1920 x 1200: smoothing 8.4 → 4.3 ms; the 512 px astronaut's dodge blur 0.96 → 0.53 ms).
 */
export function smallGaussianInPlace(plane: FixedPlane, sigma: number): void {
  if (sigma >= MIN_REDUCED_SIGMA) return gaussianInPlace(plane, sigma);
  fiveTapGaussianInPlace(plane, sigma);
}

/** The five-tap Gaussian of exactly sigma² (up to σ 1.2, where its ±2 taps still hold the shape); nothing below σ 0.35. */
function fiveTapGaussianInPlace(plane: FixedPlane, sigma: number): void {
  if (sigma < 0.35 || plane.width < 5 || plane.height < 5) return;
  const { width, height, data } = plane;
  if (blurScratch.length < data.length) blurScratch = new Uint16Array(data.length);
  const scratch = blurScratch.subarray(0, data.length);
  // Integer weights summing to FIVE_TAP_ONE: centre, ±1, ±2. The two outer weights keep the
  // sampled Gaussian's ratio, scaled so the variance (2 near + 8 far) is exactly sigma²: the
  // samples alone fall 5 % short at σ 0.95, where the cut at ±2 bites.
  const farPerNear = Math.exp(-3 / (2 * sigma * sigma));
  const near = (sigma * sigma) / (2 + 8 * farPerNear);
  // Typed as integers (| 0; to V8 Math.round's result is a double): the passes then multiply
  // and add in Int32 (Math.imul), not in doubles converted back for the shift. The sums never
  // leave Int32: the weights total 4096, so a sum is at most 4096 × 65535 < 2^31.
  const weightNear = Math.round(FIVE_TAP_ONE * near) | 0;
  const weightFar = Math.round(FIVE_TAP_ONE * near * farPerNear) | 0;
  const weightCentre = (FIVE_TAP_ONE - 2 * weightNear - 2 * weightFar) | 0;
  for (let y = 0; y < height; y++) fiveTapRow(data, scratch, y * width, width, weightCentre, weightNear, weightFar);
  for (let y = 0; y < height; y++) fiveTapColumnRow(scratch, data, y, width, height, weightCentre, weightNear, weightFar);
}

/** The five-tap weights are in 1/4096ths: a 16-bit 8.8 pixel times them stays within 2^31. */
const FIVE_TAP_ONE = 4096;

/** One row convolved with [far near centre near far] / 4096, edges repeated. */
function fiveTapRow(src: Uint16Array, dst: Uint16Array, row: number, width: number, centre: number, near: number, far: number): void {
  let a = src[row];
  let b = src[row];
  let c = src[row];
  let d = src[row + 1];
  // The interior without a border test per pixel; the last two pixels repeat the edge.
  const interiorEnd = width - 2;
  let x = 0;
  for (; x < interiorEnd; x++) {
    const e = src[(row + x + 2) | 0];
    dst[(row + x) | 0] = (Math.imul(far, (a + e) | 0) + Math.imul(near, (b + d) | 0) + Math.imul(centre, c) + 2048) >> 12;
    a = b;
    b = c;
    c = d;
    d = e;
  }
  const last = src[row + width - 1];
  for (; x < width; x++) {
    dst[row + x] = (far * (a + last) + near * (b + d) + centre * c + 2048) >> 12;
    a = b;
    b = c;
    c = d;
    d = last;
  }
}

/** Row y of the columns convolved with [far near centre near far] / 4096, edges repeated. */
function fiveTapColumnRow(src: Uint16Array, dst: Uint16Array, y: number, width: number, height: number, centre: number, near: number, far: number): void {
  const last = height - 1;
  const r0 = Math.max(0, y - 2) * width;
  const r1 = Math.max(0, y - 1) * width;
  const r2 = y * width;
  const r3 = Math.min(last, y + 1) * width;
  const r4 = Math.min(last, y + 2) * width;
  for (let x = 0; x < width; x++) {
    const outer = (src[(r0 + x) | 0] + src[(r4 + x) | 0]) | 0;
    const inner = (src[(r1 + x) | 0] + src[(r3 + x) | 0]) | 0;
    dst[(r2 + x) | 0] = (Math.imul(far, outer) + Math.imul(near, inner) + Math.imul(centre, src[(r2 + x) | 0]) + 2048) >> 12;
  }
}

/** Means of factor × factor blocks (a partial block at the right or bottom averages what it has). */
export function blockMeans(plane: FixedPlane, factor: number): FixedPlane {
  const { width, height, data } = plane;
  if (factor === 1) return { data: data.slice(), width, height, scale: plane.scale };
  const outWidth = Math.ceil(width / factor);
  const outHeight = Math.ceil(height / factor);
  const out = new Uint16Array(outWidth * outHeight);
  if (factor === 2) {
    // The usual reduction (a small photo's blur and outline planes): each whole 2 x 2 block
    // straight from its two rows, no running sums; the edge blocks as below.
    const pairsWide = width >> 1;
    for (let by = 0; by < height >> 1; by++) pairMeansRow(data, 2 * by * width, width, pairsWide, out, by * outWidth);
    blockEdges(plane, out, outWidth, outHeight);
    return { data: out, width: outWidth, height: outHeight, scale: plane.scale * 2 };
  }
  const sums = new Uint32Array(outWidth);
  for (let by = 0; by < outHeight; by++) {
    sums.fill(0);
    const yEnd = Math.min(height, (by + 1) * factor);
    for (let y = by * factor; y < yEnd; y++) addBlockRow(data, y * width, width, factor, sums);
    blockMeansRow(sums, out, by * outWidth, outWidth, width, factor, yEnd - by * factor);
  }
  return { data: out, width: outWidth, height: outHeight, scale: plane.scale * factor };
}

/** Row `row` and the next: the rounded means of their whole 2 x 2 blocks into out[outRow ..). */
function pairMeansRow(data: Uint16Array, row: number, width: number, pairsWide: number, out: Uint16Array, outRow: number): void {
  const next = row + width;
  for (let bx = 0, i = 0; bx < pairsWide; bx++, i += 2) out[outRow + bx] = (data[row + i] + data[row + i + 1] + data[next + i] + data[next + i + 1] + 2) >> 2;
}

/** The partial blocks of a factor-2 reduction of an odd width or height: the last column and row, averaging what they have. */
function blockEdges({ data, width, height }: FixedPlane, out: Uint16Array, outWidth: number, outHeight: number): void {
  const mean = (bx: number, by: number) => {
    let sum = 0;
    let count = 0;
    for (let y = 2 * by; y < Math.min(height, 2 * by + 2); y++) {
      for (let x = 2 * bx; x < Math.min(width, 2 * bx + 2); x++) {
        sum += data[y * width + x];
        count++;
      }
    }
    return (sum / count + 0.5) | 0;
  };
  if (width & 1) for (let by = 0; by < outHeight; by++) out[by * outWidth + outWidth - 1] = mean(outWidth - 1, by);
  if (height & 1) for (let bx = 0; bx < outWidth; bx++) out[(outHeight - 1) * outWidth + bx] = mean(bx, outHeight - 1);
}

/** One row of block means from its block sums (the last block of a row may be narrower). */
export function blockMeansRow(sums: Uint32Array, out: Uint16Array, outRow: number, outWidth: number, width: number, factor: number, blockHeight: number): void {
  for (let bx = 0; bx < outWidth; bx++) {
    const blockWidth = Math.min(width, (bx + 1) * factor) - bx * factor;
    out[outRow + bx] = (sums[bx] / (blockWidth * blockHeight) + 0.5) | 0;
  }
}

/** sums[bx] += the row's pixels bx × factor .. (bx + 1) × factor - 1 (no division per pixel). */
export function addBlockRow(data: Uint16Array, row: number, width: number, factor: number, sums: Uint32Array): void {
  if (factor === 2) {
    // Pairs without the inner loop (the surround's sampled magnitudes at reduction 4).
    const pairs = width >> 1;
    for (let bx = 0, i = row; bx < pairs; bx++, i += 2) sums[bx] += data[i] + data[i + 1];
    if (width & 1) sums[pairs] += data[row + width - 1];
    return;
  }
  if (factor === 4) {
    // Quads likewise (a 600-741 px photo's dodge blur): no inner loop and no end per block.
    const quads = width >> 2;
    for (let bx = 0, i = row; bx < quads; bx++, i += 4) sums[bx] += data[i] + data[i + 1] + data[i + 2] + data[i + 3];
    for (let x = quads << 2; x < width; x++) sums[quads] += data[row + x];
    return;
  }
  for (let bx = 0, x = 0; x < width; bx++) {
    const end = Math.min(width, x + factor);
    let sum = 0;
    for (; x < end; x++) sum += data[row + x];
    sums[bx] += sum;
  }
}

/** Gaussian blur in place by stacked running-sum boxes: cost per pixel independent of sigma. */
export function gaussianInPlace(plane: FixedPlane, sigma: number): void {
  if (sigma < 1) return;
  const { width, height } = plane;
  let current: Uint16Array = plane.data;
  if (blurScratch.length < current.length) blurScratch = new Uint16Array(current.length);
  let next: Uint16Array = blurScratch.subarray(0, current.length);
  const widths = boxWidthsForGaussian(sigma);
  if (widths.every((w) => w === 3) && widths.length === 3 && width >= 4 && height >= 4) {
    // Three boxes of width 3 (the edge smoothing at print size) are one 7-tap kernel
    // [1 3 6 7 6 3 1] / 27: one direct pass per axis instead of three running sums.
    sevenTapRows(current, next, width, height, BOXES_OF_THREE);
    sevenTapColumns(next, current, width, height, BOXES_OF_THREE);
    return;
  }
  // A box of width 1 (the narrowest sigmas: 1, 3, 3) is the identity: skipped, not copied.
  for (const boxWidth of widths) {
    if (boxWidth === 1) continue;
    boxBlurRows(current, next, width, height, boxWidth >> 1);
    [current, next] = [next, current];
  }
  const columnSums = new Int32Array(width);
  for (const boxWidth of widths) {
    if (boxWidth === 1) continue;
    boxBlurColumns(current, next, width, height, boxWidth >> 1, columnSums);
    [current, next] = [next, current];
  }
  // An even number of passes ends in the plane's own array; were it odd, the result is copied
  // back rather than leaving the plane on the shared scratch.
  if (current !== plane.data) plane.data.set(current);
}

/**
 * The other half of each box pass's ping-pong, kept for the isolate's life and grown as needed:
 * a plane-sized allocation and zero-fill less per blur (three blurs per photo).
 */
let blurScratch = new Uint16Array(0);

/**
 * A symmetric 7-tap kernel as integer weights (centre, ±1, ±2, ±3) and their sum's reciprocal:
 * the direct passes below round once per axis.
 */
interface SevenTaps {
  centre: number;
  one: number;
  two: number;
  three: number;
  reciprocal: number;
}

/** Three boxes of width 3: [1 3 6 7 6 3 1] / 27. */
const BOXES_OF_THREE: SevenTaps = { centre: 7, one: 6, two: 3, three: 1, reciprocal: 1 / 27 };

/** Rows convolved with the 7-tap kernel, edges repeated. */
function sevenTapRows(src: Uint16Array, dst: Uint16Array, width: number, height: number, taps: SevenTaps): void {
  const padded = new Int32Array(width + 6);
  const { centre, one, two, three, reciprocal } = taps;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) padded[x + 3] = src[row + x];
    padded[0] = padded[1] = padded[2] = padded[3];
    padded[width + 3] = padded[width + 4] = padded[width + 5] = padded[width + 2];
    let a = padded[0], b = padded[1], c = padded[2], d = padded[3], e = padded[4], f = padded[5];
    for (let x = 0; x < width; x++) {
      const g = padded[x + 6];
      dst[row + x] = ((three * (a + g) + two * (b + f) + one * (c + e) + centre * d) * reciprocal + 0.5) | 0;
      a = b; b = c; c = d; d = e; e = f; f = g;
    }
  }
}

/** Columns convolved with the 7-tap kernel, edges repeated; row-major sweep. */
function sevenTapColumns(src: Uint16Array, dst: Uint16Array, width: number, height: number, taps: SevenTaps): void {
  const { centre, one, two, three, reciprocal } = taps;
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
      const sum = three * (src[r0 + x] + src[r6 + x]) + two * (src[r1 + x] + src[r5 + x]) + one * (src[r2 + x] + src[r4 + x]) + centre * src[r3 + x];
      dst[r3 + x] = (sum * reciprocal + 0.5) | 0;
    }
  }
}

/** Running-sum box blur along rows. */
function boxBlurRows(src: Uint16Array, dst: Uint16Array, width: number, height: number, radius: number): void {
  if (radius === 0) {
    dst.set(src);
    return;
  }
  for (let y = 0; y < height; y++) boxBlurRow(src, dst, y * width, width, radius);
}

/**
 * One row of boxBlurRows; the interior loop has no border arithmetic. The loops over a plane's
 * pixels are in functions called per row throughout this file: compiled once and early, not on
 * the spot (on-stack replacement) in a function called a few times per photo, for every photo
 * again until it is optimised whole.
 */
function boxBlurRow(src: Uint16Array, dst: Uint16Array, row: number, width: number, radius: number): void {
  const reciprocal = 1 / (2 * radius + 1);
  const interiorEnd = width - radius - 1; // x + radius + 1 < width up to here
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
    columnBoxRow(src, dst, sums, row, Math.min(row + (radius + 1) * width, lastRow), Math.max(row - radius * width, 0), width, reciprocal);
  }
}

/** Row `row` of boxBlurColumns from the running column sums, which then move down a row. */
function columnBoxRow(src: Uint16Array, dst: Uint16Array, sums: Int32Array, row: number, entering: number, leaving: number, width: number, reciprocal: number): void {
  for (let x = 0; x < width; x++) {
    dst[row + x] = (sums[x] * reciprocal + 0.5) | 0;
    sums[x] += src[entering + x] - src[leaving + x];
  }
}

/** A 2 x 2 block mean blurs by this variance along each axis, in plane pixels² ((2² - 1) / 12). */
const PAIR_MEAN_VARIANCE = 0.25;

/**
 * The plane blurred by a Gaussian of sigma (plane pixels, about 1-2) on a half grid: means of
 * 2 x 2 blocks, then the rest of the variance on the quarter-size plane (smallGaussianInPlace).
 * Cell (x, y) is the blur at pixel (2x + 0.5, 2y + 0.5). For the coarse outlines of a small
 * photo; blurring at full size and keeping every second sample, as before, cost five times as
 * much (an 11-tap pass over every column).
 */
export function halfGridGaussian(plane: FixedPlane, sigma: number): FixedPlane {
  const half = blockMeans(plane, 2);
  // The rest is 0.5-1.2 half-grid pixels: five exact taps. Stacked boxes make σ 0.82 of the 1.05
  // a 600 px photo asks for, and the too-sharp grid broke the dark coffee's faint rims into
  // pieces its hysteresis dropped (outlines at simple 96 → 84 %).
  const rest = Math.sqrt(Math.max(0, sigma * sigma - PAIR_MEAN_VARIANCE)) / 2;
  if (rest < MIN_REDUCED_SIGMA) fiveTapGaussianInPlace(half, rest);
  else gaussianInPlace(half, rest);
  return half;
}
