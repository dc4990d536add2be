/**
 * A slow, obviously correct float version of the kernel's recipe, to check the fast one against:
 * no fixed point, no running sums, a real sampled Gaussian instead of stacked boxes, and the
 * colour dodge computed literally on the inverted blur. It shares with the kernel only the
 * measurements that choose parameters (tone curve from a histogram, noise estimate, sigmas).
 */
import { PRINT_LONG_EDGE_PX } from "../../app/lib/constants";
import {
  blurSigmaFor,
  edgeSigmaFor,
  estimateNoise,
  fitWithin,
  SKETCH_TUNING,
  speckPixelsFor,
  toneCurve,
  type SketchTuning,
} from "../../workers/sketch/kernel";

export interface FloatImage {
  width: number;
  height: number;
  values: Float64Array;
}

/** Grey as 8-bit integers (the recipe's "grayscale Uint8 plane"), transparent = white. */
export function referenceGray(rgba: ArrayLike<number>, width: number, height: number): FloatImage {
  const values = new Float64Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const [r, g, b, a] = [rgba[i * 4], rgba[i * 4 + 1], rgba[i * 4 + 2], rgba[i * 4 + 3]];
    const luma = 0.299 * r + 0.587 * g + 0.114 * b;
    values[i] = Math.round((luma * a + 255 * (255 - a)) / 255);
  }
  return { width, height, values };
}

/** Each output pixel: the mean of the source over the rectangle it covers, fractions weighted. */
export function referenceDownscale(image: FloatImage, maxLongEdge: number): FloatImage {
  const { width, height } = fitWithin(image.width, image.height, maxLongEdge);
  if (width === image.width && height === image.height) return image;
  const sx = image.width / width;
  const sy = image.height / height;
  const values = new Float64Array(width * height);
  for (let oy = 0; oy < height; oy++) {
    for (let ox = 0; ox < width; ox++) {
      const [x0, y0] = [ox * sx, oy * sy];
      const [x1, y1] = [Math.min(image.width, (ox + 1) * sx), Math.min(image.height, (oy + 1) * sy)];
      let sum = 0;
      let area = 0;
      for (let y = Math.floor(y0); y < Math.ceil(y1); y++) {
        const cy = Math.min(y1, y + 1) - Math.max(y0, y);
        for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
          const cx = Math.min(x1, x + 1) - Math.max(x0, x);
          sum += image.values[y * image.width + x] * cx * cy;
          area += cx * cy;
        }
      }
      values[oy * width + ox] = sum / area;
    }
  }
  return { width, height, values };
}

/** Separable convolution with a sampled, normalised Gaussian (±4 sigma), borders repeated. */
export function referenceGaussian(image: FloatImage, sigma: number): FloatImage {
  const radius = Math.ceil(4 * sigma);
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)));
  const total = kernel.reduce((a, b) => a + b, 0);
  const weights = kernel.map((k) => k / total);
  const { width, height } = image;
  const at = (values: Float64Array, x: number, y: number) =>
    values[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))];
  const horizontal = new Float64Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++) sum += weights[k + radius] * at(image.values, x + k, y);
      horizontal[y * width + x] = sum;
    }
  const values = new Float64Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++) sum += weights[k + radius] * at(horizontal, x, y + k);
      values[y * width + x] = sum;
    }
  return { width, height, values };
}

/**
 * The whole recipe on the decoded grey, literally: fit to maxLongEdge by area average, tone
 * curve per pixel, float Gaussians at full working resolution, colour dodge on the inverted
 * blur, Sobel, levels, then the cleanup by flood fill.
 */
export function referenceSketch(
  decoded: FloatImage,
  maxLongEdge = PRINT_LONG_EDGE_PX,
  tuning: SketchTuning = SKETCH_TUNING,
): FloatImage {
  const histogram = new Float64Array(256);
  for (const v of decoded.values) histogram[v]++;
  const curve = toneCurve(histogram, tuning);
  const working = referenceDownscale(decoded, maxLongEdge);
  const { width, height } = working;
  const noise = (estimateNoise(asPlane(decoded)) * height) / decoded.height;
  const gray = { width, height, values: working.values.map((v) => curve[Math.round(v)]) };
  const inverted = { width, height, values: gray.values.map((v) => 255 - v) };
  const blurredInverted = referenceGaussian(inverted, blurSigmaFor(width, height, tuning));
  const edgeSigma = edgeSigmaFor(width, height, noise, tuning);
  const smoothed = edgeSigma === 0 ? gray : referenceGaussian(gray, edgeSigma);
  const at = (x: number, y: number) =>
    smoothed.values[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))];
  const values = new Float64Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const offset = tuning.dodgeOffset;
      const dodge = ((smoothed.values[i] + offset) * 255) / (255 - blurredInverted.values[i] + offset);
      const gx =
        at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy =
        at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const magnitude = Math.hypot(gx, gy) * Math.max(1, edgeSigma);
      const edge = Math.min(1, Math.max(0, (magnitude - tuning.edgeLow) / (tuning.edgeHigh - tuning.edgeLow)));
      const leveled = Math.min(255, Math.max(0, ((dodge - tuning.levelsBlack) * 255) / (tuning.levelsWhite - tuning.levelsBlack)));
      values[i] = Math.round(leveled * (1 - tuning.edgeDarkening * edge));
    }
  referenceCleanup(values, width, height, tuning);
  return { width, height, values };
}

/** Flood fill every 8-connected mark; erase specks and faint marks; lighter pixels to white. */
export function referenceCleanup(values: Float64Array, width: number, height: number, tuning: SketchTuning = SKETCH_TUNING) {
  const speck = speckPixelsFor(width, height, tuning);
  const seen = new Uint8Array(width * height);
  for (let start = 0; start < values.length; start++) {
    if (seen[start] || values[start] >= tuning.markLevel) continue;
    const component = [start];
    seen[start] = 1;
    let darkest = 255;
    for (let k = 0; k < component.length; k++) {
      const i = component[k];
      darkest = Math.min(darkest, values[i]);
      const x = i % width;
      const y = (i - x) / width;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const n = ny * width + nx;
          if (!seen[n] && values[n] < tuning.markLevel) {
            seen[n] = 1;
            component.push(n);
          }
        }
    }
    if (component.length < speck || darkest > tuning.faintLevel) for (const i of component) values[i] = 255;
  }
  for (let i = 0; i < values.length; i++) if (values[i] >= tuning.markLevel) values[i] = 255;
}

const asPlane = ({ width, height, values }: FloatImage) => ({ width, height, data: Uint8Array.from(values) });

export function meanAbsoluteDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} != ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}
