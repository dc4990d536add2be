/**
 * Scaled inverse DCT: an 8x8 block of coefficients straight to N x N pixels (N = 1..8), the
 * image reduced by N/8 in the DCT domain, as libjpeg's scaled IDCTs do.
 *
 * Keeping the N x N lowest frequencies and taking an N-point IDCT of them gives the block's
 * band-limited picture sampled at N points per side. With JPEG's normalisation the N-point
 * inverse is, per dimension, f(x) = 1/2 · Σ_{u<N} C(u) F(u) cos((2x+1)uπ / 2N), C(0) = 1/√2:
 * the same formula as the 8-point one with 2N in the cosine, so a flat block keeps its grey.
 */

const tables: Float64Array[] = [];

/** tables[N][x * N + u] = 1/2 · C(u) · cos((2x + 1)uπ / 2N). */
function tableFor(size: number): Float64Array {
  let table = tables[size];
  if (!table) {
    table = new Float64Array(size * size);
    for (let x = 0; x < size; x++) {
      for (let u = 0; u < size; u++) {
        table[x * size + u] = 0.5 * (u === 0 ? Math.SQRT1_2 : 1) * Math.cos(((2 * x + 1) * u * Math.PI) / (2 * size));
      }
    }
    tables[size] = table;
  }
  return table;
}

/**
 * For the highest zigzag index k holding a non-zero coefficient, the number of coefficient
 * columns (u) and rows (v) that can be non-zero: 1 + the largest u and v among zigzag 0..k.
 * Decoders track k as they place coefficients, and the IDCT skips what must be zero.
 */
export const ZIGZAG_COLUMNS = new Uint8Array(64);
export const ZIGZAG_ROWS = new Uint8Array(64);
{
  const zigzag = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
    28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
    54, 47, 55, 62, 63,
  ];
  let columns = 0;
  let rows = 0;
  for (let k = 0; k < 64; k++) {
    columns = Math.max(columns, (zigzag[k] & 7) + 1);
    rows = Math.max(rows, (zigzag[k] >> 3) + 1);
    ZIGZAG_COLUMNS[k] = columns;
    ZIGZAG_ROWS[k] = rows;
  }
}

/**
 * Full size (8 x 8) uses the Arai-Agui-Nakajima factorisation of the 8-point IDCT (5 products
 * per pass instead of 64): its inputs are pre-scaled by s(u) s(v) / 8, with s(0) = 1 and
 * s(k) = √2 cos(kπ/16), the /8 being JPEG's normalisation of the 2-D transform.
 */
const AAN_SCALE = new Float64Array(64);
{
  const s = (k: number) => (k === 0 ? 1 : Math.SQRT2 * Math.cos((k * Math.PI) / 16));
  for (let v = 0; v < 8; v++) for (let u = 0; u < 8; u++) AAN_SCALE[v * 8 + u] = (s(u) * s(v)) / 8;
}
/*
 * The written-out sizes read these factors into locals before their loops. Read in the loops,
 * each use of a module-level constant was a load of the module's slot and a check of the number
 * it holds (the optimising compiler does not fold them into the code): the 7/8 decode of a 12 MP
 * photo took 108 ms with them and 88 ms with locals, the 8/8 of a 2560 px photo 4 % longer.
 */
const SQRT2 = Math.SQRT2;
/** 2 cos(π/8), 2 (cos(π/8) - cos(3π/8)), -2 (cos(π/8) + cos(3π/8)): the odd part's rotation. */
const AAN_C2 = 2 * Math.cos(Math.PI / 8);
const AAN_C2_MINUS_C6 = 2 * (Math.cos(Math.PI / 8) - Math.cos((3 * Math.PI) / 8));
const AAN_MINUS_C2_PLUS_C6 = -2 * (Math.cos(Math.PI / 8) + Math.cos((3 * Math.PI) / 8));

/**
 * The 7-point IDCT's factors, the 1/2 of each 1-D pass folded in: 1/2 · C(u) · cos(kπ/14). Every
 * cos((2x + 1)uπ/14) of the 7-point transform is one of ±cos(kπ/14), k = 0..6 (sevenBySeven).
 */
