/**
 * The page as the line measures read it: a plane of cell flags (ink, and the skeleton's bits),
 * reduced by 2 when the page's long edge is over WORK_REDUCTION_ABOVE_PX (a reduced pixel is ink
 * when any of its four is), so a work pixel is never much finer than 2 print pixels (0.17 mm): a
 * 3300 px page costs what a 1650 px page does, and reads alike. Line widths are read on the page
 * itself (width.ts), where a pixel of width matters.
 */
import { PRINT_LONG_EDGE_PX } from "../../../../app/core/engine-limits";
import type { GrayPlane } from "../../kernel";

/** Pages are black and white; anything darker than mid-grey is ink. */
export const INK_MAX_LEVEL = 127;
/** Pages with a longer edge are measured on a plane reduced by 2 (see this module's comment). */
export const WORK_REDUCTION_ABOVE_PX = 1700;

/**
 * Ink wider than this (mm) is a filled area, not a line: widths are measured up to about twice
 * this, and a spur this long is a stroke whatever the junction it leaves.
 */
export const WIDEST_LINE_MM = 5;

export const PRINT_PX_PER_MM = 300 / 25.4;
/** The bits of a work plane cell. */
export const SKELETON = 1;
export const INK = 2;
/** On the thinning's list of cells to look at again. */
export const QUEUED = 4;
/** The thinning has come to this cell's distance (it may be looked at again). */
export const REACHED = 8;

/** The page, reduced when large, with one cell of paper around it so neighbours need no bounds checks. */
export interface WorkPlane {
  flags: Uint8Array;
  width: number;
  height: number;
  stride: number;
  /** Page pixels per work pixel, each way (1 or 2). */
  factor: number;
  /** Print pixels per work pixel, each way. */
  printScale: number;
  /** Also a bound on the work plane's ink: each ink cell holds at least one ink pixel. */
  pageInkPixels: number;
}

export const INK_IN_EVERY_BYTE = INK * 0x01010101;

export function printScaleOf(page: GrayPlane): number {
  return PRINT_LONG_EDGE_PX / Math.max(page.width, page.height);
}

export function workPlaneOf(page: GrayPlane): WorkPlane {
  const factor = Math.max(page.width, page.height) > WORK_REDUCTION_ABOVE_PX ? 2 : 1;
  const width = Math.ceil(page.width / factor);
  const height = Math.ceil(page.height / factor);
  const stride = width + 2;
  const flags = new Uint8Array(stride * (height + 2));
  const { data } = page;
  const words = new Int32Array(data.buffer, data.byteOffset, (data.byteOffset & 3) === 0 ? data.length >> 2 : 0);
  let pageInkPixels = 0;
  for (let y = 0; y < page.height; y++) {
    pageInkPixels += inkRow(data, words, y * page.width, page.width, flags, (((y / factor) | 0) + 1) * stride + 1, factor);
  }
  return { flags, width, height, stride, factor, printScale: factor * printScaleOf(page), pageInkPixels };
}

/** Every byte's top bit of a 32-bit word (as the signed value bitwise operators and Int32Array give). */
const TOP_BITS = 0x80808080 | 0;

/**
 * Marks the ink of one page row in its work row; returns the row's ink pixels. Paper is skipped
 * four pixels at a time where the bytes are aligned: a word is all paper when every byte's top bit
 * is set (>= 128).
 */
function inkRow(data: Uint8Array, words: Int32Array, start: number, length: number, flags: Uint8Array, out: number, factor: number): number {
  const shift = factor === 2 ? 1 : 0;
  let ink = 0;
  let x = 0;
  if (words.length) {
    for (; x < length && ((start + x) & 3) !== 0; x++) {
      if (data[start + x] <= INK_MAX_LEVEL) {
        flags[out + (x >> shift)] = INK | SKELETON;
        ink++;
      }
    }
    for (; x + 4 <= length; x += 4) {
      if ((words[(start + x) >> 2] & TOP_BITS) === TOP_BITS) continue;
      for (let i = x; i < x + 4; i++) {
        if (data[start + i] <= INK_MAX_LEVEL) {
          flags[out + (i >> shift)] = INK | SKELETON;
          ink++;
        }
      }
    }
  }
  for (; x < length; x++) {
    if (data[start + x] <= INK_MAX_LEVEL) {
      flags[out + (x >> shift)] = INK | SKELETON;
      ink++;
    }
  }
  return ink;
}
