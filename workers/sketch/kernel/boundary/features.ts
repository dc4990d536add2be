/**
 * The per-pixel boundary model's inputs (docs/decisions/035-boundary-model.md): on a plane
 * at the model's scale, for the lightness, both colour axes and the grain, how unlike the four
 * squares touching a pixel's corners are across it (left and right, above and below, and the two
 * diagonals; the largest and the smallest of the four) at three sizes; the same for the lightness's
 * spread (texture); gradient magnitudes at three scales; the grain around. 34 planes.
 */
import { blurFloatInPlace, type FloatPlane } from "../regions/float-plane";
import { sobelSteps } from "../regions/edge-map";

export const SQUARE_SIDES = [3, 6, 12] as const;
export const SPREAD_SIDES = [6, 12] as const;

/** Sums over any rectangle of a plane in four lookups. */
class SummedArea {
  readonly sums: Float64Array;
  constructor(readonly data: Float32Array, readonly width: number, readonly height: number, square = false) {
    const stride = width + 1;
    const sums = new Float64Array(stride * (height + 1));
    for (let y = 0; y < height; y++) {
      let row = 0;
      for (let x = 0; x < width; x++) {
        const v = data[y * width + x];
        row += square ? v * v : v;
        sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row;
      }
    }
    this.sums = sums;
  }
  /** The mean over columns x0..x1-1 and rows y0..y1-1, clipped to the plane; NaN if empty. */
  mean(x0: number, y0: number, x1: number, y1: number): number {
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > this.width) x1 = this.width;
    if (y1 > this.height) y1 = this.height;
    if (x1 <= x0 || y1 <= y0) return NaN;
    const s = this.sums;
    const stride = this.width + 1;
    return (s[y1 * stride + x1] - s[y0 * stride + x1] - s[y1 * stride + x0] + s[y0 * stride + x0]) / ((x1 - x0) * (y1 - y0));
  }
}

/**
 * Largest and smallest of the four differences across each pixel between its corner squares of
 * `side`. Each square's mean is read once for the whole plane (the mean of the square whose top
 * left corner is at each pixel) and the four around a pixel looked up in it: 8 reads a pixel, not
 * 16. Near the plane's edges the squares are clipped to it (a square wholly outside takes the
 * pixel's own value).
 */
function acrossSquares(table: SummedArea, side: number, largest: Float32Array, smallest: Float32Array, wanted?: Uint8Array): void {
  const { data: plane, width, height, sums } = table;
  const stride = width + 1;
  const area = side * side;
  // The mean of the side x side square from (x, y), where it lies in the plane.
  const fits = Math.max(0, width - side + 1);
  const squares = new Float64Array(fits * Math.max(0, height - side + 1));
  for (let y = 0; y + side <= height; y++) {
    const top = y * stride;
    const bottom = (y + side) * stride;
    for (let x = 0; x < fits; x++) squares[y * fits + x] = (sums[bottom + x + side] - sums[top + x + side] - sums[bottom + x] + sums[top + x]) / area;
  }
  for (let y = 0; y < height; y++) {
    const inside = y >= side && y + 1 + side <= height;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (wanted && wanted[i] === 0) continue;
      let tl: number, tr: number, bl: number, br: number;
      if (inside && x >= side && x + 1 + side <= width) {
        const above = (y - side) * fits;
        const below = (y + 1) * fits;
        tl = squares[above + x - side];
        tr = squares[above + x + 1];
        bl = squares[below + x - side];
        br = squares[below + x + 1];
      } else {
        const own = plane[i];
        const orOwn = (v: number) => (Number.isNaN(v) ? own : v);
        tl = orOwn(table.mean(x - side, y - side, x, y));
        tr = orOwn(table.mean(x + 1, y - side, x + 1 + side, y));
        bl = orOwn(table.mean(x - side, y + 1, x, y + 1 + side));
        br = orOwn(table.mean(x + 1, y + 1, x + 1 + side, y + 1 + side));
      }
      // Left against right, top against bottom, and the two diagonals.
      const a = Math.abs(tl + bl - tr - br) / 2;
      const b = Math.abs(tl + tr - bl - br) / 2;
      const c = Math.abs(tr - bl);
      const d = Math.abs(tl - br);
      // By comparisons: Math.max and Math.min of four took a third of the stage.
      const ab = a > b;
      const cd = c > d;
      const hiAB = ab ? a : b;
      const hiCD = cd ? c : d;
      const loAB = ab ? b : a;
      const loCD = cd ? d : c;
      largest[i] = hiAB > hiCD ? hiAB : hiCD;
      smallest[i] = loAB < loCD ? loAB : loCD;
    }
  }
}

/** The spread (standard deviation) of a plane over a centred square of `side`. */
function spread(plane: Float32Array, width: number, height: number, side: number): Float32Array {
  const sums = new SummedArea(plane, width, height);
  const squares = new SummedArea(plane, width, height, true);
  const out = new Float32Array(plane.length);
  const before = side >> 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const m = sums.mean(x - before, y - before, x - before + side, y - before + side);
      const q = squares.mean(x - before, y - before, x - before + side, y - before + side);
      out[y * width + x] = Math.sqrt(Math.max(0, q - m * m));
    }
  }
  return out;
}

function blurred(plane: Float32Array, width: number, height: number, sigma: number): FloatPlane {
  const copy = { data: plane.slice(), width, height };
  blurFloatInPlace(copy, sigma);
  return copy;
}

/**
 * The 34 feature planes of lightness (0..255) and colour (Cb, Cr around 128) on one plane; the
 * squares compared only at the pixels `wanted` marks (all if none), 0 elsewhere.
 */
export function boundaryFeatures(lightness: Float32Array, cb: Float32Array, cr: Float32Array, width: number, height: number, wanted?: Uint8Array): Float32Array[] {
  const grain = sobelSteps(blurred(lightness, width, height, 1)).data;
  for (let i = 0; i < grain.length; i++) grain[i] = Math.log1p(grain[i]);
  const planes: Float32Array[] = [];
  const across = (table: SummedArea, side: number) => {
    const largest = new Float32Array(width * height);
    const smallest = new Float32Array(width * height);
    acrossSquares(table, side, largest, smallest, wanted);
    planes.push(largest, smallest);
  };
  for (const plane of [lightness, cb, cr, grain]) {
    const table = new SummedArea(plane, width, height);
    for (const side of SQUARE_SIDES) across(table, side);
  }
  for (const side of SPREAD_SIDES) across(new SummedArea(spread(lightness, width, height, side), width, height), side);
  for (const sigma of [1, 2, 4]) planes.push(sobelSteps(blurred(lightness, width, height, sigma)).data);
  planes.push(sobelSteps(blurred(cb, width, height, 2)).data, sobelSteps(blurred(cr, width, height, 2)).data);
  planes.push(blurred(grain, width, height, 4).data);
  return planes;
}
