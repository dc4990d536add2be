/** Float planes of the region stage, and the one blur they need (stacked running-sum boxes). */

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
  const line = new Float32Array(Math.max(width, height));
  for (const boxWidth of boxWidthsForGaussian(sigma, 3)) {
    const radius = (boxWidth - 1) >> 1;
    for (let y = 0; y < height; y++) boxLine(data, y * width, 1, width, radius, line);
    for (let x = 0; x < width; x++) boxLine(data, x, width, height, radius, line);
  }
}

/** One running-sum box of the given radius along a line of `count` values (clamped ends). */
function boxLine(data: Float32Array, start: number, stride: number, count: number, radius: number, line: Float32Array): void {
  for (let i = 0; i < count; i++) line[i] = data[start + i * stride];
  const last = count - 1;
  const norm = 1 / (2 * radius + 1);
  let sum = 0;
  for (let k = -radius; k <= radius; k++) sum += line[Math.min(last, Math.max(0, k))];
  for (let i = 0; i < count; i++) {
    data[start + i * stride] = sum * norm;
    sum += line[Math.min(last, i + radius + 1)] - line[Math.max(0, i - radius)];
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
