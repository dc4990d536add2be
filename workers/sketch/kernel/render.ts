/**
 * The render stage: the grey page from the smoothed, blurred and surround planes, made at the
 * working resolution in one fused pass (colour dodge, Sobel edges, levels).
 */
import type { FixedPlane } from "./plane";
import { SURROUND_FIXED } from "./surround";
import type { SketchTuning } from "./tuning";

interface Taps {
  index: Int32Array;
  /** Of the next sample, in 1/256ths. */
  weight: Int32Array;
}

/**
 * Bilinear sampling positions from a plane at `scale` working pixels per sample back to `size`
 * pixels: working pixel x sits at (x + 0.5) / scale - 0.5 in the plane.
 */
function upsampleTaps(size: number, reducedSize: number, scale: number): Taps {
  const index = new Int32Array(size);
  const weight = new Int32Array(size);
  for (let x = 0; x < size; x++) {
    const position = Math.min(reducedSize - 1, Math.max(0, (x + 0.5) / scale - 0.5));
    const i = Math.min(reducedSize - 2, Math.floor(position));
    if (i < 0) continue; // a one-sample plane: index 0, weight 0
    index[x] = i;
    weight[x] = Math.round((position - i) * 256);
  }
  return { index, weight };
}

/**
 * Rows of a reduced plane upsampled along x to the working width, kept two at a time: the pair
 * of plane rows that working row y blends. Working rows are made in order, so each plane row is
 * upsampled along x once, however many working rows read it. Values are 8.8 × 16 (bilinear
 * weights in 1/256ths, then ÷ 16 rounded), so the blend along y stays in Int32.
 */
class UpsampledRows {
  top: Int32Array = new Int32Array(0);
  bottom: Int32Array = new Int32Array(0);
  private topIndex = -1;
  private bottomIndex = -1;
  private width = 0;
  // The plane's and the taps' arrays and sizes as fields of their own, not the plane object.
  private data: Uint16Array = new Uint16Array(0);
  private planeWidth = 0;
  private planeHeight = 0;
  private index: Int32Array = new Int32Array(0);
  private weight: Int32Array = new Int32Array(0);

  /** Starts on a new plane; the two rows are reused when they are wide enough. */
  reset(plane: FixedPlane, columns: Taps, width: number): void {
    this.data = plane.data;
    this.planeWidth = plane.width;
    this.planeHeight = plane.height;
    this.index = columns.index;
    this.weight = columns.weight;
    this.width = width;
    if (this.top.length < width) {
      this.top = new Int32Array(width);
      this.bottom = new Int32Array(width);
    }
    this.topIndex = -1;
    this.bottomIndex = -1;
  }

  /** Lets go of the plane (it is garbage once the page is made). */
  release(): void {
    this.data = new Uint16Array(0);
    this.index = this.weight = new Int32Array(0);
  }

  /** Makes `top` plane row i and `bottom` plane row i + 1 (the last row for a one-row plane). */
  select(i: number): void {
    const j = Math.min(i + 1, this.planeHeight - 1);
    if (this.topIndex === i && this.bottomIndex === j) return;
    if (this.bottomIndex === i) {
      const t = this.top;
      this.top = this.bottom;
      this.bottom = t;
      this.topIndex = i;
      this.bottomIndex = -1;
    } else if (this.topIndex !== i) {
      this.upsampleRow(this.top, i);
      this.topIndex = i;
    }
    if (this.bottomIndex !== j) {
      this.upsampleRow(this.bottom, j);
      this.bottomIndex = j;
    }
  }

  private upsampleRow(out: Int32Array, y: number): void {
    const data = this.data;
    const reducedWidth = this.planeWidth;
    const row = y * reducedWidth;
    const index = this.index;
    const weight = this.weight;
    const next = reducedWidth > 1 ? 1 : 0;
    const width = this.width;
    for (let x = 0; x < width; x++) {
      const i = row + index[x];
      const wx = weight[x];
      out[x] = (data[i] * (256 - wx) + data[i + next] * wx + 8) >> 4;
    }
  }
}

/**
 * The three upsamplers live as long as the isolate, reset per page. Made per page, their shape
 * (V8 map) died with them at each garbage collection, and the optimised code of the render pass,
 * which depends on it, was thrown away and compiled again for the next photo.
 */
const SMOOTHED_ROWS = new UpsampledRows();
const BLURRED_ROWS = new UpsampledRows();
const SURROUND_ROWS = new UpsampledRows();

/** out[x] (x < width) = top and bottom blended by weight / 256, back to 8.8. */
function blendRows(top: Int32Array, bottom: Int32Array, weight: number, out: Int32Array, offset: number, width: number): void {
  const wTop = 256 - weight;
  for (let x = 0; x < width; x++) out[offset + x] = (top[x] * wTop + bottom[x] * weight + 2048) >> 12;
}

/**
 * The fused pass: upsample the three planes a row at a time; dodge, Sobel, levels, both lessened
 * by the surround (texture). Pixels as light as weakLevel or lighter are written as white paper
 * (what binarise would make them). The result is still grey: binarise decides what is a line.
 */
