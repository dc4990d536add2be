/** The noise stage: how noisy the photo is, which sets how much the grey is smoothed. */
import type { GrayPlane } from "./plane";

/**
 * Standard deviation of the photo's noise in grey levels (J. Immerkær, "Fast noise variance
 * estimation", 1996: the mean absolute response to a mask that cancels edges and gradients),
 * over at most about a million pixels (every few rows of a large photo).
 */
export function estimateNoise({ data, width, height }: GrayPlane): number {
  if (width < 3 || height < 3) return 0;
  const step = Math.max(1, Math.floor((width * height) / 1_000_000));
  let sum = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y += step) {
    sum += rowResponse(data, y * width, width);
    count += width - 2;
  }
  return (Math.sqrt(Math.PI / 2) * sum) / (6 * count);
}


/**
 * The summed absolute mask response along one row, in Int32 (at most 4080 per pixel, so exact for
 * rows up to half a million pixels): the same total as adding each into a double.
 */
function rowResponse(data: Uint8Array, row: number, width: number): number {
  let sum = 0;
  for (let i = row + 1, end = row + width - 1; i < end; i++) {
    const up = i - width;
    const down = i + width;
    const response =
      data[up - 1] - 2 * data[up] + data[up + 1] - 2 * data[i - 1] + 4 * data[i] - 2 * data[i + 1] +
      data[down - 1] - 2 * data[down] + data[down + 1];
    sum += response < 0 ? -response : response;
  }
  return sum;
}
