/**
 * The surround plane for surround suppression (C. Grigorescu, N. Petkov, M. Westenberg,
 * "Contour detection based on nonclassical receptive field inhibition", 2003): the mean edge
 * strength around each pixel. An outline is a thin ridge of strong edges in a quiet
 * neighbourhood, so its surround is small next to its own strength; pebbles, grass, fur and
 * sensor noise are edges everywhere, so their surround is as strong as they are and the render
 * pass subtracts it away.
 *
 * Made on the reduced smoothed plane (the one Sobel reads, at half the working resolution on a
 * page), then averaged and blurred further down: the surround is a low-frequency plane.
 */
import { blockMeans, gaussianInPlace, reducedSigma, reductionFor } from "./blur";
import type { FixedPlane } from "./plane";

/** Surround values are stored as edge strength (the render pass's scale) × this, in Uint16. */
export const SURROUND_FIXED = 32;

export function surroundPlane(smoothed: FixedPlane, edgeSigma: number, surroundSigma: number): FixedPlane {
  const { width, height, data, scale } = smoothed;
  const magnitude = new Uint16Array(width * height);
  // The render pass's edge strength: the Sobel magnitude per working pixel (a plane pixel spans
  // `scale` of them) × max(1, edgeSigma), 8.8 fixed point undone.
  const toEdgeUnits = (SURROUND_FIXED * Math.max(1, edgeSigma)) / (256 * scale);
  for (let y = 0; y < height; y++) {
    const up = (y > 0 ? y - 1 : y) * width;
    const row = y * width;
    const down = (y + 1 < height ? y + 1 : y) * width;
    if (width < 3) {
      for (let x = 0; x < width; x++) magnitude[row + x] = sobelAt(data, up, row, down, x > 0 ? x - 1 : x, x, x + 1 < width ? x + 1 : x, toEdgeUnits);
      continue;
    }
    // The border columns repeat their edge; the interior needs no tests.
    magnitude[row] = sobelAt(data, up, row, down, 0, 0, 1, toEdgeUnits);
    magnitudeRow(data, magnitude, up, row, down, width, toEdgeUnits);
    magnitude[row + width - 1] = sobelAt(data, up, row, down, width - 2, width - 1, width - 1, toEdgeUnits);
  }
  const full: FixedPlane = { data: magnitude, width, height, scale };
  const factor = Math.max(1, reductionFor(surroundSigma) / scale);
  const reduced = factor > 1 ? blockMeans(full, factor) : full;
  gaussianInPlace(reduced, reducedSigma(surroundSigma, reduced.scale));
  return reduced;
}

/** The surround's edge strength at one pixel, from the columns left, x and right of rows up, row and down. */
function sobelAt(data: Uint16Array, up: number, row: number, down: number, left: number, x: number, right: number, toEdgeUnits: number): number {
  const gx = data[up + right] + 2 * data[row + right] + data[down + right] - data[up + left] - 2 * data[row + left] - data[down + left];
  const gy = data[down + left] + 2 * data[down + x] + data[down + right] - data[up + left] - 2 * data[up + x] - data[up + right];
  const value = Math.sqrt(gx * gx + gy * gy) * toEdgeUnits;
  return value > 65535 ? 65535 : value;
}

/** The interior columns 1 .. width - 2 of one row (the same sums as sobelAt, no border tests). */
function magnitudeRow(data: Uint16Array, magnitude: Uint16Array, up: number, row: number, down: number, width: number, toEdgeUnits: number): void {
  for (let x = 1; x < width - 1; x++) {
    const gx = data[up + x + 1] + 2 * data[row + x + 1] + data[down + x + 1] - data[up + x - 1] - 2 * data[row + x - 1] - data[down + x - 1];
    const gy = data[down + x - 1] + 2 * data[down + x] + data[down + x + 1] - data[up + x - 1] - 2 * data[up + x] - data[up + x + 1];
    const value = Math.sqrt(gx * gx + gy * gy) * toEdgeUnits;
    magnitude[row + x] = value > 65535 ? 65535 : value;
  }
}
