/**
 * How far each pixel lies below the dark lines and spots around it are filled in: the black
 * top-hat of the grey (its morphological closing minus itself; Serra 1982, and the ridge and
 * valley detectors of line drawing). A dark line narrower than the closing's square is filled and
 * answers its depth; a step between light and dark is left as it is by a closing and answers 0,
 * so unlike a difference of Gaussians (XDoG, the dodge) no line runs along the dark side of every
 * outline, where the region borders already are.
 */
import { blurFloatInPlace, type FloatPlane } from "../regions/float-plane";

/** The top-hat depth (grey levels) by a square of 2 × radius + 1 pixels, minus `suppression` × its mean around (a Gaussian of surroundSigma px). */
export function darkLineDepth(grey: FloatPlane, radius: number, surroundSigma: number, suppression: number): FloatPlane {
  const { width, height } = grey;
  const closed = grey.data.slice();
  slidingExtreme(closed, width, height, radius, true);
  slidingExtreme(closed, width, height, radius, false);
  const depth = new Float32Array(closed.length);
  for (let i = 0; i < depth.length; i++) depth[i] = closed[i] - grey.data[i];
  const surround: FloatPlane = { data: depth.slice(), width, height };
  blurFloatInPlace(surround, surroundSigma);
  const s = surround.data;
  for (let i = 0; i < depth.length; i++) depth[i] = Math.max(0, depth[i] - suppression * s[i]);
  return { data: depth, width, height };
}

/** Max (dilation) or min (erosion) over a square of 2 × radius + 1, in place: rows, then columns. */
function slidingExtreme(data: Float32Array, width: number, height: number, radius: number, takeMax: boolean): void {
  const line = new Float32Array(Math.max(width, height));
  const out = new Float32Array(line.length);
  const queue = new Int32Array(line.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) line[x] = data[y * width + x];
    slidingLine(line, width, radius, takeMax, queue, out);
    for (let x = 0; x < width; x++) data[y * width + x] = out[x];
  }
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) line[y] = data[y * width + x];
    slidingLine(line, height, radius, takeMax, queue, out);
    for (let y = 0; y < height; y++) data[y * width + x] = out[y];
  }
}

/**
 * out[i] = extreme of line[i - radius .. i + radius] (clipped to the line), by a monotone queue of
 * indices: each value enters and leaves once, whatever the radius.
 */
function slidingLine(line: Float32Array, count: number, radius: number, takeMax: boolean, queue: Int32Array, out: Float32Array): void {
  let head = 0;
  let tail = 0;
  const beats = takeMax ? (a: number, b: number) => a >= b : (a: number, b: number) => a <= b;
  for (let i = 0; i < count + radius; i++) {
    if (i < count) {
      while (tail > head && beats(line[i], line[queue[tail - 1]])) tail--;
      queue[tail++] = i;
    }
    const centre = i - radius;
    if (centre < 0) continue;
    while (queue[head] < centre - radius) head++;
    out[centre] = line[queue[head]];
  }
}
