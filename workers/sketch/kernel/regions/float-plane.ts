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
 *
 * Each row takes its three boxes in a row at a time, through two line buffers that stay in the
 * cache; the columns are done the same way on the plane turned on its side (a blocked transpose
 * there and back), so every box runs along memory. Sliding a sum down the columns, a row at a time,
 * took three passes over the whole plane and a copy of it per box: 15 ms against 13 for a
 * 1100 × 688 grid, whatever the sigma.
 */
export function blurFloatInPlace(plane: FloatPlane, sigma: number): void {
  if (sigma < 0.5) return;
  const radii = boxWidthsForGaussian(sigma, 3).map((boxWidth) => (boxWidth - 1) >> 1);
  const { data, width, height } = plane;
  const longest = Math.max(width, height);
  const first = new Float32Array(longest);
  const second = new Float32Array(longest);
  for (let y = 0; y < height; y++) threeBoxes(data, y * width, width, radii, first, second);
  const turned = new Float32Array(data.length);
  transpose(data, width, height, turned);
  for (let x = 0; x < width; x++) threeBoxes(turned, x * height, height, radii, first, second);
  transpose(turned, height, width, data);
}

/** The three boxes along the line of `count` values at `start`, in place (through the two buffers). */
function threeBoxes(data: Float32Array, start: number, count: number, radii: number[], first: Float32Array, second: Float32Array): void {
  boxLine(data, start, count, radii[0], first, 0);
  boxLine(first, 0, count, radii[1], second, 0);
  boxLine(second, 0, count, radii[2], data, start);
}

/** One running-sum box of the given radius over `count` values of `source` from `from`, into `target` from `to` (ends clamped). */
function boxLine(source: Float32Array, from: number, count: number, radius: number, target: Float32Array, to: number): void {
  const last = count - 1;
  const norm = 1 / (2 * radius + 1);
  const firstValue = source[from];
  const lastValue = source[from + last];
  let sum = 0;
  for (let k = -radius; k <= radius; k++) sum += source[from + (k < 0 ? 0 : k > last ? last : k)];
  // Where the box reaches past an end the end's value repeats; in between (most of the line) no
  // clamping, so that loop has no branch.
  const inside = Math.max(radius, Math.min(count, last - radius));
  for (let i = 0; i < Math.min(radius, count); i++) {
    target[to + i] = sum * norm;
    const enter = i + radius + 1;
    sum += source[from + (enter > last ? last : enter)] - firstValue;
  }
  for (let i = radius; i < inside; i++) {
    target[to + i] = sum * norm;
    sum += source[from + i + radius + 1] - source[from + i - radius];
  }
  for (let i = inside; i < count; i++) {
    target[to + i] = sum * norm;
    const leave = i - radius;
    sum += lastValue - source[from + (leave < 0 ? 0 : leave)];
  }
}

/** Tiles of the transpose: 32 × 32 floats read along rows and written along columns stay in the cache. */
const TRANSPOSE_TILE = 32;

/** `target` (height × width) = `source` (width × height) turned on its side. */
function transpose(source: Float32Array, width: number, height: number, target: Float32Array): void {
  for (let y0 = 0; y0 < height; y0 += TRANSPOSE_TILE) {
    const y1 = Math.min(height, y0 + TRANSPOSE_TILE);
    for (let x0 = 0; x0 < width; x0 += TRANSPOSE_TILE) {
      const x1 = Math.min(width, x0 + TRANSPOSE_TILE);
      for (let y = y0; y < y1; y++) {
        const row = y * width;
        for (let x = x0; x < x1; x++) target[x * height + y] = source[row + x];
      }
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
