import { describe, expect, it } from "vitest";
import { ScaledIdct } from "../../workers/sketch/decode/jpeg/idct";

/**
 * The scaled IDCT's sizes each have their own arithmetic (AAN at 8, written-out 7-, 6- and
 * 5-point, the general even/odd loop for the rest); all must be the textbook N-point IDCT of the
 * N x N lowest coefficients,
 * f(x, y) = 1/4 Σu Σv C(u) C(v) F(v, u) cos((2x+1)uπ/2N) cos((2y+1)vπ/2N) + 128,
 * computed here term by term (before the decoder's +0.5, rounding down and clamping).
 */
function textbook(block: Int32Array, n: number): number[] {
  const c = (u: number) => (u === 0 ? Math.SQRT1_2 : 1);
  const pixels: number[] = [];
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      let sum = 0;
      for (let v = 0; v < n; v++) {
        for (let u = 0; u < n; u++) {
          sum += c(u) * c(v) * block[v * 8 + u] * Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n)) * Math.cos(((2 * y + 1) * v * Math.PI) / (2 * n));
        }
      }
      pixels.push(sum / 4 + 128);
    }
  }
  return pixels;
}

/**
 * The pixel the decoder must write for an exact value: rounded and clamped. Where the exact value
 * lies on a rounding boundary (x.5, common: the coefficients are integers), the last bit of the
 * floating-point sum decides, and either neighbour is right.
 */
function expectPixel(actual: number, exact: number): void {
  const clamp = (v: number) => Math.min(255, Math.max(0, v));
  const boundary = Math.round(exact + 0.5);
  if (Math.abs(exact + 0.5 - boundary) < 1e-6) expect([clamp(boundary - 1), clamp(boundary)]).toContain(actual);
  else expect(actual).toBe(clamp(Math.floor(exact + 0.5)));
}

/** A fixed pseudo-random sequence (so a failure is the same on every run). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

/**
 * Dequantised coefficients as photos have them: a DC anywhere, ACs shrinking with frequency, many
 * zero; only the n x n the decoder stores for an n/8 IDCT.
 */
function photoLikeBlock(next: () => number, n: number): Int32Array {
  const block = new Int32Array(64);
  block[0] = Math.round((next() - 0.5) * 2000);
  for (let i = 1; i < 64; i++) {
    const u = i & 7;
    const v = i >> 3;
    if (u < n && v < n && next() < 0.4) block[i] = Math.round((next() - 0.5) * (600 / (u + v)));
  }
  return block;
}

describe("scaled IDCT", () => {
  for (let n = 1; n <= 8; n++) {
    it(`${n}/8 is the textbook ${n}-point IDCT, rounded`, () => {
      const idct = new ScaledIdct(n);
      const next = random(n);
      for (let trial = 0; trial < 300; trial++) {
        const block = photoLikeBlock(next, n);
        const exact = textbook(block, n);
        const plane = new Uint8Array(n * n);
        idct.run(block, plane, n, 0, 0, n, n);
        for (let i = 0; i < n * n; i++) expectPixel(plane[i], exact[i]);
        // Cleared for the next block (the decoder relies on it).
        expect(block.every((coefficient) => coefficient === 0)).toBe(true);
      }
    });
  }

  for (const n of [5, 6, 7, 8]) {
    it(`${n}/8 at the image's edge writes only the pixels inside it`, () => {
      const idct = new ScaledIdct(n);
      const block = photoLikeBlock(random(100 + n), n);
      const exact = textbook(block, n);
      // A 2 x 2 block grid whose last column and row are cut to 2 and 3 pixels.
      const width = n + 2;
      const height = n + 3;
      const plane = new Uint8Array(width * height + 16).fill(7);
      idct.run(block, plane, width, n, n, width, height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const value = plane[y * width + x];
          if (x >= n && y >= n) expectPixel(value, exact[(y - n) * n + (x - n)]);
          else expect(value).toBe(7);
        }
      }
      for (let i = width * height; i < plane.length; i++) expect(plane[i]).toBe(7);
      expect(block.every((coefficient) => coefficient === 0)).toBe(true);
    });
  }
});