const SEVEN_H0 = 0.5 * Math.SQRT1_2;
const SEVEN_H1 = 0.5 * Math.cos(Math.PI / 14);
const SEVEN_H2 = 0.5 * Math.cos((2 * Math.PI) / 14);
const SEVEN_H3 = 0.5 * Math.cos((3 * Math.PI) / 14);
const SEVEN_H4 = 0.5 * Math.cos((4 * Math.PI) / 14);
const SEVEN_H5 = 0.5 * Math.cos((5 * Math.PI) / 14);
const SEVEN_H6 = 0.5 * Math.cos((6 * Math.PI) / 14);

/** The 5-point IDCT's factors, as SEVEN_H*: 1/2 · C(u) · cos(kπ/10). */
const FIVE_H0 = 0.5 * Math.SQRT1_2;
const FIVE_H1 = 0.5 * Math.cos(Math.PI / 10);
const FIVE_H2 = 0.5 * Math.cos((2 * Math.PI) / 10);
const FIVE_H3 = 0.5 * Math.cos((3 * Math.PI) / 10);
const FIVE_H4 = 0.5 * Math.cos((4 * Math.PI) / 10);

/** The 6-point IDCT's factors, the 1/2 of each 1-D pass folded in: 1/2 · C(u) · cos(uπ/12). */
const SIX_H0 = 0.5 * Math.SQRT1_2;
const SIX_H1 = 0.5 * Math.cos(Math.PI / 12);
const SIX_H2 = 0.5 * Math.cos((2 * Math.PI) / 12);
const SIX_H3 = 0.5 * Math.cos((3 * Math.PI) / 12);
const SIX_H5 = 0.5 * Math.cos((5 * Math.PI) / 12);

export class ScaledIdct {
  readonly size: number;
  private readonly table: Float64Array;
  private readonly rows: Float64Array;
  /** A written-out size's block that the image's edge cuts is drawn here whole, then copied in part. */
  private readonly edgeBlock: Uint8Array;

  constructor(size: number) {
    if (!(size >= 1 && size <= 8)) throw new RangeError(`IDCT size ${size} is not 1..8`);
    this.size = size;
    this.table = tableFor(size);
    this.rows = new Float64Array(size * size);
    this.edgeBlock = new Uint8Array(size * size);
  }

