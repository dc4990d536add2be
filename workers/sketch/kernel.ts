/**
 * The sketch kernel: turns decoded RGBA pixels into a black-and-white line drawing.
 *
 * Pure TypeScript over typed arrays (no Worker APIs), so it runs the same in workerd, in Node
 * benchmarks and in unit tests. The recipe (DESIGN.md section 5):
 *
 *   RGBA → grey (Uint8) → area-average downscale to the print size (long edge ≤ 3300 px)
 *   → colour dodge of the (lightly smoothed) grey over its inverted Gaussian blur
 *   → darken where the Sobel edge magnitude is strong → levels → 8-bit grey page.
 *
 * Performance notes for the next pass (target > 55 MP/s, < 100 MB): every stage is a separate
 * full-image loop over Uint8/Uint16 planes, with clamped-border index arithmetic in the inner
 * loops. Splitting border and interior loops, fusing the Sobel and combine passes and working in
 * row strips are the obvious next steps; the tests compare against a float reference, so those
 * changes are safe to make.
 */
import { PRINT_LONG_EDGE_PX } from "../../app/lib/constants";

export interface GrayImage {
  width: number;
  height: number;
  /** Row-major, one byte per pixel, 0 = black ink, 255 = white paper. */
  pixels: Uint8Array;
}

/**
 * The look of the page. Chosen by eye on the fixture photos (test/fixtures/photos) and checked
 * by the quality score; change them together with the float reference in the kernel tests.
 */
export const SKETCH_TUNING = {
  /** Blur sigma = long edge / this, so the drawing looks the same at every resolution. */
  blurSigmaDivisor: 200,
  minBlurSigma: 1.5,
  maxBlurSigma: 24,
  /**
   * The Sobel operator looks at the grey smoothed by sigma = long edge / this, so contours come
   * out about as thick on paper (≈ 0.5 mm) whatever the resolution, and sensor noise is ignored.
   */
  edgeSigmaDivisor: 1100,
  maxEdgeSigma: 4,
  /** Scale-normalised Sobel magnitude (on 0-255 grey) below which an edge adds no ink... */
  edgeLow: 60,
  /** ...and above which it adds the full edgeDarkening. */
  edgeHigh: 260,
  /** Fraction by which the strongest edges darken the dodge result. */
  edgeDarkening: 0.75,
  /**
   * Added to both sides of the dodge ratio: in deep shadows grey / local mean is a ratio of
   * small numbers, and sensor noise would turn into speckles. 0 gives the textbook dodge.
   */
  dodgeOffset: 16,
  /** Levels applied to the dodge result: this and darker becomes black... */
  levelsBlack: 90,
  /** ...and this and lighter becomes white paper. */
  levelsWhite: 245,
} as const;

export type SketchTuning = { readonly [Name in keyof typeof SKETCH_TUNING]: number };

/** Rec. 601 luma weights in 1/256ths (77 + 150 + 29 = 256), so grey needs integer maths only. */
const LUMA_R = 77;
const LUMA_G = 150;
const LUMA_B = 29;

/**
 * RGBA (4 bytes per pixel) to one grey byte per pixel. Transparent pixels become white paper,
 * as they would print.
 */
