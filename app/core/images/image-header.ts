/**
 * Recognises an image by its magic bytes and reads its pixel dimensions from the header alone,
 * without decoding. Both Workers use it: the app to accept uploads by content (never by file
 * name or Content-Type), the sketch Worker to refuse an over-sized image before a decoder
 * allocates memory for it.
 */

import { MAX_PNG_WEBP_SOURCE_PIXELS, MAX_SOURCE_PIXELS } from "../engine-limits";

export type ImageFormat = "jpeg" | "png" | "webp" | "gif" | "bmp";

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

export const MIME_TYPES: Record<ImageFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  bmp: "image/bmp",
};

export const FILE_EXTENSIONS: Record<ImageFormat, string> = {
  jpeg: "jpg",
  png: "png",
  webp: "webp",
  gif: "gif",
  bmp: "bmp",
};

/** The most pixels a photo of this format may claim before we refuse it, undecoded. */
export function pixelLimitFor(format: ImageFormat): number {
  return format === "png" || format === "webp" ? MAX_PNG_WEBP_SOURCE_PIXELS : MAX_SOURCE_PIXELS;
}

/** Returns null when the bytes are not one of our formats or the header is unreadable. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const dimensions = detectFormat(bytes);
  if (!dimensions) return null;
  const { format, size } = dimensions;
  if (!size || size.width <= 0 || size.height <= 0) return null;
  return { format, width: size.width, height: size.height };
}

interface Size {
  width: number;
  height: number;
}

function detectFormat(bytes: Uint8Array): { format: ImageFormat; size: Size | null } | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { format: "jpeg", size: jpegSize(bytes) };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { format: "png", size: pngSize(bytes) };
  }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") {
    return { format: "webp", size: webpSize(bytes) };
  }
  const gifSignature = ascii(bytes, 0, 6);
  if (gifSignature === "GIF87a" || gifSignature === "GIF89a") {
    return { format: "gif", size: bytes.length >= 10 ? { width: u16le(bytes, 6), height: u16le(bytes, 8) } : null };
  }
  if (ascii(bytes, 0, 2) === "BM") return { format: "bmp", size: bmpSize(bytes) };
  return null;
}

function pngSize(bytes: Uint8Array): Size | null {
  if (bytes.length < 24 || ascii(bytes, 12, 4) !== "IHDR") return null;
  return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

/** Walks the marker segments up to the first start-of-frame, which holds the dimensions. */
function jpegSize(bytes: Uint8Array): Size | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    // Markers without a length field.
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / scan before any frame
    const length = u16be(bytes, offset + 2);
    if (length < 2) return null;
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      if (offset + 9 > bytes.length) return null;
      return { height: u16be(bytes, offset + 5), width: u16be(bytes, offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

function webpSize(bytes: Uint8Array): Size | null {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8 " && bytes.length >= 30) {
    // Lossy: frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  if (chunk === "VP8L" && bytes.length >= 25) {
    if (bytes[20] !== 0x2f) return null;
    const bits = bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X" && bytes.length >= 30) {
    return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  }
  return null;
}

function bmpSize(bytes: Uint8Array): Size | null {
  if (bytes.length < 26) return null;
  const dibHeaderSize = u32le(bytes, 14);
  if (dibHeaderSize === 12) return { width: u16le(bytes, 18), height: u16le(bytes, 20) };
  if (dibHeaderSize < 40) return null;
  const width = u32le(bytes, 18) | 0;
  const height = u32le(bytes, 22) | 0; // negative means a top-down bitmap
  return { width, height: Math.abs(height) };
}

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);
}
function ascii(bytes: Uint8Array, offset: number, length: number): string {
  if (bytes.length < offset + length) return "";
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}
function u16be(b: Uint8Array, o: number) {
  return (b[o] << 8) | b[o + 1];
}
function u16le(b: Uint8Array, o: number) {
  return b[o] | (b[o + 1] << 8);
}
function u24le(b: Uint8Array, o: number) {
  return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16);
}
function u32be(b: Uint8Array, o: number) {
  return ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
}
function u32le(b: Uint8Array, o: number) {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}