  /**
   * block: dequantised coefficients in natural order (row v, column u at v * 8 + u).
   * Writes the N x N pixels at (x0, y0) of the plane, clipped to width x height.
   * lastZigzag: the highest zigzag index that may be non-zero (63 when unknown): coefficients
   * past it are zero, so their columns and rows are skipped.
   *
   * Leaves the block all zero, ready for the next: each path clears what it reads, which is all
   * that can be non-zero when the caller stores only the N x N coefficients this size reads
   * (clearing as it reads is cheaper than a second walk over the block's zigzag order).
   */
  run(block: Int32Array, plane: Uint8Array, stride: number, x0: number, y0: number, width: number, height: number, lastZigzag = 63): void {
    const n = this.size;
    const table = this.table;
    const rows = this.rows;
    const w = Math.min(n, width - x0);
    const h = Math.min(n, height - y0);
    if (w <= 0 || h <= 0) {
      // A block of the padding past the image's edge: nothing to draw.
      block.fill(0);
      return;
    }
    const columnCount = Math.min(n, ZIGZAG_COLUMNS[lastZigzag]);
    const rowCount = Math.min(n, ZIGZAG_ROWS[lastZigzag]);

    if (columnCount === 1 && rowCount === 1) {
      // DC only: one grey for the whole block (the most common block in smooth areas).
      const sum = 128.5 + table[0] * (block[0] * table[0]);
      block[0] = 0;
      const value = toPixel(sum);
      // Plain stores: a fill() call per row of 6-8 pixels costs more than the pixels.
      for (let y = 0, row = y0 * stride + x0; y < h; y++, row += stride) {
        for (let x = 0; x < w; x++) plane[row + x] = value;
      }
      return;
    }
    if (n >= 5) {
      // The written-out sizes draw whole blocks. A block the image's right or bottom edge cuts
      // (one column and one row of blocks) is drawn whole into edgeBlock and its part inside
      // the image copied: no edge tests in their loops.
      const whole = w === n && h === n;
      const out = whole ? plane : this.edgeBlock;
      const outStride = whole ? stride : n;
      const target = whole ? y0 * stride + x0 : 0;
      if (n === 8) this.fullSize(block, out, outStride, target);
      else if (n === 7) this.sevenBySeven(block, out, outStride, target);
      else if (n === 6) this.sixBySix(block, out, outStride, target);
      else this.fiveByFive(block, out, outStride, target);
      if (!whole) {
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) plane[(y0 + y) * stride + x0 + x] = out[y * n + x];
        }
      }
      return;
    }

    // Each 1-D pass splits the sum into even and odd frequencies: cos((2(N-1-x)+1)uπ/2N) is
    // (-1)^u cos((2x+1)uπ/2N), so the outputs x and N-1-x are even + odd and even - odd, and
    // half the products do for both.
    const half = (n + 1) >> 1;

    // Rows (frequency v) first: each is an N-point IDCT over u.
    for (let v = 0; v < rowCount; v++) {
      const base = v * 8;
      const out = v * n;
      let ac = false;
      for (let u = 1; u < columnCount; u++) {
        if (block[base + u] !== 0) {
          ac = true;
          break;
        }
      }
      if (!ac) {
        const value = block[base] * table[0];
        block[base] = 0;
        for (let x = 0; x < n; x++) rows[out + x] = value;
        continue;
      }
      for (let x = 0; x < half; x++) {
        const t = x * n;
        let even = 0;
        let odd = 0;
        for (let u = 0; u < columnCount; u += 2) even += table[t + u] * block[base + u];
        for (let u = 1; u < columnCount; u += 2) odd += table[t + u] * block[base + u];
        rows[out + x] = even + odd;
        if (n - 1 - x !== x) rows[out + n - 1 - x] = even - odd;
      }
      for (let u = 0; u < columnCount; u++) block[base + u] = 0;
    }

    // Then columns (over v), level shift and clamp; output rows y and N-1-y together.
    for (let y = 0; y < half && y < h; y++) {
      const t = y * n;
      const mirror = n - 1 - y;
      const top = (y0 + y) * stride + x0;
      const bottom = mirror !== y && mirror < h ? (y0 + mirror) * stride + x0 : -1;
      for (let x = 0; x < w; x++) {
        let even = 128.5;
        let odd = 0;
        for (let v = 0; v < rowCount; v += 2) even += table[t + v] * rows[v * n + x];
        for (let v = 1; v < rowCount; v += 2) odd += table[t + v] * rows[v * n + x];
        const upper = even + odd;
        plane[top + x] = toPixel(upper);
        if (bottom >= 0) {
          const lower = even - odd;
          plane[bottom + x] = toPixel(lower);
        }
      }
    }
  }

  /**
   * 7 x 7 (a 12 MP photo's 7/8: 4000 or 4032 px wide, the most common photo customers send),
   * written out as sixBySix is. With h(k) = 1/2 cos(kπ/14) each output pair x, 6 - x is
   * even ± odd, and the middle one (x = 3) has no odd part:
   *   E0 = a + F2 h2 + F4 h4 + F6 h6     O0 = F1 h1 + F3 h3 + F5 h5
   *   E1 = a + F2 h6 - F4 h2 - F6 h4     O1 = F1 h3 - F3 h5 - F5 h1
   *   E2 = a - F2 h4 - F4 h6 + F6 h2     O2 = F1 h5 - F3 h1 + F5 h3
   *   E3 = a + (F4 - F2 - F6) / 2        a = F0 · 1/2 · √½
   * 20 products per 1-D pass, no table reads: about 280 ns a block where the general loop took
   * 760 (a 12 MP photo's decode 165 → 106 ms; its pages the same). Same sums in another order
   * than the general path (a last-bit difference can move a pixel by one level).
   *
   * The written-out sizes (5, 6, 7) repeat their 1-D formulas in both passes, and each other's
   * shape with their own constants: the column pass writes doubles to the workspace, the row pass
   * clamped bytes to the plane, and a store loop shared between the sizes made every decode
   * about 10 % slower (decision 004, "Amendment (late night)").
   */
  private sevenBySeven(block: Int32Array, plane: Uint8Array, stride: number, target: number): void {
    const ws = this.rows;
    const h0 = SEVEN_H0;
    const h1 = SEVEN_H1;
    const h2 = SEVEN_H2;
    const h3 = SEVEN_H3;
    const h4 = SEVEN_H4;
    const h5 = SEVEN_H5;
    const h6 = SEVEN_H6;
    for (let u = 0; u < 7; u++) {
      const f0 = block[u];
      const f1 = block[8 + u];
      const f2 = block[16 + u];
      const f3 = block[24 + u];
      const f4 = block[32 + u];
      const f5 = block[40 + u];
      const f6 = block[48 + u];
      block[u] = block[8 + u] = block[16 + u] = block[24 + u] = block[32 + u] = block[40 + u] = block[48 + u] = 0;
      const a = f0 * h0;
      const e0 = a + f2 * h2 + f4 * h4 + f6 * h6;
      const e1 = a + f2 * h6 - f4 * h2 - f6 * h4;
      const e2 = a - f2 * h4 - f4 * h6 + f6 * h2;
      const o0 = f1 * h1 + f3 * h3 + f5 * h5;
      const o1 = f1 * h3 - f3 * h5 - f5 * h1;
      const o2 = f1 * h5 - f3 * h1 + f5 * h3;
      ws[u] = e0 + o0;
      ws[42 + u] = e0 - o0;
      ws[7 + u] = e1 + o1;
      ws[35 + u] = e1 - o1;
      ws[14 + u] = e2 + o2;
      ws[28 + u] = e2 - o2;
      ws[21 + u] = a + (f4 - f2 - f6) * 0.5;
    }
    for (let r = 0; r < 49; r += 7, target += stride) {
      const f0 = ws[r];
      const f1 = ws[r + 1];
      const f2 = ws[r + 2];
      const f3 = ws[r + 3];
      const f4 = ws[r + 4];
      const f5 = ws[r + 5];
      const f6 = ws[r + 6];
      // The level shift rides on a: every output gets exactly one.
      const a = f0 * h0 + 128.5;
      const e0 = a + f2 * h2 + f4 * h4 + f6 * h6;
      const e1 = a + f2 * h6 - f4 * h2 - f6 * h4;
      const e2 = a - f2 * h4 - f4 * h6 + f6 * h2;
      const o0 = f1 * h1 + f3 * h3 + f5 * h5;
      const o1 = f1 * h3 - f3 * h5 - f5 * h1;
      const o2 = f1 * h5 - f3 * h1 + f5 * h3;
      plane[target] = toPixel(e0 + o0);
      plane[target + 1] = toPixel(e1 + o1);
      plane[target + 2] = toPixel(e2 + o2);
      plane[target + 3] = toPixel(a + (f4 - f2 - f6) * 0.5);
      plane[target + 4] = toPixel(e2 - o2);
      plane[target + 5] = toPixel(e1 - o1);
      plane[target + 6] = toPixel(e0 - o0);
    }
  }

  /**
   * 5 x 5 (a 24 MP camera photo's 5/8: 6000 px wide), written out as sevenBySeven is. With
   * h(k) = 1/2 cos(kπ/10):
   *   E0 = a + F2 h2 + F4 h4     O0 = F1 h1 + F3 h3
   *   E1 = a - F2 h4 - F4 h2     O1 = F1 h3 - F3 h1
   *   E2 = a + (F4 - F2) / 2     a = F0 · 1/2 · √½
   * and the outputs x, 4 - x are E ± O (the middle one E2).
   */
  private fiveByFive(block: Int32Array, plane: Uint8Array, stride: number, target: number): void {
    const ws = this.rows;
    const h0 = FIVE_H0;
    const h1 = FIVE_H1;
    const h2 = FIVE_H2;
    const h3 = FIVE_H3;
    const h4 = FIVE_H4;
    for (let u = 0; u < 5; u++) {
      const f0 = block[u];
      const f1 = block[8 + u];
      const f2 = block[16 + u];
      const f3 = block[24 + u];
      const f4 = block[32 + u];
      block[u] = block[8 + u] = block[16 + u] = block[24 + u] = block[32 + u] = 0;
      const a = f0 * h0;
      const e0 = a + f2 * h2 + f4 * h4;
      const e1 = a - f2 * h4 - f4 * h2;
      const o0 = f1 * h1 + f3 * h3;
      const o1 = f1 * h3 - f3 * h1;
      ws[u] = e0 + o0;
      ws[20 + u] = e0 - o0;
      ws[5 + u] = e1 + o1;
      ws[15 + u] = e1 - o1;
      ws[10 + u] = a + (f4 - f2) * 0.5;
    }
    for (let r = 0; r < 25; r += 5, target += stride) {
      const f0 = ws[r];
      const f1 = ws[r + 1];
      const f2 = ws[r + 2];
      const f3 = ws[r + 3];
      const f4 = ws[r + 4];
      // The level shift rides on a: every output gets exactly one.
      const a = f0 * h0 + 128.5;
      const e0 = a + f2 * h2 + f4 * h4;
      const e1 = a - f2 * h4 - f4 * h2;
      const o0 = f1 * h1 + f3 * h3;
      const o1 = f1 * h3 - f3 * h1;
      plane[target] = toPixel(e0 + o0);
      plane[target + 1] = toPixel(e1 + o1);
      plane[target + 2] = toPixel(a + (f4 - f2) * 0.5);
      plane[target + 3] = toPixel(e1 - o1);
      plane[target + 4] = toPixel(e0 - o0);
    }
  }

  /**
   * 6 x 6 (a 5120 px photo's 6/8, the scale of the largest common photos), written out: with
   * c(k) = cos(kπ/12) the 6-point cosines fold to c(1), c(2), c(3), c(5) and 1/2, so one 1-D
   * pass is 9 products instead of the general loop's 18, and no table reads. Same sums as the
   * general path, in another order (a last-bit difference can move a pixel by one level).
   * Columns (over v) into the workspace, then each pixel row at once, stored left to right; no
   * tests for zero coefficients (at 6/8 most blocks of a photo have them all through, and the
   * branches cost more than the products they would save).
   */
  private sixBySix(block: Int32Array, plane: Uint8Array, stride: number, target: number): void {
    const ws = this.rows;
    const h0 = SIX_H0;
    const h1 = SIX_H1;
    const h2 = SIX_H2;
    const h3 = SIX_H3;
    const h5 = SIX_H5;
    for (let u = 0; u < 6; u++) {
      const f0 = block[u];
      const f1 = block[8 + u];
      const f2 = block[16 + u];
      const f3 = block[24 + u];
      const f4 = block[32 + u];
      const f5 = block[40 + u];
      block[u] = block[8 + u] = block[16 + u] = block[24 + u] = block[32 + u] = block[40 + u] = 0;
      const a = f0 * h0;
      const b = f2 * h2;
      const c = f4 * 0.25;
      const e0 = a + b + c;
      const e1 = a - f4 * 0.5;
      const e2 = a - b + c;
      const t3 = f3 * h3;
      const o0 = f1 * h1 + t3 + f5 * h5;
      const o1 = (f1 - f3 - f5) * h3;
      const o2 = f1 * h5 - t3 + f5 * h1;
      ws[u] = e0 + o0;
      ws[30 + u] = e0 - o0;
      ws[6 + u] = e1 + o1;
      ws[24 + u] = e1 - o1;
      ws[12 + u] = e2 + o2;
      ws[18 + u] = e2 - o2;
    }
    for (let r = 0; r < 36; r += 6, target += stride) {
      const f0 = ws[r];
      const f1 = ws[r + 1];
      const f2 = ws[r + 2];
      const f3 = ws[r + 3];
      const f4 = ws[r + 4];
      const f5 = ws[r + 5];
      // The level shift rides on the even part: every output gets exactly one e term.
      const a = f0 * h0 + 128.5;
      const b = f2 * h2;
      const c = f4 * 0.25;
      const e0 = a + b + c;
      const e1 = a - f4 * 0.5;
      const e2 = a - b + c;
      const t3 = f3 * h3;
      const o0 = f1 * h1 + t3 + f5 * h5;
      const o1 = (f1 - f3 - f5) * h3;
      const o2 = f1 * h5 - t3 + f5 * h1;
      plane[target] = toPixel(e0 + o0);
      plane[target + 1] = toPixel(e1 + o1);
      plane[target + 2] = toPixel(e2 + o2);
      plane[target + 3] = toPixel(e2 - o2);
      plane[target + 4] = toPixel(e1 - o1);
      plane[target + 5] = toPixel(e0 - o0);
    }
  }

  /**
   * 8 x 8 by AAN: columns (over v) into the workspace, then rows (over u) to pixels, stored left
   * to right. No tests for zero columns or rows: blocks that are not DC-only (run() takes those)
   * mostly have several, and the branches cost more than the arithmetic they would skip.
   */
  private fullSize(block: Int32Array, plane: Uint8Array, stride: number, target: number): void {
    const ws = this.rows;
    const sqrt2 = SQRT2;
    const c2 = AAN_C2;
    const c2MinusC6 = AAN_C2_MINUS_C6;
    const minusC2PlusC6 = AAN_MINUS_C2_PLUS_C6;
    for (let u = 0; u < 8; u++) {
      // Even part (inputs 0, 2, 4, 6).
      const d0 = block[u] * AAN_SCALE[u];
      const d2 = block[16 + u] * AAN_SCALE[16 + u];
      const d4 = block[32 + u] * AAN_SCALE[32 + u];
      const d6 = block[48 + u] * AAN_SCALE[48 + u];
      // Odd part (inputs 1, 3, 5, 7).
      const d1 = block[8 + u] * AAN_SCALE[8 + u];
      const d3 = block[24 + u] * AAN_SCALE[24 + u];
      const d5 = block[40 + u] * AAN_SCALE[40 + u];
      const d7 = block[56 + u] * AAN_SCALE[56 + u];
      block[u] = block[8 + u] = block[16 + u] = block[24 + u] = block[32 + u] = block[40 + u] = block[48 + u] = block[56 + u] = 0;
      const sum04 = d0 + d4;
      const diff04 = d0 - d4;
      const sum26 = d2 + d6;
      const rot26 = (d2 - d6) * sqrt2 - sum26;
      const e0 = sum04 + sum26;
      const e3 = sum04 - sum26;
      const e1 = diff04 + rot26;
      const e2 = diff04 - rot26;
      const z13 = d5 + d3;
      const z10 = d5 - d3;
      const z11 = d1 + d7;
      const z12 = d1 - d7;
      const o7 = z11 + z13;
      const o11 = (z11 - z13) * sqrt2;
      const z5 = (z10 + z12) * c2;
      const o6 = minusC2PlusC6 * z10 + z5 - o7;
      const o5 = o11 - o6;
      const o4 = c2MinusC6 * z12 - z5 + o5;
      ws[u] = e0 + o7;
      ws[56 + u] = e0 - o7;
      ws[8 + u] = e1 + o6;
      ws[48 + u] = e1 - o6;
      ws[16 + u] = e2 + o5;
      ws[40 + u] = e2 - o5;
      ws[32 + u] = e3 + o4;
      ws[24 + u] = e3 - o4;
    }
    for (let r = 0; r < 64; r += 8, target += stride) {
      const sum04 = ws[r] + ws[r + 4];
      const diff04 = ws[r] - ws[r + 4];
      const sum26 = ws[r + 2] + ws[r + 6];
      const rot26 = (ws[r + 2] - ws[r + 6]) * sqrt2 - sum26;
      // The level shift rides on the even part: every output gets exactly one e term.
      const e0 = sum04 + sum26 + 128.5;
      const e3 = sum04 - sum26 + 128.5;
      const e1 = diff04 + rot26 + 128.5;
      const e2 = diff04 - rot26 + 128.5;
      const z13 = ws[r + 5] + ws[r + 3];
      const z10 = ws[r + 5] - ws[r + 3];
      const z11 = ws[r + 1] + ws[r + 7];
      const z12 = ws[r + 1] - ws[r + 7];
      const o7 = z11 + z13;
      const o11 = (z11 - z13) * sqrt2;
      const z5 = (z10 + z12) * c2;
      const o6 = minusC2PlusC6 * z10 + z5 - o7;
      const o5 = o11 - o6;
      const o4 = c2MinusC6 * z12 - z5 + o5;
      plane[target] = toPixel(e0 + o7);
      plane[target + 1] = toPixel(e1 + o6);
      plane[target + 2] = toPixel(e2 + o5);
      plane[target + 3] = toPixel(e3 - o4);
      plane[target + 4] = toPixel(e3 + o4);
      plane[target + 5] = toPixel(e2 - o5);
      plane[target + 6] = toPixel(e1 - o6);
      plane[target + 7] = toPixel(e0 - o7);
    }
  }
}

/** A pixel of the plane from its value with the level shift and the 0.5 of rounding added. */
function toPixel(value: number): number {
  return value <= 0 ? 0 : value >= 255 ? 255 : value | 0;
}
