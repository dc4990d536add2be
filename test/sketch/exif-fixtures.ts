/**
 * Hand-built test inputs for the decoders and the metadata stripper: EXIF segments (with
 * orientation, camera and GPS fields), BMP and GIF files in every layout we read, and the
 * photo fixtures of test/fixtures/images as bytes.
 */
import type { GrayPlane } from "../../workers/sketch/kernel";

export function bytesOfDataUrl(url: string): Uint8Array {
  const base64 = url.slice(url.indexOf(",") + 1);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

export interface ExifFields {
  orientation?: number;
  make?: string;
  model?: string;
  /** Adds a GPS IFD with latitude 51° 30' N. */
  gps?: boolean;
}

/** TIFF structure (big-endian) with IFD0 holding the given fields. */
export function tiffWith(fields: ExifFields): Uint8Array {
  const entries: { tag: number; type: number; count: number; value: number[] }[] = [];
  const extra: number[] = [];
  const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0)).concat(0);
  const entryCount = [fields.make, fields.model, fields.orientation, fields.gps].filter((v) => v !== undefined).length;
  const extraBase = 8 + 2 + entryCount * 12 + 4;
  const outOfLine = (data: number[]) => {
    const offset = extraBase + extra.length;
    extra.push(...data);
    if (extra.length % 2) extra.push(0);
    return [(offset >> 24) & 255, (offset >> 16) & 255, (offset >> 8) & 255, offset & 255];
  };
  if (fields.make !== undefined) entries.push({ tag: 0x010f, type: 2, count: fields.make.length + 1, value: outOfLine(ascii(fields.make)) });
  if (fields.model !== undefined) entries.push({ tag: 0x0110, type: 2, count: fields.model.length + 1, value: outOfLine(ascii(fields.model)) });
  if (fields.orientation !== undefined) entries.push({ tag: 0x0112, type: 3, count: 1, value: [0, fields.orientation, 0, 0] });
  if (fields.gps) {
    // GPS IFD: LatitudeRef "N", Latitude 51/1 30/1 0/1.
    const gpsOffset = extraBase + extra.length + (extra.length % 2);
    const rationals = gpsOffset + 2 + 2 * 12 + 4;
    const u32 = (n: number) => [(n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
    const gps = [0, 2, 0, 1, 0, 2, 0, 0, 0, 2, 0x4e, 0, 0, 0, 0, 2, 0, 5, 0, 0, 0, 3, ...u32(rationals), 0, 0, 0, 0];
    gps.push(...u32(51), ...u32(1), ...u32(30), ...u32(1), ...u32(0), ...u32(1));
    entries.push({ tag: 0x8825, type: 4, count: 1, value: u32(gpsOffset) });
    extra.push(...gps);
  }
  entries.sort((a, b) => a.tag - b.tag);
  const out = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, (entries.length >> 8) & 255, entries.length & 255];
  for (const e of entries) out.push(e.tag >> 8, e.tag & 255, 0, e.type, 0, 0, (e.count >> 8) & 255, e.count & 255, ...e.value);
  out.push(0, 0, 0, 0, ...extra);
  return new Uint8Array(out);
}

/** An APP1 "Exif" segment. */
export function exifSegment(fields: ExifFields): Uint8Array {
  const tiff = tiffWith(fields);
  const length = 2 + 6 + tiff.length;
  return new Uint8Array([0xff, 0xe1, length >> 8, length & 255, 0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff]);
}

/** Any JPEG segment (marker + payload). */
export function segment(marker: number, payload: Uint8Array | string): Uint8Array {
  const bytes = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
  const length = bytes.length + 2;
  return new Uint8Array([0xff, marker, length >> 8, length & 255, ...bytes]);
}

/** The JPEG with the segments inserted right after its SOI. */
export function insertAfterSoi(jpeg: Uint8Array, ...segments: Uint8Array[]): Uint8Array {
  const total = segments.reduce((sum, s) => sum + s.length, 0);
  const out = new Uint8Array(jpeg.length + total);
  out.set(jpeg.subarray(0, 2));
  let at = 2;
  for (const s of segments) {
    out.set(s, at);
    at += s.length;
  }
  out.set(jpeg.subarray(2), at);
  return out;
}

/** Where the display pixel (x, y) comes from in the stored image, per EXIF orientation (spec table). */
export function storedPixelFor(orientation: number, x: number, y: number, width: number, height: number): [number, number] {
  switch (orientation) {
    case 2: return [width - 1 - x, y];
    case 3: return [width - 1 - x, height - 1 - y];
    case 4: return [x, height - 1 - y];
    case 5: return [y, x];
    case 6: return [y, height - 1 - x];
    case 7: return [width - 1 - y, height - 1 - x];
    case 8: return [width - 1 - y, x];
    default: return [x, y];
  }
}

