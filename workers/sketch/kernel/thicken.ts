/**
 * Line weight: a binary page's ink grown by `radius` pixels in every direction (a square
 * structuring element, dilation of the ink), so the thinnest kept line is at least
 * 2 × radius + 1 pixels wide (3 px ≈ 0.25 mm, 5 px ≈ 0.42 mm at 300 dpi) and gaps narrower than
 * 2 × radius close. A square of radius r is r squares of radius 1 in a row, and each of those is
 * separable: a pixel is ink when it or a neighbour along the row is, then along the column.
 *
 * On 0/255 bytes the minimum of a window is the bitwise AND of its bytes, so when rows are whole
 * 32-bit words (width a multiple of 4) both passes work on four pixels per word.
 */
import type { GrayPlane } from "./plane";

export function thickenLines(page: GrayPlane, radius: number): void {
  if (radius < 1) return;
  const { width, height, data } = page;
  const wordRows = width % 4 === 0 && data.byteOffset % 4 === 0;
  const scratch = new Uint8Array(width * height);
  for (let step = 0; step < radius; step++) {
    if (wordRows) {
      const words = width >> 2;
      const page32 = new Uint32Array(data.buffer, data.byteOffset, (width * height) >> 2);
      const scratch32 = new Uint32Array(scratch.buffer, 0, (width * height) >> 2);
      rowsByWords(page32, scratch32, words, height);
      columnsByWords(scratch32, page32, words, height);
    } else {
      rowsByBytes(data, scratch, width, height);
      columnsByBytes(scratch, data, width, height);
    }
  }
}

/**
 * out = in AND in shifted one pixel left AND one pixel right, per row. Little-endian: pixel x of a
 * word is byte x & 3, so the left neighbour comes from `word << 8` and the previous word's top
 * byte; outside the row is white paper (all ones).
 */
function rowsByWords(input: Uint32Array, out: Uint32Array, words: number, height: number): void {
  for (let y = 0; y < height; y++) {
    const row = y * words;
    let previous = 0xffffffff;
    let word = input[row];
    for (let x = 0; x < words; x++) {
      const next = x + 1 < words ? input[row + x + 1] : 0xffffffff;
      if ((word & previous & next) === 0xffffffff) {
        out[row + x] = 0xffffffff; // paper here and next door: nothing to grow
      } else {
        const fromLeft = (word << 8) | (previous >>> 24);
        const fromRight = (word >>> 8) | (next << 24);
        out[row + x] = word & fromLeft & fromRight;
      }
      previous = word;
      word = next;
    }
  }
}

/** out row y = in rows y - 1, y, y + 1 ANDed (the page's edge repeats nothing: outside is paper). */
function columnsByWords(input: Uint32Array, out: Uint32Array, words: number, height: number): void {
  for (let y = 0; y < height; y++) {
    const row = y * words;
    const up = y > 0 ? row - words : row;
    const down = y + 1 < height ? row + words : row;
    for (let x = 0; x < words; x++) out[row + x] = input[up + x] & input[row + x] & input[down + x];
  }
}

function rowsByBytes(input: Uint8Array, out: Uint8Array, width: number, height: number): void {
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const left = x > 0 ? input[row + x - 1] : 255;
      const right = x + 1 < width ? input[row + x + 1] : 255;
      out[row + x] = input[row + x] & left & right;
    }
  }
}

function columnsByBytes(input: Uint8Array, out: Uint8Array, width: number, height: number): void {
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const up = y > 0 ? row - width : row;
    const down = y + 1 < height ? row + width : row;
    for (let x = 0; x < width; x++) out[row + x] = input[up + x] & input[row + x] & input[down + x];
  }
}
