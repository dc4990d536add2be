/**
 * A slow, obviously correct float version of the kernel's recipe, to check the fast one against:
 * no fixed point, no running sums, a real sampled Gaussian instead of stacked boxes, and the
 * colour dodge computed literally on the inverted blur.
 */
import { blurSigmaFor, edgeSigmaFor, fitWithin, SKETCH_TUNING, type SketchTuning } from "../../workers/sketch/kernel";

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

export function referenceSketch(gray: FloatImage, tuning: SketchTuning = SKETCH_TUNING): FloatImage {
  const { width, height } = gray;
  const inverted = { width, height, values: gray.values.map((v) => 255 - v) };
  const blurredInverted = referenceGaussian(inverted, blurSigmaFor(width, height, tuning));
  const edgeSigma = edgeSigmaFor(width, height, tuning);
  // Below one pixel there is nothing to smooth (as in the kernel).
  const smoothed = edgeSigma < 1 ? gray : referenceGaussian(gray, edgeSigma);
  const at = (x: number, y: number) =>
    smoothed.values[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))];
  const values = new Float64Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const blend = blurredInverted.values[i];
      const offset = tuning.dodgeOffset;
      const denominator = 255 - blend + offset;
      const dodge = denominator <= 0 ? 255 : Math.min(255, ((smoothed.values[i] + offset) * 255) / denominator);
      const gx =
        at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy =
        at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const magnitude = Math.hypot(gx, gy) * Math.max(1, edgeSigma);
      const edge = Math.min(1, Math.max(0, (magnitude - tuning.edgeLow) / (tuning.edgeHigh - tuning.edgeLow)));
      const leveled = Math.min(255, Math.max(0, ((dodge - tuning.levelsBlack) * 255) / (tuning.levelsWhite - tuning.levelsBlack)));
      values[i] = leveled * (1 - tuning.edgeDarkening * edge);
    }
  return { width, height, values };
}

export function meanAbsoluteDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} != ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}
