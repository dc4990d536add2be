/**
 * The quality score (0-100) shown on the preview page; "Select High Quality Only" keeps >= 90,
 * which means "print it as is". Measured from the pixels, never guessed:
 *
 *   resolution    R = min(1, source long edge / PRINT_LONG_EDGE_PX)
 *                 (3300 px = 11 in at 300 dpi; a smaller photo is enlarged on paper)
 *   sharpness     S = min(1, var(Laplacian of the working grey) / SHARP_LAPLACIAN_VARIANCE)
 *                 (4-neighbour Laplacian; a blurred or blank photo has little high frequency)
 *   coverage      K = 1 inside the colourable band of ink coverage [INK_BAND_LOW, INK_BAND_HIGH],
 *                 falling linearly to 0 at no ink and at INK_COVERAGE_MAX
 *                 (ink = sketch pixel darker than INK_LEVEL; an empty page or a black page is not
 *                 colourable)
 *   speckles      P = 1 / (1 + speckles / SPECKLE_TOLERANCE), where a speckle is an 8-connected
 *                 ink blob of at most speckleMaxPixels (≈ 0.6 mm at print size); dust to erase,
 *                 not a shape to colour
 *   colourability C = K × P
 *
 *   score = round(100 × R^0.2 × S^0.35 × C^0.45)
 *
 * A weighted geometric mean, so one bad factor (a blank page, a blurred photo) pulls the score
 * down on its own, and every factor must be near 1 for a score of 90 or more.
 */
import { PRINT_LONG_EDGE_PX } from "../../app/lib/constants";
import type { GrayImage } from "./kernel";

export const SHARP_LAPLACIAN_VARIANCE = 120;
export const INK_LEVEL = 128;
export const INK_BAND_LOW = 0.02;
export const INK_BAND_HIGH = 0.25;
export const INK_COVERAGE_MAX = 0.6;
export const SPECKLE_TOLERANCE = 300;
const WEIGHT_RESOLUTION = 0.2;
const WEIGHT_SHARPNESS = 0.35;
const WEIGHT_COLOURABILITY = 0.45;

export interface QualityReport {
  score: number;
  resolution: number;
  sharpness: number;
  laplacianVariance: number;
  inkCoverage: number;
  speckles: number;
  colourability: number;
}

export interface QualityInput {
  /** Size of the photo as uploaded (before the kernel's downscale). */
  sourceWidth: number;
  sourceHeight: number;
  /** The grey photo at working resolution. */
  source: GrayImage;
  /** The finished page. */
  sketch: GrayImage;
}

export function measureQuality({ sourceWidth, sourceHeight, source, sketch }: QualityInput): QualityReport {
  const resolution = Math.min(1, Math.max(sourceWidth, sourceHeight) / PRINT_LONG_EDGE_PX);

  const laplacianVariance = varianceOfLaplacian(source);
  const sharpness = Math.min(1, laplacianVariance / SHARP_LAPLACIAN_VARIANCE);

  const inkCoverage = inkFraction(sketch, INK_LEVEL);
  const coverageScore = coverageInBand(inkCoverage);
  const speckles = countSpeckles(sketch, INK_LEVEL, speckleMaxPixels(sketch.width, sketch.height));
  const colourability = coverageScore / (1 + speckles / SPECKLE_TOLERANCE);

  const combined =
    Math.pow(resolution, WEIGHT_RESOLUTION) *
    Math.pow(sharpness, WEIGHT_SHARPNESS) *
    Math.pow(colourability, WEIGHT_COLOURABILITY);
  const score = Math.max(0, Math.min(100, Math.round(100 * combined)));
  return { score, resolution, sharpness, laplacianVariance, inkCoverage, speckles, colourability };
}

/** Variance of the 4-neighbour Laplacian over the interior pixels (0 for images under 3x3). */
export function varianceOfLaplacian({ width, height, pixels }: GrayImage): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumOfSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      const laplacian = 4 * pixels[i] - pixels[i - 1] - pixels[i + 1] - pixels[i - width] - pixels[i + width];
      sum += laplacian;
      sumOfSquares += laplacian * laplacian;
    }
  }
  const count = (width - 2) * (height - 2);
  const mean = sum / count;
  return sumOfSquares / count - mean * mean;
}

export function inkFraction({ pixels }: GrayImage, inkLevel: number): number {
  let ink = 0;
  for (let i = 0; i < pixels.length; i++) if (pixels[i] < inkLevel) ink++;
  return pixels.length === 0 ? 0 : ink / pixels.length;
}

function coverageInBand(coverage: number): number {
  if (coverage < INK_BAND_LOW) return coverage / INK_BAND_LOW;
  if (coverage <= INK_BAND_HIGH) return 1;
  return Math.max(0, (INK_COVERAGE_MAX - coverage) / (INK_COVERAGE_MAX - INK_BAND_HIGH));
}

/** A blob of about 0.6 mm square at 300 dpi on the printed page, at least 2 pixels. */
export function speckleMaxPixels(width: number, height: number): number {
  const pixelsPerPrintPixel = Math.max(width, height) / PRINT_LONG_EDGE_PX;
  const side = 7 * pixelsPerPrintPixel;
  return Math.max(2, Math.round(side * side));
}

/**
 * Counts 8-connected ink components of at most maxPixels pixels. Works on runs of ink per row
 * with union-find over runs, so memory grows with the number of runs, not with the image.
 */
export function countSpeckles({ width, height, pixels }: GrayImage, inkLevel: number, maxPixels: number): number {
  let capacity = 1024;
  let runStart = new Int32Array(capacity);
  let runEnd = new Int32Array(capacity); // exclusive
  let parent = new Int32Array(capacity);
  let size = new Float64Array(capacity);
  let runCount = 0;

  const find = (run: number): number => {
    let root = run;
    while (parent[root] !== root) root = parent[root];
    while (parent[run] !== root) {
      const up = parent[run];
      parent[run] = root;
      run = up;
    }
    return root;
  };
  const union = (a: number, b: number) => {
    let rootA = find(a);
    let rootB = find(b);
    if (rootA === rootB) return;
    if (size[rootA] < size[rootB]) [rootA, rootB] = [rootB, rootA];
    parent[rootB] = rootA;
    size[rootA] += size[rootB];
  };

  let previousFirst = 0;
  let previousEnd = 0; // runs of the previous row are [previousFirst, previousEnd)
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const rowFirst = runCount;
    let x = 0;
    while (x < width) {
      if (pixels[row + x] >= inkLevel) {
        x++;
        continue;
      }
      const start = x;
      while (x < width && pixels[row + x] < inkLevel) x++;
      if (runCount === capacity) {
        capacity *= 2;
        runStart = grow(runStart, capacity);
        runEnd = grow(runEnd, capacity);
        parent = grow(parent, capacity);
        size = grow(size, capacity);
      }
      runStart[runCount] = start;
      runEnd[runCount] = x;
      parent[runCount] = runCount;
      size[runCount] = x - start;
      runCount++;
    }
    // Join with the previous row's runs that touch, diagonals included.
    let p = previousFirst;
    for (let c = rowFirst; c < runCount; c++) {
      while (p < previousEnd && runEnd[p] < runStart[c]) p++;
      for (let q = p; q < previousEnd && runStart[q] <= runEnd[c]; q++) union(c, q);
    }
    previousFirst = rowFirst;
    previousEnd = runCount;
  }

  let speckles = 0;
  for (let run = 0; run < runCount; run++) if (parent[run] === run && size[run] <= maxPixels) speckles++;
  return speckles;
}

function grow<T extends Int32Array | Float64Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