export function rgbaToGray(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GrayImage {
  const count = width * height;
  if (rgba.length < count * 4) throw new RangeError(`expected ${count * 4} RGBA bytes, got ${rgba.length}`);
  const pixels = new Uint8Array(count);
  for (let i = 0, p = 0; i < count; i++, p += 4) {
    const luma = (LUMA_R * rgba[p] + LUMA_G * rgba[p + 1] + LUMA_B * rgba[p + 2] + 128) >> 8;
    const alpha = rgba[p + 3];
    pixels[i] = alpha === 255 ? luma : ((luma * alpha + 255 * (255 - alpha) + 127) / 255) | 0;
  }
  return { width, height, pixels };
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
 * (fractional pixels weighted by coverage). Separable, since a box is a product of two
 * intervals: rows first into an 8.8 fixed-point Uint16 plane, then columns.
 */
export function downscaleToFit(image: GrayImage, maxLongEdge: number = PRINT_LONG_EDGE_PX): GrayImage {
  const { width: outWidth, height: outHeight } = fitWithin(image.width, image.height, maxLongEdge);
  if (outWidth === image.width && outHeight === image.height) return image;

  const { width: inWidth, height: inHeight, pixels: source } = image;
  const columns = areaWeights(inWidth, outWidth);
  const rows = areaWeights(inHeight, outHeight);

  // Horizontal pass: inHeight rows of outWidth samples, 8.8 fixed point.
  const halfScaled = new Uint16Array(outWidth * inHeight);
  for (let y = 0; y < inHeight; y++) {
    const inRow = y * inWidth;
    const outRow = y * outWidth;
    for (let x = 0; x < outWidth; x++) {
      let sum = 0;
      for (let k = columns.start[x], end = columns.start[x + 1]; k < end; k++) {
        sum += source[inRow + columns.index[k]] * columns.weight[k];
      }
      // weights sum to 2^16; keep 8 fractional bits.
      halfScaled[outRow + x] = (sum + 128) >>> 8;
    }
  }

  // Vertical pass, row-major so memory is read in order.
  const out = new Uint8Array(outWidth * outHeight);
  const accumulator = new Float64Array(outWidth);
  for (let y = 0; y < outHeight; y++) {
    accumulator.fill(0);
    for (let k = rows.start[y], end = rows.start[y + 1]; k < end; k++) {
      const inRow = rows.index[k] * outWidth;
      const weight = rows.weight[k];
      for (let x = 0; x < outWidth; x++) accumulator[x] += halfScaled[inRow + x] * weight;
    }
    const outRow = y * outWidth;
    // 8 fractional bits from the first pass, 16 from this one.
    for (let x = 0; x < outWidth; x++) out[outRow + x] = Math.min(255, Math.floor(accumulator[x] / 16777216 + 0.5));
  }
  return { width: outWidth, height: outHeight, pixels: out };
}

interface AreaWeights {
  /** Taps of output i are index/weight[start[i] .. start[i + 1]). */
  start: Int32Array;
  index: Int32Array;
  /** Fixed point, 2^16 = the whole output pixel; the taps of one output sum to exactly 2^16. */
  weight: Int32Array;
}

/** Which source pixels cover each output pixel of a 1-D shrink, and by how much. */
function areaWeights(inSize: number, outSize: number): AreaWeights {
  const ratio = inSize / outSize;
  const maxTaps = Math.ceil(ratio) + 1;
  const start = new Int32Array(outSize + 1);
  const index = new Int32Array(outSize * maxTaps);
  const weight = new Int32Array(outSize * maxTaps);
  let taps = 0;
  for (let o = 0; o < outSize; o++) {
    start[o] = taps;
    const from = o * ratio;
    const to = Math.min(inSize, (o + 1) * ratio);
    let assigned = 0;
    const first = taps;
    for (let i = Math.floor(from); i < to; i++) {
      const coverage = Math.min(to, i + 1) - Math.max(from, i);
      if (coverage <= 0) continue;
      const w = Math.round((coverage / ratio) * 65536);
      index[taps] = i;
      weight[taps] = w;
      assigned += w;
      taps++;
    }
    // Rounding leftovers go to the largest tap so a flat area stays exactly flat.
    let largest = first;
    for (let k = first + 1; k < taps; k++) if (weight[k] > weight[largest]) largest = k;
    weight[largest] += 65536 - assigned;
  }
  start[outSize] = taps;
  return { start, index, weight };
}

/** Blur radius of the dodge, proportional to the image so the look does not depend on size. */
export function blurSigmaFor(width: number, height: number, tuning: SketchTuning = SKETCH_TUNING): number {
  const sigma = Math.max(width, height) / tuning.blurSigmaDivisor;
  return Math.min(tuning.maxBlurSigma, Math.max(tuning.minBlurSigma, sigma));
}

/** Smoothing before the Sobel operator and the dodge; under 1 px gaussianBlur leaves it out. */
export function edgeSigmaFor(width: number, height: number, tuning: SketchTuning = SKETCH_TUNING): number {
  return Math.min(tuning.maxEdgeSigma, Math.max(width, height) / tuning.edgeSigmaDivisor);
}

/**
 * Widths of `passes` stacked box filters whose combined variance matches a Gaussian of the
 * given sigma (W. Wells, "Efficient synthesis of Gaussian filters by cascaded uniform filters",
 * 1986; the odd-width split is the usual one: some boxes of width w, the rest w + 2).
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

/**
 * Gaussian blur of a grey plane by three stacked box blurs per direction, each a running sum,
 * so the cost per pixel does not depend on sigma. Returns 8.8 fixed point (value × 256) so the
 * dodge divides by a precise local mean. Borders repeat the edge pixel.
 */
export function gaussianBlur(image: GrayImage, sigma: number): Uint16Array {
  const { width, height, pixels } = image;
  const count = width * height;
  let current = new Uint16Array(count);
  let next = new Uint16Array(count);
  for (let i = 0; i < count; i++) current[i] = pixels[i] << 8;

  // Under one pixel a Gaussian barely smooths and boxes cannot approximate it: leave the plane.
  const widths = sigma < 1 ? [] : boxWidthsForGaussian(sigma);
  for (const boxWidth of widths) {
    boxBlurRows(current, next, width, height, boxWidth >> 1);
    [current, next] = [next, current];
  }
  const columnSums = new Float64Array(width);
  for (const boxWidth of widths) {
    boxBlurColumns(current, next, width, height, boxWidth >> 1, columnSums);
    [current, next] = [next, current];
  }
  return current;
}

function boxBlurRows(src: Uint16Array, dst: Uint16Array, width: number, height: number, radius: number): void {
  if (radius === 0) {
    dst.set(src);
    return;
  }
  const boxWidth = 2 * radius + 1;
  const rounding = radius; // floor(boxWidth / 2)
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const last = row + width - 1;
    let sum = (radius + 1) * src[row];
    for (let i = 1; i <= radius; i++) sum += src[Math.min(row + i, last)];
    for (let x = 0; x < width; x++) {
      dst[row + x] = ((sum + rounding) / boxWidth) | 0;
      sum += src[Math.min(row + x + radius + 1, last)] - src[Math.max(row + x - radius, row)];
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
  sums: Float64Array,
): void {
  if (radius === 0) {
    dst.set(src);
    return;
  }
  const boxWidth = 2 * radius + 1;
  const rounding = radius;
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
      dst[row + x] = ((sums[x] + rounding) / boxWidth) | 0;
      sums[x] += src[entering + x] - src[leaving + x];
    }
  }
}

/**
 * The page: colour dodge of the grey over its inverted blur (bright where a pixel is as light as
 * its surroundings, dark where it is darker: lines), multiplied by a darkening where the Sobel
 * edge magnitude of the lightly smoothed grey is strong (so real contours are drawn even where
 * the dodge is faint), then levels to make the paper white and the lines dark.
 *
 * Colour dodge is grey * 255 / (255 - blur(255 - grey)); since the blur kernel sums to one,
 * 255 - blur(255 - grey) = blur(grey), so we blur the grey itself and skip the inverted plane.
 * Two departures from the textbook dodge, both against speckles: the grey on top is the lightly
 * smoothed one (the same plane the Sobel operator reads; at print size, detail finer than about
 * 0.3 mm is sensor noise, not drawing), and tuning.dodgeOffset is added to both sides of the
 * ratio so that noise in deep shadows is not amplified into dots.
 */
export function sketchFromGray(gray: GrayImage, tuning: SketchTuning = SKETCH_TUNING): GrayImage {
  const { width, height, pixels } = gray;
  const blurred = gaussianBlur(gray, blurSigmaFor(width, height, tuning));
  const edgeSigma = edgeSigmaFor(width, height, tuning);
  const smoothed = gaussianBlur(gray, edgeSigma);
  const out = new Uint8Array(width * height);

  const levelsScale = 255 / (tuning.levelsWhite - tuning.levelsBlack);
  const offset16 = tuning.dodgeOffset * 256;
  // Smoothing by sigma lowers a step edge's gradient by about 1/sigma; multiplying by sigma keeps
  // the thresholds meaning the same contrast at every scale. /256 undoes the 8.8 fixed point.
  const gradientScale = Math.max(1, edgeSigma) / 256;
  const edgeScale = tuning.edgeDarkening / (tuning.edgeHigh - tuning.edgeLow);

  for (let y = 0; y < height; y++) {
    const row = y * width;
    const above = Math.max(y - 1, 0) * width;
    const below = Math.min(y + 1, height - 1) * width;
    for (let x = 0; x < width; x++) {
      const left = Math.max(x - 1, 0);
      const right = Math.min(x + 1, width - 1);
      const i = row + x;

      // Colour dodge, steadied by the offset; the local mean is in 8.8 fixed point.
      const mean = blurred[i] + offset16;
      const dodge = mean === 0 ? 255 : Math.min(255, ((smoothed[i] + offset16) * 255) / mean);

      // Sobel gradient of the smoothed grey, borders repeated.
      const topLeft = smoothed[above + left];
      const top = smoothed[above + x];
      const topRight = smoothed[above + right];
      const midLeft = smoothed[row + left];
      const midRight = smoothed[row + right];
      const bottomLeft = smoothed[below + left];
      const bottom = smoothed[below + x];
      const bottomRight = smoothed[below + right];
      const gx = topRight + 2 * midRight + bottomRight - topLeft - 2 * midLeft - bottomLeft;
      const gy = bottomLeft + 2 * bottom + bottomRight - topLeft - 2 * top - topRight;
      const magnitude = Math.sqrt(gx * gx + gy * gy) * gradientScale;
      const edgeInk = Math.min(tuning.edgeDarkening, Math.max(0, (magnitude - tuning.edgeLow) * edgeScale));

      const leveled = Math.min(255, Math.max(0, (dodge - tuning.levelsBlack) * levelsScale));
      out[i] = Math.round(leveled * (1 - edgeInk));
    }
  }
  return { width, height, pixels: out };
}

export interface KernelResult {
  /** The grey source at working resolution (what the quality score measures sharpness on). */
  source: GrayImage;
  sketch: GrayImage;
}

/** The whole kernel: decoded RGBA in, print-size grey page out. */
export function photoToSketch(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  maxLongEdge: number = PRINT_LONG_EDGE_PX,
  tuning: SketchTuning = SKETCH_TUNING,
): KernelResult {
  const source = downscaleToFit(rgbaToGray(rgba, width, height), maxLongEdge);
  return { source, sketch: sketchFromGray(source, tuning) };
}
