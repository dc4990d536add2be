/**
 * GIF to a grey plane: the first frame only (an animation's later frames are not a photo of
 * their own), LZW decoded here, interlaced or not, placed on the logical screen. Transparent
 * pixels and the screen outside the frame are white paper, as they would print.
 *
 * Written for hostile files (decision 005): the only allocations are the screen (checked against the
 * pixel budget) and fixed-size LZW tables. A frame must lie inside the screen, so it can never
 * ask for more than the screen did; the LZW codes stream straight onto the screen, with no
 * frame-sized buffer in between. Every read is bounds-checked, and data that ends inside the
 * frame is refused as damaged rather than turned into a half-white page.
 */
import { MAX_SOURCE_PIXELS } from "../../../app/core/engine-limits";
import { PROCESSING_FAILURES } from "../../../app/core/engine-messages";
import { PermanentSketchError } from "../errors";
import type { GrayPlane } from "../kernel";

const damaged = () => new PermanentSketchError(PROCESSING_FAILURES.gifDamaged);

/** LZW codes are at most 12 bits, so a table has 4096 entries and a string is at most 4096 long. */
const MAX_CODES = 4096;

export function decodeGifGray(bytes: Uint8Array): GrayPlane {
  if (bytes.length < 13) throw damaged();
  const width = bytes[6] | (bytes[7] << 8);
  const height = bytes[8] | (bytes[9] << 8);
  if (width === 0 || height === 0) throw damaged();
  // decode/index.ts checks the header against the budget first; this keeps the decoder safe on its own.
  if (width * height > MAX_SOURCE_PIXELS) throw new PermanentSketchError(PROCESSING_FAILURES.tooManyPixels);
  const screenFlags = bytes[10];
  let position = 13;
  let globalPalette: Uint8Array | undefined;
  if (screenFlags & 0x80) {
    const count = 2 << (screenFlags & 7);
    globalPalette = greyPalette(bytes, position, count);
    position += count * 3;
  }
  let transparent = -1;
  while (position < bytes.length) {
    const introducer = bytes[position++];
    if (introducer === 0x3b) break; // trailer
    if (introducer === 0x21) {
      if (position >= bytes.length) throw damaged();
      const label = bytes[position++];
      // Graphic Control Extension: block size (4), flags, delay (2), transparent index.
      if (label === 0xf9 && position + 4 < bytes.length && bytes[position] >= 4) {
        transparent = bytes[position + 1] & 1 ? bytes[position + 4] : -1;
      }
      position = skipSubBlocks(bytes, position);
      continue;
    }
    if (introducer !== 0x2c) throw damaged();
    return decodeFrame(bytes, position, width, height, globalPalette, transparent);
  }
  throw damaged(); // no image in the file
}

function greyPalette(bytes: Uint8Array, start: number, count: number): Uint8Array {
  if (start + count * 3 > bytes.length) throw damaged();
  const palette = new Uint8Array(256);
  for (let i = 0; i < count; i++) {
    const p = start + i * 3;
    palette[i] = (77 * bytes[p] + 150 * bytes[p + 1] + 29 * bytes[p + 2] + 128) >> 8;
  }
  return palette;
}

function skipSubBlocks(bytes: Uint8Array, position: number): number {
  while (position < bytes.length) {
    const size = bytes[position];
    position += 1 + size;
    if (size === 0) return position;
  }
  throw damaged();
}

