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
  // The running maxima of both passes (dilateRow, dilateColumns), allocated once.
  const fromStart = new Float32Array(closed.length);
  const fromEnd = new Float32Array(fromStart.length);
  slidingExtreme(closed, width, height, radius, true, fromStart, fromEnd);
  slidingExtreme(closed, width, height, radius, false, fromStart, fromEnd);
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
 * Max (dilation) or min (erosion) over a square of 2 × radius + 1, in place (an erosion is the
 * dilation of the negated plane). The rows and then the columns are each dilated by van Herk's and
 * Gil and Werman's method (1992): cut into blocks a window long, the running max from each block's
 * start and from its end give any window's max as the larger of two, three comparisons a pixel
 * whatever the radius and no branch on the data. The columns are done a row at a time, so every
 * read and write runs along a row.
 */
function slidingExtreme(data: Float32Array, width: number, height: number, radius: number, takeMax: boolean, fromStart: Float32Array, fromEnd: Float32Array): void {
  if (!takeMax) negate(data);
  for (let y = 0; y < height; y++) dilateRow(data, y * width, width, radius, fromStart, fromEnd);
  dilateColumns(data, width, height, radius, fromStart, fromEnd);
  if (!takeMax) negate(data);
}

function negate(data: Float32Array): void {
  for (let i = 0; i < data.length; i++) data[i] = -data[i];
}

/** data[start + i] = the max of the row's values i - radius .. i + radius (clipped to the row). */
function dilateRow(data: Float32Array, start: number, count: number, radius: number, fromStart: Float32Array, fromEnd: Float32Array): void {
  const block = 2 * radius + 1;
  const last = count - 1;
  for (let first = 0; first < count; first += block) {
    const end = Math.min(first + block, count);
    let max = data[start + first];
    for (let i = first; i < end; i++) fromStart[i] = max = max < data[start + i] ? data[start + i] : max;
    max = data[start + end - 1];
    for (let i = end - 1; i >= first; i--) fromEnd[i] = max = max < data[start + i] ? data[start + i] : max;
  }
  const inside = Math.min(count, Math.max(0, last - radius + 1));
  for (let i = 0; i <= Math.min(radius, last); i++) data[start + i] = windowMax(fromStart, fromEnd, i - radius, i + radius, last, block, 0, 1);
  for (let i = radius + 1; i < inside; i++) {
    const a = fromEnd[i - radius];
    const b = fromStart[i + radius];
    data[start + i] = a > b ? a : b;
  }
  for (let i = Math.max(radius + 1, inside); i < count; i++) data[start + i] = windowMax(fromStart, fromEnd, i - radius, i + radius, last, block, 0, 1);
}

/** The max over from..to (clipped to 0..last) of one line whose element i is at offset + i × step. */
function windowMax(fromStart: Float32Array, fromEnd: Float32Array, from: number, to: number, last: number, block: number, offset: number, step: number): number {
  if (from <= 0) return fromStart[offset + Math.min(to, last) * step];
  if (to > last) {
    to = last;
    // Clipped at the end: from and the end in one block, the running max from its start would reach back past `from`.
    if (Math.floor(from / block) === Math.floor(last / block)) return fromEnd[offset + from * step];
  }
  const a = fromEnd[offset + from * step];
  const b = fromStart[offset + to * step];
  return a > b ? a : b;
}

/** The same down the columns, a row at a time: the running maxima are whole rows. */
function dilateColumns(data: Float32Array, width: number, height: number, radius: number, fromStart: Float32Array, fromEnd: Float32Array): void {
  const block = 2 * radius + 1;
  const last = height - 1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    if (y % block === 0) fromStart.set(data.subarray(row, row + width), row);
    else for (let x = 0; x < width; x++) fromStart[row + x] = fromStart[row - width + x] < data[row + x] ? data[row + x] : fromStart[row - width + x];
  }
  for (let y = last; y >= 0; y--) {
    const row = y * width;
    if (y === last || (y + 1) % block === 0) fromEnd.set(data.subarray(row, row + width), row);
    else for (let x = 0; x < width; x++) fromEnd[row + x] = fromEnd[row + width + x] < data[row + x] ? data[row + x] : fromEnd[row + width + x];
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const from = y - radius;
    const to = y + radius;
    if (from > 0 && to <= last) {
      // Inside the plane: the larger of two rows.
      const a = from * width;
      const b = to * width;
      for (let x = 0; x < width; x++) data[row + x] = fromEnd[a + x] > fromStart[b + x] ? fromEnd[a + x] : fromStart[b + x];
    } else {
      for (let x = 0; x < width; x++) data[row + x] = windowMax(fromStart, fromEnd, from, to, last, block, x, width);
    }
  }
}
