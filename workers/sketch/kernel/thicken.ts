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
  if (wordRows) {
    const page32 = new Uint32Array(data.buffer, data.byteOffset, (width * height) >> 2);
    for (let step = 0; step < radius; step++) thickenByWords(page32, width >> 2, height);
    return;
  }
  const scratch = new Uint8Array(width * height);
  for (let step = 0; step < radius; step++) {
    rowsByBytes(data, scratch, width, height);
    columnsByBytes(scratch, data, width, height);
  }
}

/**
 * One square of radius 1, in place, with three rolling rows instead of a page-sized scratch
 * plane: row y of the page is written only after row y + 1 has been grown along the row, so every
 * row is read before it is overwritten.
 */
function thickenByWords(page: Uint32Array, words: number, height: number): void {
  let above = new Uint32Array(words);
  let here = new Uint32Array(words);
  let below = new Uint32Array(words);
  rowByWords(page, 0, here, words);
  above.set(here); // above the page is nothing: the first row is ANDed with itself
  for (let y = 0; y < height; y++) {
    if (y + 1 < height) rowByWords(page, (y + 1) * words, below, words);
    else below.set(here);
    const row = y * words;
    for (let x = 0; x < words; x++) page[row + x] = above[x] & here[x] & below[x];
    const recycled = above;
    above = here;
    here = below;
    below = recycled;
  }
}

/**
 * out = the row at `row` AND itself shifted one pixel left AND one pixel right. Little-endian:
 * pixel x of a word is byte x & 3, so the left neighbour comes from `word << 8` and the previous
 * word's top byte; outside the row is white paper (all ones).
 */
function rowByWords(input: Uint32Array, row: number, out: Uint32Array, words: number): void {
  let previous = 0xffffffff;
  let word = input[row];
  for (let x = 0; x < words; x++) {
    const next = x + 1 < words ? input[row + x + 1] : 0xffffffff;
    if ((word & previous & next) === 0xffffffff) {
      out[x] = 0xffffffff; // paper here and next door: nothing to grow
    } else {
      const fromLeft = (word << 8) | (previous >>> 24);
      const fromRight = (word >>> 8) | (next << 24);
      out[x] = word & fromLeft & fromRight;
    }
    previous = word;
    word = next;
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
