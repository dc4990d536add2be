/**
 * The per-pixel boundary model's inputs (docs/decisions/035-boundary-model.md): on a plane
 * at the model's scale, for the lightness, both colour axes and the grain, how unlike the four
 * squares touching a pixel's corners are across it (left and right, above and below, and the two
 * diagonals; the largest and the smallest of the four) at three sizes; the same for the lightness's
 * spread (texture); gradient magnitudes at three scales; the grain around. 34 planes.
 */
import { blurFloatInPlace, type FloatPlane } from "../regions/float-plane";
import { sobelSteps } from "../regions/edge-map";
import { integrate, rectangleMean } from "../summed-area";

export const SQUARE_SIDES = [3, 6, 12] as const;
export const SPREAD_SIDES = [6, 12] as const;

/** A float plane with its summed-area table. */
interface SummedPlane {
  data: Float32Array;
  width: number;
  height: number;
  sums: Float64Array;
}

function summed(data: Float32Array, width: number, height: number): SummedPlane {
  const sums = new Float64Array((width + 1) * (height + 1));
  integrate({ data, width, height }, sums);
  return { data, width, height, sums };
}

/**
 * Largest and smallest of the four differences across each pixel between its corner squares of
 * `side`. Each square's mean is read once for the whole plane (the mean of the square whose top
 * left corner is at each pixel) and the four around a pixel looked up in it: 8 reads a pixel, not
 * 16. Near the plane's edges the squares are clipped to it (a square wholly outside takes the
 * pixel's own value).
 */
function acrossSquares(table: SummedPlane, side: number, largest: Float32Array, smallest: Float32Array, wanted?: Uint8Array): void {
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
        const mean = (x0: number, y0: number, x1: number, y1: number) => {
          const m = rectangleMean(sums, width, height, x0, y0, x1, y1);
          return Number.isNaN(m) ? own : m;
        };
        tl = mean(x - side, y - side, x, y);
        tr = mean(x + 1, y - side, x + 1 + side, y);
        bl = mean(x - side, y + 1, x, y + 1 + side);
        br = mean(x + 1, y + 1, x + 1 + side, y + 1 + side);
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
  const sums = new Float64Array((width + 1) * (height + 1));
  const squares = new Float64Array(sums.length);
  integrate({ data: plane, width, height }, sums, squares);
  const out = new Float32Array(plane.length);
  const before = side >> 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const m = rectangleMean(sums, width, height, x - before, y - before, x - before + side, y - before + side);
      const q = rectangleMean(squares, width, height, x - before, y - before, x - before + side, y - before + side);
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
  const stepsAt = (sigma: number) => sobelSteps(blurred(lightness, width, height, sigma)).data;
  const finestSteps = stepsAt(1);
  // A loop: TypedArray map calls its function per element, at twice a loop's time here.
  const grain = new Float32Array(finestSteps.length);
  for (let i = 0; i < grain.length; i++) grain[i] = Math.log1p(finestSteps[i]);
  const planes: Float32Array[] = [];
  const across = (table: SummedPlane, side: number) => {
    const largest = new Float32Array(width * height);
    const smallest = new Float32Array(width * height);
    acrossSquares(table, side, largest, smallest, wanted);
    planes.push(largest, smallest);
  };
  for (const plane of [lightness, cb, cr, grain]) {
    const table = summed(plane, width, height);
    for (const side of SQUARE_SIDES) across(table, side);
  }
  for (const side of SPREAD_SIDES) across(summed(spread(lightness, width, height, side), width, height), side);
  planes.push(finestSteps, stepsAt(2), stepsAt(4));
  planes.push(sobelSteps(blurred(cb, width, height, 2)).data, sobelSteps(blurred(cr, width, height, 2)).data);
  planes.push(blurred(grain, width, height, 4).data);
  return planes;
}