export function meanAbsoluteDifference(a: GrayPlane, b: GrayPlane): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`sizes differ: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i] - b.data[i]);
  return sum / a.data.length;
}

export interface BmpOptions {
  bits: 1 | 4 | 8 | 24 | 32;
  topDown?: boolean;
  /** For 1/4/8 bits: RGB triples. */
  palette?: [number, number, number][];
}

/** A BMP (BITMAPINFOHEADER) of `pixels`: RGB triples for 24/32 bits, palette indices otherwise. */
export function makeBmp(width: number, height: number, pixel: (x: number, y: number) => number[], options: BmpOptions): Uint8Array {
  const { bits, topDown = false, palette = [] } = options;
  const rowBytes = Math.ceil((width * bits) / 32) * 4;
  const paletteBytes = bits <= 8 ? palette.length * 4 : 0;
  const offset = 14 + 40 + paletteBytes;
  const out = new Uint8Array(offset + rowBytes * height);
  const view = new DataView(out.buffer);
  out[0] = 0x42;
  out[1] = 0x4d;
  view.setUint32(2, out.length, true);
  view.setUint32(10, offset, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, topDown ? -height : height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, bits, true);
  view.setUint32(46, bits <= 8 ? palette.length : 0, true);
  palette.forEach(([r, g, b], i) => out.set([b, g, r, 0], 54 + i * 4));
  for (let y = 0; y < height; y++) {
    const row = offset + (topDown ? y : height - 1 - y) * rowBytes;
    for (let x = 0; x < width; x++) {
      const value = pixel(x, y);
      if (bits === 24) out.set([value[2], value[1], value[0]], row + x * 3);
      else if (bits === 32) out.set([value[2], value[1], value[0], 255], row + x * 4);
      else {
        const perByte = 8 / bits;
        const shift = 8 - bits * ((x % perByte) + 1);
        out[row + Math.floor(x / perByte)] |= value[0] << shift;
      }
    }
  }
  return out;
}

/**
 * A GIF of palette indices (256-colour palette), LZW-coded the simple way: a clear code before
 * every 254 literal codes keeps the code size at 9 bits. Optional transparency and interlace.
 */
export function makeGif(
  width: number,
  height: number,
  index: (x: number, y: number) => number,
  palette: [number, number, number][],
  options: { transparent?: number; interlaced?: boolean; frame?: { left: number; top: number; width: number; height: number }; screen?: { width: number; height: number } } = {},
): Uint8Array {
  const screen = options.screen ?? { width, height };
  const frame = options.frame ?? { left: 0, top: 0, width, height };
  const out: number[] = [..."GIF89a"].map((c) => c.charCodeAt(0));
  const u16 = (n: number) => [n & 255, n >> 8];
  out.push(...u16(screen.width), ...u16(screen.height), 0xf7, 0, 0);
  for (let i = 0; i < 256; i++) out.push(...(palette[i] ?? [0, 0, 0]));
  if (options.transparent !== undefined) out.push(0x21, 0xf9, 4, 1, 0, 0, options.transparent, 0);
  out.push(0x21, 0xfe, 5, ...[..."hello"].map((c) => c.charCodeAt(0)), 0); // a comment
  out.push(0x2c, ...u16(frame.left), ...u16(frame.top), ...u16(frame.width), ...u16(frame.height), options.interlaced ? 0x40 : 0);
  const rows: number[] = [];
  if (options.interlaced) {
    for (const [first, step] of [[0, 8], [4, 8], [2, 4], [1, 2]]) for (let y = first; y < frame.height; y += step) rows.push(y);
  } else for (let y = 0; y < frame.height; y++) rows.push(y);
  const codes: number[] = [];
  let sinceClear = 0;
  codes.push(256);
  for (const y of rows) {
    for (let x = 0; x < frame.width; x++) {
      if (sinceClear === 254) {
        codes.push(256);
        sinceClear = 0;
      }
      codes.push(index(x, y));
      sinceClear++;
    }
  }
  codes.push(257);
  const data = packLzwCodes(codes);
  out.push(8);
  for (let i = 0; i < data.length; i += 255) {
    const chunk = data.slice(i, i + 255);
    out.push(chunk.length, ...chunk);
  }
  out.push(0, 0x3b);
  return new Uint8Array(out);
}

/** 9-bit LZW codes packed least significant bit first, as GIF stores them. */
export function packLzwCodes(codes: number[]): number[] {
  const out: number[] = [];
  let bits = 0;
  let count = 0;
  for (const code of codes) {
    bits |= code << count;
    count += 9;
    while (count >= 8) {
      out.push(bits & 255);
      bits >>>= 8;
      count -= 8;
    }
  }
  if (count > 0) out.push(bits & 255);
  return out;
}
