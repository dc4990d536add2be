/** Float planes of the region stage, the one blur they need (stacked running-sum boxes), and bilinear growth. */
import { bilinearTaps } from "../resize";

/** One float per pixel, row-major, on the analysis grid. */
export interface FloatPlane {
  data: Float32Array;
  width: number;
  height: number;
}

/**
 * Gaussian blur of a float plane in place, as three stacked box filters per axis (cost per pixel
 * independent of sigma); edges are clamped. Sigmas under 0.5 leave the plane as it is.
 */
export function blurFloatInPlace(plane: FloatPlane, sigma: number): void {
  if (sigma < 0.5) return;
  const { data, width, height } = plane;
  const line = new Float32Array(width);
  const copy = new Float32Array(data.length);
  const columnSums = new Float32Array(width);
  for (const boxWidth of boxWidthsForGaussian(sigma, 3)) {
    const radius = (boxWidth - 1) >> 1;
    for (let y = 0; y < height; y++) boxRow(data, y * width, width, radius, line);
    boxColumns(data, copy, columnSums, width, height, radius);
  }
}

/** One running-sum box of the given radius along the row at `start` (ends clamped). */
function boxRow(data: Float32Array, start: number, count: number, radius: number, line: Float32Array): void {
  for (let i = 0; i < count; i++) line[i] = data[start + i];
  const last = count - 1;
  const norm = 1 / (2 * radius + 1);
  let sum = 0;
  for (let k = -radius; k <= radius; k++) sum += line[k < 0 ? 0 : k > last ? last : k];
  // Where the box reaches past an end the end's value repeats; in between (most of the row) no
  // clamping, so that loop has no branch.
  const inside = Math.max(radius, Math.min(count, last - radius));
  for (let i = 0; i < Math.min(radius, count); i++) {
    data[start + i] = sum * norm;
    const enter = i + radius + 1;
    sum += line[enter > last ? last : enter] - line[0];
  }
  for (let i = radius; i < inside; i++) {
    data[start + i] = sum * norm;
    sum += line[i + radius + 1] - line[i - radius];
  }
  for (let i = inside; i < count; i++) {
    data[start + i] = sum * norm;
    const leave = i - radius;
    sum += line[last] - line[leave < 0 ? 0 : leave];
  }
}

/**
 * The same box down the columns, a row at a time: one running sum per column slides down the
 * plane, so every read and write runs along a row (cache lines used whole, where a column at a
 * time jumped a row's length at every step).
 */
function boxColumns(data: Float32Array, copy: Float32Array, sums: Float32Array, width: number, height: number, radius: number): void {
  copy.set(data);
  const last = height - 1;
  const norm = 1 / (2 * radius + 1);
  sums.fill(0);
  for (let k = -radius; k <= radius; k++) {
    const row = (k < 0 ? 0 : k > last ? last : k) * width;
    for (let x = 0; x < width; x++) sums[x] += copy[row + x];
  }
  for (let y = 0; y < height; y++) {
    const out = y * width;
    const enter = (y + radius + 1 > last ? last : y + radius + 1) * width;
    const leave = (y - radius < 0 ? 0 : y - radius) * width;
    for (let x = 0; x < width; x++) {
      data[out + x] = sums[x] * norm;
      sums[x] += copy[enter + x] - copy[leave + x];
    }
  }
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
  const lowerCount = Math.min(passes, Math.max(0, Math.round((12 * variance - passes * upper * upper + passes) / (lower * lower - upper * upper))));
  const widths: number[] = [];
  for (let i = 0; i < passes; i++) widths.push(i < lowerCount ? lower : upper);
  return widths;
}

/** A float plane brought up to outWidth × outHeight by bilinear interpolation (centres aligned). */
export function growFloatPlane({ data, width, height }: FloatPlane, outWidth: number, outHeight: number): FloatPlane {
  const columns = bilinearTaps(width, outWidth);
  const rows = bilinearTaps(height, outHeight);
  const out = new Float32Array(outWidth * outHeight);
  const { left, right, rightWeight } = columns;
  for (let y = 0; y < outHeight; y++) {
    const upper = rows.left[y] * width;
    const lower = rows.right[y] * width;
    const wy = rows.rightWeight[y];
    const start = y * outWidth;
    for (let x = 0; x < outWidth; x++) {
      const wx = rightWeight[x];
      const top = data[upper + left[x]] * (1 - wx) + data[upper + right[x]] * wx;
      const bottom = data[lower + left[x]] * (1 - wx) + data[lower + right[x]] * wx;
      out[start + x] = top * (1 - wy) + bottom * wy;
    }
  }
  return { data: out, width: outWidth, height: outHeight };
}
