/**
 * Slow, obviously correct float versions of the kernel's first steps (grey conversion, area
 * downscale), to check the fast ones against. The later stages (dodge, binarise, thicken) are
 * checked by their properties instead (test/sketch/kernel.test.ts and one file per stage).
 */
import { PRINT_LONG_EDGE_PX } from "../../app/lib/constants";
import { fitWithin } from "../../workers/sketch/kernel";

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

export function meanAbsoluteDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} != ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}
