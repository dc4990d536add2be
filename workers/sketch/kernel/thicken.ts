/**
 * Line weight: a binary page's ink grown by `radius` pixels in every direction (a square
 * structuring element, dilation of the ink), so the thinnest kept line is at least
 * 2 × radius + 1 pixels wide (3 px ≈ 0.25 mm, 5 px ≈ 0.42 mm at 300 dpi) and gaps narrower than
 * 2 × radius close. A square of radius r is r squares of radius 1 in a row, and each of those is
 * separable: a pixel is ink when it or a neighbour along the row is, then along the column.
 *
 * On 0/255 bytes the minimum of a window is the bitwise AND of its bytes, so both passes work on
 * four pixels per 32-bit word. Rows are copied into a word-aligned row buffer (padded with paper)
 * whatever the page's width, so every width takes the word path.
 */
import type { GrayPlane } from "./plane";

export function thickenLines(page: GrayPlane, radius: number): void {
  if (radius < 1) return;
  const { width, height, data } = page;
  const words = (width + 3) >> 2;
  if (rowWords.length < words) {
    rowWords = new Uint32Array(words);
    grownWords = [new Uint32Array(words), new Uint32Array(words), new Uint32Array(words)];
    andedWords = new Uint32Array(words);
  }
  // Past the row's last pixel the buffer stays white paper: copies only write `width` bytes.
  rowWords.fill(0xffffffff);
  const rowBytes = new Uint8Array(rowWords.buffer, 0, words * 4);
  for (let step = 0; step < radius; step++) thickenOnce(data, width, height, words, rowBytes);
}

/** Buffers of a row, kept for the isolate's life and grown as needed: the row as read, grown along the row (three, rolling), and the result. */
let rowWords = new Uint32Array(0);
let grownWords = [new Uint32Array(0), new Uint32Array(0), new Uint32Array(0)];
let andedWords = new Uint32Array(0);

/**
 * One square of radius 1, in place, with three rolling rows instead of a page-sized scratch
 * plane: row y of the page is written only after row y + 1 has been grown along the row, so every
 * row is read before it is overwritten.
 */
function thickenOnce(data: Uint8Array, width: number, height: number, words: number, rowBytes: Uint8Array): void {
  let [above, here, below] = grownWords;
  const anded = andedWords;
  const andedBytes = new Uint8Array(anded.buffer, 0, width);
  rowBytes.set(data.subarray(0, width));
  rowByWords(rowWords, here, words);
  above.set(here); // above the page is nothing: the first row is ANDed with itself
  for (let y = 0; y < height; y++) {
    if (y + 1 < height) {
      rowBytes.set(data.subarray((y + 1) * width, (y + 2) * width));
      rowByWords(rowWords, below, words);
    } else {
      below.set(here);
    }
    andRows(above, here, below, anded, words);
    data.set(andedBytes, y * width);
    const recycled = above;
    above = here;
    here = below;
    below = recycled;
  }
}

/** out = above AND here AND below (a function per row: compiled once, not on the spot per photo). */
function andRows(above: Uint32Array, here: Uint32Array, below: Uint32Array, out: Uint32Array, words: number): void {
  for (let x = 0; x < words; x++) out[x] = above[x] & here[x] & below[x];
}

/**
 * out = the row AND itself shifted one pixel left AND one pixel right. Little-endian: pixel x of a
 * word is byte x & 3, so the left neighbour comes from `word << 8` and the previous word's top
 * byte; outside the row is white paper (all ones).
 */
function rowByWords(input: Uint32Array, out: Uint32Array, words: number): void {
  let previous = 0xffffffff;
  let word = input[0];
  for (let x = 0; x < words; x++) {
    const next = x + 1 < words ? input[x + 1] : 0xffffffff;
    const fromLeft = (word << 8) | (previous >>> 24);
    const fromRight = (word >>> 8) | (next << 24);
    out[x] = word & fromLeft & fromRight;
    previous = word;
    word = next;
  }
}
