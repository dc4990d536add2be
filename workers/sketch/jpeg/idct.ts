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

export class ScaledIdct {
  readonly size: number;
  private readonly table: Float64Array;
  private readonly rows: Float64Array;

  constructor(size: number) {
    if (!(size >= 1 && size <= 8)) throw new RangeError(`IDCT size ${size} is not 1..8`);
    this.size = size;
    this.table = tableFor(size);
    this.rows = new Float64Array(size * size);
  }

  /**
   * block: dequantised coefficients in natural order (row v, column u at v * 8 + u).
   * Writes the N x N pixels at (x0, y0) of the plane, clipped to width x height.
   */
  run(block: Int32Array, plane: Uint8Array, stride: number, x0: number, y0: number, width: number, height: number): void {
    const n = this.size;
    const table = this.table;
    const rows = this.rows;
    const w = Math.min(n, width - x0);
    const h = Math.min(n, height - y0);
    if (w <= 0 || h <= 0) return;

    // Rows (frequency v) first: each is an N-point IDCT over u.
    let nonZeroRows = 0;
    for (let v = 0; v < n; v++) {
      const base = v * 8;
      let ac = false;
      for (let u = 1; u < n; u++) {
        if (block[base + u] !== 0) {
          ac = true;
          break;
        }
      }
      const out = v * n;
      if (!ac) {
        const value = block[base] * table[0];
        if (value !== 0) nonZeroRows = v + 1;
        for (let x = 0; x < n; x++) rows[out + x] = value;
        continue;
      }
      nonZeroRows = v + 1;
      for (let x = 0; x < n; x++) {
        let sum = 0;
        const t = x * n;
        for (let u = 0; u < n; u++) sum += table[t + u] * block[base + u];
        rows[out + x] = sum;
      }
    }

    // Then columns (over v), level shift and clamp.
    for (let y = 0; y < h; y++) {
      const t = y * n;
      const target = (y0 + y) * stride + x0;
      for (let x = 0; x < w; x++) {
        let sum = 128.5;
        for (let v = 0; v < nonZeroRows; v++) sum += table[t + v] * rows[v * n + x];
        plane[target + x] = sum <= 0 ? 0 : sum >= 255 ? 255 : sum | 0;
      }
    }
  }
}