export function renderPage(
  page: Uint8Array,
  width: number,
  height: number,
  smoothed: FixedPlane,
  blurred: FixedPlane,
  surround: FixedPlane,
  edgeSigma: number,
  tuning: SketchTuning,
): void {
  const smoothedRows = upsampleTaps(height, smoothed.height, smoothed.scale);
  const smoothedColumns = SMOOTHED_ROWS;
  smoothedColumns.reset(smoothed, upsampleTaps(width, smoothed.width, smoothed.scale), width);
  const blurredRows = upsampleTaps(height, blurred.height, blurred.scale);
  const blurredColumns = BLURRED_ROWS;
  blurredColumns.reset(blurred, upsampleTaps(width, blurred.width, blurred.scale), width);
  const surroundRows = upsampleTaps(height, surround.height, surround.scale);
  const surroundColumns = SURROUND_ROWS;
  surroundColumns.reset(surround, upsampleTaps(width, surround.width, surround.scale), width);
  // Three rolling rows of the upsampled smoothed plane, one pixel of padding on each side so the
  // Sobel stencil needs no border tests.
  const padded = width + 2;
  let above = new Int32Array(padded);
  let middle = new Int32Array(padded);
  let below = new Int32Array(padded);
  const fillRow = (row: Int32Array, y: number) => {
    smoothedColumns.select(smoothedRows.index[y]);
    blendRows(smoothedColumns.top, smoothedColumns.bottom, smoothedRows.weight[y], row, 1, width);
    row[0] = row[1];
    row[width + 1] = row[width];
  };
  fillRow(middle, 0);
  above.set(middle);
  fillRow(below, Math.min(1, height - 1));

  const offset = tuning.dodgeOffset * 256;
  const levelsScale = 255 / (tuning.levelsWhite - tuning.levelsBlack);
  // Smoothing by sigma lowers a step edge's gradient by about 1/sigma; multiplying by sigma keeps
  // the thresholds meaning the same contrast at every scale. /256 undoes the 8.8 fixed point.
  const gradientScale = Math.max(1, edgeSigma) / 256;
  const edgeLowSquared = (tuning.edgeLow / gradientScale) ** 2;
  const edgeScale = tuning.edgeDarkening / (tuning.edgeHigh - tuning.edgeLow);
  for (let y = 0; y < height; y++) {
    blurredColumns.select(blurredRows.index[y]);
    surroundColumns.select(surroundRows.index[y]);
    pageRow(page, y * width, width, above, middle, below, blurredColumns.top, blurredColumns.bottom, blurredRows.weight[y],
      surroundColumns.top, surroundColumns.bottom, surroundRows.weight[y],
      offset, 255 * levelsScale, tuning.levelsBlack * levelsScale, edgeLowSquared, gradientScale, tuning.edgeLow,
      edgeScale, tuning.edgeDarkening, tuning.weakLevel, tuning.surroundSuppression / SURROUND_FIXED,
      tuning.dodgeSuppression / SURROUND_FIXED);
    const recycled = above;
    above = middle;
    middle = below;
    below = recycled;
    if (y + 2 < height) fillRow(below, y + 2);
    else below.set(middle);
  }
  smoothedColumns.release();
  blurredColumns.release();
  surroundColumns.release();
}

/**
 * One row of the page (a function of its own so the JIT optimises it as a whole). The Sobel
 * stencil is separable: per padded column c, V = above + 2 middle + below and D = below - above;
 * gx = V[c+1] - V[c-1], gy = D[c-1] + 2 D[c] + D[c+1]. Two columns are carried in locals, so each
 * pixel reads one new column (three values) and the blurred pair.
 */
function pageRow(
  page: Uint8Array,
  row: number,
  width: number,
  above: Int32Array,
  middle: Int32Array,
  below: Int32Array,
  blurTop: Int32Array,
  blurBottom: Int32Array,
  blurWeight: number,
  surroundTop: Int32Array,
  surroundBottom: Int32Array,
  surroundWeight: number,
  offset: number,
  dodgeScale: number,
  blackScaled: number,
  edgeLowSquared: number,
  gradientScale: number,
  edgeLow: number,
  edgeScale: number,
  edgeMax: number,
  paperLevel: number,
  edgeSuppression: number,
  dodgeSuppression: number,
): void {
  const blurTopWeight = 256 - blurWeight;
  const surroundTopWeight = 256 - surroundWeight;
  let v0 = above[0] + 2 * middle[0] + below[0];
  let d0 = below[0] - above[0];
  let v1 = above[1] + 2 * middle[1] + below[1];
  let d1 = below[1] - above[1];
  let m1 = middle[1];
  for (let x = 0; x < width; x++) {
    // Column x of the image is index x + 1 of the padded rows.
    const a2 = above[x + 2];
    const m2 = middle[x + 2];
    const b2 = below[x + 2];
    const v2 = a2 + 2 * m2 + b2;
    const d2 = b2 - a2;
    const blur = (blurTop[x] * blurTopWeight + blurBottom[x] * blurWeight + 2048) >> 12;
    const surround = (surroundTop[x] * surroundTopWeight + surroundBottom[x] * surroundWeight + 2048) >> 12;
    // Dodge, then levels, in one step; lightened where the surroundings are busy (texture).
    let value = ((m1 + offset) * dodgeScale) / (blur + offset) - blackScaled + surround * dodgeSuppression;
    if (value > 255) value = 255;
    else if (value < 0) value = 0;
    const gx = v2 - v0;
    const gy = d0 + 2 * d1 + d2;
    const squared = gx * gx + gy * gy;
    if (squared > edgeLowSquared) {
      let ink = (Math.sqrt(squared) * gradientScale - surround * edgeSuppression - edgeLow) * edgeScale;
      if (ink > edgeMax) ink = edgeMax;
      if (ink > 0) value *= 1 - ink;
    }
    const v = (value + 0.5) | 0;
    page[row + x] = v >= paperLevel ? 255 : v;
    v0 = v1;
    v1 = v2;
    d0 = d1;
    d1 = d2;
    m1 = m2;
  }
}

