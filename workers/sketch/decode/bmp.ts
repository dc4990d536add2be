/**
 * BMP to a grey plane, written here (no registry codec decodes BMP in workerd): uncompressed
 * 24- and 32-bit (BI_RGB, or BI_BITFIELDS with 8-bit masks), and 1/4/8-bit palette images, bottom-up
 * or top-down. RLE-compressed and 16-bit bitmaps are refused with a clear reason. One grey byte
 * per pixel is all we allocate, read row by row from the file.
 */
import { MAX_SOURCE_PIXELS } from "../../../app/core/engine-limits";
import { PROCESSING_FAILURES } from "../../../app/core/engine-messages";
import { PermanentSketchError } from "../errors";
import type { GrayPlane } from "../kernel";

const LUMA_R = 77;
const LUMA_G = 150;
const LUMA_B = 29;

const unsupported = (what: string) => new PermanentSketchError(PROCESSING_FAILURES.bmpUnsupported(what));
const damaged = () => new PermanentSketchError(PROCESSING_FAILURES.bmpDamaged);

export function decodeBmpGray(bytes: Uint8Array): GrayPlane {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 26) throw damaged();
  const pixelOffset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  let width: number;
  let signedHeight: number;
  let bitsPerPixel: number;
  let compression = 0;
  let paletteCount = 0;
  let paletteEntrySize = 4;
  if (headerSize === 12) {
    // BITMAPCOREHEADER sizes are unsigned (no top-down form), as app/core/images/image-header.ts reads them.
    width = view.getUint16(18, true);
    signedHeight = view.getUint16(20, true);
    bitsPerPixel = view.getUint16(24, true);
    paletteEntrySize = 3;
  } else if (headerSize >= 40 && bytes.length >= 54) {
    width = view.getInt32(18, true);
    signedHeight = view.getInt32(22, true);
    bitsPerPixel = view.getUint16(28, true);
    compression = view.getUint32(30, true);
    paletteCount = view.getUint32(46, true);
  } else {
    throw damaged();
  }
  const height = Math.abs(signedHeight);
  const topDown = signedHeight < 0;
  if (width <= 0 || height <= 0) throw damaged();
  // decode/index.ts refuses an over-budget header first; this keeps the decoder safe on its own.
  if (width * height > MAX_SOURCE_PIXELS) throw new PermanentSketchError(PROCESSING_FAILURES.tooManyPixels);

  // Channel masks: BI_RGB implies 8-8-8; BI_BITFIELDS gives them after the 40-byte header (or in it).
  let masks = [0xff0000, 0x00ff00, 0x0000ff];
  if (compression === 3 || compression === 6) {
    if (bitsPerPixel !== 32) throw unsupported(`${bitsPerPixel}-bit with colour masks`);
    const at = 14 + 40;
    if (bytes.length < at + 12) throw damaged();
    masks = [view.getUint32(at, true), view.getUint32(at + 4, true), view.getUint32(at + 8, true)];
    if (!masks.every((mask) => mask !== 0 && mask / lowestBit(mask) === 0xff)) throw unsupported("using unusual colour masks");
  } else if (compression === 1 || compression === 2) {
    throw unsupported("RLE-compressed");
  } else if (compression !== 0) {
    throw unsupported("compressed (embedded JPEG/PNG or unknown)");
  }
  if (![1, 4, 8, 24, 32].includes(bitsPerPixel)) throw unsupported(`${bitsPerPixel}-bit`);

  // Palette entries as grey levels.
  let palette: Uint8Array | undefined;
  if (bitsPerPixel <= 8) {
    const count = paletteCount || 1 << bitsPerPixel;
    const start = 14 + headerSize;
    palette = new Uint8Array(256);
    for (let i = 0; i < Math.min(count, 256); i++) {
      const p = start + i * paletteEntrySize;
      if (p + 3 > bytes.length) throw damaged();
      palette[i] = (LUMA_R * bytes[p + 2] + LUMA_G * bytes[p + 1] + LUMA_B * bytes[p] + 128) >> 8;
    }
  }

  const rowBytes = Math.ceil((width * bitsPerPixel) / 32) * 4;
  if (pixelOffset + rowBytes * (height - 1) + Math.ceil((width * bitsPerPixel) / 8) > bytes.length) throw damaged();
  const data = new Uint8Array(width * height);
  const shifts = masks.map(lowestBit);
  for (let y = 0; y < height; y++) {
    const row = pixelOffset + (topDown ? y : height - 1 - y) * rowBytes;
    const out = y * width;
    if (bitsPerPixel === 24) {
      for (let x = 0, p = row; x < width; x++, p += 3) {
        data[out + x] = (LUMA_R * bytes[p + 2] + LUMA_G * bytes[p + 1] + LUMA_B * bytes[p] + 128) >> 8;
      }
    } else if (bitsPerPixel === 32) {
      for (let x = 0, p = row; x < width; x++, p += 4) {
        const pixel = view.getUint32(p, true);
        const r = ((pixel & masks[0]) >>> 0) / shifts[0];
        const g = ((pixel & masks[1]) >>> 0) / shifts[1];
        const b = ((pixel & masks[2]) >>> 0) / shifts[2];
        data[out + x] = (LUMA_R * r + LUMA_G * g + LUMA_B * b + 128) >> 8;
      }
    } else {
      const perByte = 8 / bitsPerPixel;
      const mask = (1 << bitsPerPixel) - 1;
      for (let x = 0; x < width; x++) {
        const byte = bytes[row + Math.floor(x / perByte)];
        const shift = 8 - bitsPerPixel * ((x % perByte) + 1);
        data[out + x] = palette![(byte >> shift) & mask];
      }
    }
  }
  return { data, width, height };
}

/** The value of a mask's lowest set bit (a divisor, so 32-bit masks stay unsigned). */
function lowestBit(mask: number): number {
  let bit = 1;
  while (bit <= mask && (mask & bit) === 0) bit *= 2;
  return bit;
}