function decodeFrame(
  bytes: Uint8Array,
  position: number,
  width: number,
  height: number,
  globalPalette: Uint8Array | undefined,
  transparent: number,
): GrayPlane {
  if (position + 9 > bytes.length) throw damaged();
  const left = bytes[position] | (bytes[position + 1] << 8);
  const top = bytes[position + 2] | (bytes[position + 3] << 8);
  const frameWidth = bytes[position + 4] | (bytes[position + 5] << 8);
  const frameHeight = bytes[position + 6] | (bytes[position + 7] << 8);
  const flags = bytes[position + 8];
  position += 9;
  if (frameWidth === 0 || frameHeight === 0) throw damaged();
  // Checked before anything is allocated: a frame outside the screen could claim 65535 x 65535.
  if (left + frameWidth > width || top + frameHeight > height) {
    throw new PermanentSketchError(PROCESSING_FAILURES.gifFrameOutsideScreen);
  }
  let palette = globalPalette;
  if (flags & 0x80) {
    const count = 2 << (flags & 7);
    palette = greyPalette(bytes, position, count);
    position += count * 3;
  }
  if (!palette) throw damaged();
  const grey = palette;

  // Stream row r of the frame is frame row rowOrder[r]. Interlaced rows arrive in four passes:
  // every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
  const rowOrder = new Int32Array(frameHeight);
  const passes = flags & 0x40 ? [[0, 8], [4, 8], [2, 4], [1, 2]] : [[0, 1]];
  let row = 0;
  for (const [first, step] of passes) for (let y = first; y < frameHeight; y += step) rowOrder[row++] = y;

  const data = new Uint8Array(width * height).fill(255);
  let x = 0;
  let streamRow = 0;
  let screenRowStart = (top + rowOrder[0]) * width + left;
  const put = (index: number) => {
    if (index !== transparent) data[screenRowStart + x] = grey[index];
    if (++x === frameWidth) {
      x = 0;
      if (++streamRow < frameHeight) screenRowStart = (top + rowOrder[streamRow]) * width + left;
    }
  };
  const written = lzwDecode(bytes, position, frameWidth * frameHeight, put);
  // Nothing decoded at all is no picture; a stream that stops short but well-formed (an end
  // code or the empty block) is what some encoders write, and the rest stays white paper.
  if (written === 0) throw damaged();
  return { data, width, height };
}

/**
 * Variable-length-code LZW as GIF uses it (codes LSB first, 12 bits at most, clear and end
 * codes). Hands at most `count` palette indices to `put`, in order, and returns how many.
 * Refuses a code size outside 2..8, a code beyond the table, and data that runs past the end of
 * the file before the frame is complete.
 */
function lzwDecode(bytes: Uint8Array, position: number, count: number, put: (index: number) => void): number {
  if (position >= bytes.length) throw damaged();
  const minimumSize = bytes[position++];
  if (minimumSize < 2 || minimumSize > 8) throw damaged();
  const clear = 1 << minimumSize;
  const end = clear + 1;
  const prefix = new Uint16Array(MAX_CODES);
  const suffix = new Uint8Array(MAX_CODES);
  const first = new Uint8Array(MAX_CODES);
  const lengths = new Uint16Array(MAX_CODES);
  const string = new Uint8Array(MAX_CODES);
  for (let code = 0; code < clear; code++) {
    suffix[code] = code;
    first[code] = code;
    lengths[code] = 1;
  }
  let written = 0;
  let codeSize = minimumSize + 1;
  let next = end + 1;
  let previous = -1;
  let bits = 0;
  let bitCount = 0;
  let blockLeft = 0;

  while (written < count) {
    while (bitCount < codeSize) {
      if (blockLeft === 0) {
        if (position >= bytes.length) throw damaged(); // the file ends inside the image data
        blockLeft = bytes[position++];
        if (blockLeft === 0) return written; // the encoder ended the image data here
      }
      if (position >= bytes.length) throw damaged();
      bits |= bytes[position++] << bitCount;
      bitCount += 8;
      blockLeft--;
    }
    const code = bits & ((1 << codeSize) - 1);
    bits >>>= codeSize;
    bitCount -= codeSize;

    if (code === clear) {
      codeSize = minimumSize + 1;
      next = end + 1;
      previous = -1;
      continue;
    }
    if (code === end) break;
    if (previous === -1) {
      if (code >= clear) throw damaged();
      put(code);
      written++;
      previous = code;
      continue;
    }
    // `next` itself is allowed (the KwKwK case), anything beyond it is not in the table yet.
    if (code > next || (code === next && next >= MAX_CODES)) throw damaged();
    if (next < MAX_CODES) {
      // The new entry is the previous string plus the first index of this one (of itself, when
      // the code is the entry being defined).
      prefix[next] = previous;
      suffix[next] = code === next ? first[previous] : first[code];
      first[next] = first[previous];
      lengths[next] = lengths[previous] + 1;
      next++;
      if (next === 1 << codeSize && codeSize < 12) codeSize++;
    }
    // The string of `code` comes out back to front: reverse it through a fixed buffer.
    const length = lengths[code];
    for (let at = length - 1, c = code; at >= 0; at--, c = prefix[c]) string[at] = suffix[c];
    const take = Math.min(length, count - written);
    for (let i = 0; i < take; i++) put(string[i]);
    written += take;
    previous = code;
  }
  return written;
}
