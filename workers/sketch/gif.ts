/**
 * GIF to a grey plane: the first frame only (an animation's later frames are not a photo of
 * their own), LZW decoded here, interlaced or not, placed on the logical screen. Transparent
 * pixels and the screen outside the frame are white paper, as they would print.
 */
import { PermanentSketchError } from "./errors";
import type { GrayPlane } from "./kernel";

const damaged = () => new PermanentSketchError("The GIF file is damaged or incomplete; please upload it again.");

export function decodeGifGray(bytes: Uint8Array): GrayPlane {
  if (bytes.length < 13) throw damaged();
  const width = bytes[6] | (bytes[7] << 8);
  const height = bytes[8] | (bytes[9] << 8);
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
      const label = bytes[position++];
      if (label === 0xf9 && bytes[position] >= 4) {
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
  let palette = globalPalette;
  if (flags & 0x80) {
    const count = 2 << (flags & 7);
    palette = greyPalette(bytes, position, count);
    position += count * 3;
  }
  if (!palette) throw damaged();
  const indices = lzwDecode(bytes, position, frameWidth * frameHeight);

  const data = new Uint8Array(width * height).fill(255);
  const interlaced = (flags & 0x40) !== 0;
  // Interlaced rows arrive in four passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
  const passes = interlaced ? [[0, 8], [4, 8], [2, 4], [1, 2]] : [[0, 1]];
  let row = 0;
  for (const [first, step] of passes) {
    for (let y = first; y < frameHeight; y += step, row++) {
      const screenY = top + y;
      if (screenY >= height) continue;
      const from = row * frameWidth;
      for (let x = 0; x < frameWidth; x++) {
        const screenX = left + x;
        if (screenX >= width) break;
        const index = indices[from + x];
        if (index !== transparent) data[screenY * width + screenX] = palette[index];
      }
    }
  }
  return { data, width, height };
}

/**
 * Variable-length-code LZW as GIF uses it (codes LSB first, 12 bits at most, clear and end
 * codes). Returns `count` palette indices; a stream that ends early leaves the rest as 0.
 */
function lzwDecode(bytes: Uint8Array, position: number, count: number): Uint8Array {
  const minimumSize = bytes[position++];
  if (minimumSize < 2 || minimumSize > 8) throw damaged();
  const clear = 1 << minimumSize;
  const end = clear + 1;
  const prefix = new Int16Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const lengths = new Uint16Array(4096);
  for (let code = 0; code < clear; code++) {
    suffix[code] = code;
    first[code] = code;
    lengths[code] = 1;
  }
  const out = new Uint8Array(count);
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
        if (position >= bytes.length) return out;
        blockLeft = bytes[position++];
        if (blockLeft === 0) return out; // end of the image data
      }
      if (position >= bytes.length) return out;
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
      out[written++] = code;
      previous = code;
      continue;
    }
    if (code > next) throw damaged();
    if (next < 4096) {
      // The new entry is the previous string plus the first index of this one (of itself, when
      // the code is the entry being defined).
      prefix[next] = previous;
      suffix[next] = code === next ? first[previous] : first[code];
      first[next] = first[previous];
      lengths[next] = lengths[previous] + 1;
      next++;
      if (next === 1 << codeSize && codeSize < 12) codeSize++;
    } else if (code === next) {
      throw damaged();
    }
    // Write the string of `code` back to front.
    const length = lengths[code];
    let at = written + length - 1;
    for (let c = code; at >= written; c = prefix[c], at--) if (at < count) out[at] = suffix[c];
    written += length;
    previous = code;
  }
  return out;
}
