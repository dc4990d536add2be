/**
 * How far each pixel lies below the dark lines and spots around it are filled in: the black
 * top-hat of the grey (its morphological closing minus itself; Serra 1982, and the ridge and
 * valley detectors of line drawing). A dark line narrower than the closing's square is filled and
 * answers its depth; a step between light and dark is left as it is by a closing and answers 0,
 * so unlike a difference of Gaussians (XDoG, the dodge) no line runs along the dark side of every
 * outline, where the region borders already are.
 */
import { blurFloatInPlace, type FloatPlane } from "../regions/float-plane";

/**
 * The top-hat depth (grey levels) by a square of 2 × radius + 1 pixels, minus `suppression` × its
 * mean around (a Gaussian of surroundSigma px); `suppression` one for the plane or one per pixel.
 */
export function darkLineDepth(grey: FloatPlane, radius: number, surroundSigma: number, suppression: number | Float32Array): FloatPlane {
  const { width, height } = grey;
  const closed = grey.data.slice();
  slidingExtreme(closed, width, height, radius, true);
  slidingExtreme(closed, width, height, radius, false);
  const depth = new Float32Array(closed.length);
  for (let i = 0; i < depth.length; i++) depth[i] = closed[i] - grey.data[i];
  const surround: FloatPlane = { data: depth.slice(), width, height };
  blurFloatInPlace(surround, surroundSigma);
  const s = surround.data;
  if (typeof suppression === "number") for (let i = 0; i < depth.length; i++) depth[i] = Math.max(0, depth[i] - suppression * s[i]);
  else for (let i = 0; i < depth.length; i++) depth[i] = Math.max(0, depth[i] - suppression[i] * s[i]);
  return { data: depth, width, height };
}

/**
 * Max (dilation) or min (erosion) over a square of 2 × radius + 1, in place: along the rows,
 * then along the rows of the transposed plane (a column at a time jumped a row's length at
 * every step; the transpose is done in tiles that stay in cache).
 */
function slidingExtreme(data: Float32Array, width: number, height: number, radius: number, takeMax: boolean): void {
  const queue = new Int32Array(Math.max(width, height));
  const line = new Float32Array(queue.length);
  for (let y = 0; y < height; y++) slidingLine(data, y * width, width, radius, takeMax, queue, line);
  const transposed = new Float32Array(data.length);
  transpose(data, transposed, width, height);
  for (let x = 0; x < width; x++) slidingLine(transposed, x * height, height, radius, takeMax, queue, line);
  transpose(transposed, data, height, width);
}

/**
 * data[start + i] = extreme of the line's values i - radius .. i + radius (clipped to the line),
 * by a monotone queue of indices: each value enters and leaves once, whatever the radius. The
 * line is read from a copy, as the results overwrite it.
 */
function slidingLine(data: Float32Array, start: number, count: number, radius: number, takeMax: boolean, queue: Int32Array, line: Float32Array): void {
  for (let i = 0; i < count; i++) line[i] = data[start + i];
  const sign = takeMax ? 1 : -1;
  let head = 0;
  let tail = 0;
  for (let i = 0; i < count + radius; i++) {
    if (i < count) {
      const value = sign * line[i];
      while (tail > head && value >= sign * line[queue[tail - 1]]) tail--;
      queue[tail++] = i;
    }
    const centre = i - radius;
    if (centre < 0) continue;
    while (queue[head] < centre - radius) head++;
    data[start + centre] = line[queue[head]];
  }
}

const TILE = 32;

/** out (height × width) = the transpose of data (width × height), a tile at a time. */
function transpose(data: Float32Array, out: Float32Array, width: number, height: number): void {
  for (let y0 = 0; y0 < height; y0 += TILE) {
    const y1 = Math.min(height, y0 + TILE);
    for (let x0 = 0; x0 < width; x0 += TILE) {
      const x1 = Math.min(width, x0 + TILE);
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out[x * height + y] = data[y * width + x];
    }
  }
}
