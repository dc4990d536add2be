/**
 * Encodes the finished page as a grayscale PNG (colour type 0) and stores it in R2: 1 bit per
 * pixel when the page is black and white only (every colouring page since issue 9: an eighth of
 * the bytes to filter and deflate, and a smaller file), 8 bits otherwise.
 *
 * jSquash's PNG encoder only writes RGBA (4 bytes per pixel, 4x the page's memory and a bigger
 * file), so the container is written here: PNG is a signature, an IHDR chunk, IDAT chunks
 * holding one zlib stream of filtered scanlines, and IEND (RFC 2083 / PNG 3rd edition).
 *
 * A 1-bit page (an eighth of a byte per pixel: 0.9 MB at print size) is filtered whole and
 * deflated in one call by node:zlib (workerd with nodejs_compat, as every Worker here runs)
 * with the run-length strategy: its Up-filtered rows are long runs of zeros, which Z_RLE codes
 * as well as the default search (a 512 px page: 8.4 kB against 9.1 kB) for a seventh of the
 * CPU, and without CompressionStream's stream machinery (about 1.2 ms of a small page's 3).
 * An 8-bit page goes through CompressionStream("deflate") in strips of rows, so no full-size
 * filtered copy of it exists.
 * Deterministic: the same page always gives the same bytes, so a re-run overwrites the sketch
 * with an identical object.
 */
import { constants as zlibConstants, deflateSync } from "node:zlib";
import type { GrayPlane } from "./kernel";

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
/**
 * Bytes of filtered grey rows per write to the compressor (≈ 160 rows 3300 px wide): every write
 * is a trip through the stream machinery.
 */
const STRIP_BYTES = 512 * 1024;
const FILTER_NONE = 0;
const FILTER_SUB = 1;
const FILTER_UP = 2;

export async function encodeGrayPng(page: GrayPlane): Promise<Uint8Array> {
  const { width, height, data } = page;
  if (width < 1 || height < 1 || data.length < width * height) throw new RangeError("empty or short page");
  const bilevel = isBilevel(page);
  const idat = bilevel ? deflateBilevel(page) : await deflateGrey(page);

  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = bilevel ? 1 : 8; // bit depth
  header[9] = 0; // colour type: greyscale
  // compression 0 (deflate), filter method 0 (adaptive), interlace 0 (none): already zero.

  const png = new Uint8Array(8 + (12 + 13) + (12 + idat.length) + 12);
  png.set(PNG_SIGNATURE, 0);
  let offset = 8;
  offset = writeChunk(png, offset, "IHDR", header);
  offset = writeChunk(png, offset, "IDAT", idat);
  writeChunk(png, offset, "IEND", new Uint8Array(0));
  return png;
}

/** The 1-bit page's filtered rows, deflated (zlib format) in one call. */
function deflateBilevel({ data, width, height }: GrayPlane): Uint8Array {
  const packedWidth = (width + 7) >> 3;
  const packed = new Uint8Array(packedWidth * 2); // this row and the one above
  const stride = packedWidth + 1;
  const filtered = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) packedRow(data, width, y, packed, filtered, y * stride);
  const deflated = deflateSync(filtered, { strategy: zlibConstants.Z_RLE });
  return new Uint8Array(deflated.buffer, deflated.byteOffset, deflated.byteLength);
}

/** The 8-bit page's filtered rows through CompressionStream("deflate"), a strip at a time. */
async function deflateGrey({ data, width, height }: GrayPlane): Promise<Uint8Array> {
  const compressor = new CompressionStream("deflate");
  const compressed = new Response(compressor.readable).arrayBuffer();
  const writer = compressor.writable.getWriter();
  const stride = width + 1;
  const rowsPerStrip = Math.max(1, Math.floor(STRIP_BYTES / stride));
  for (let firstRow = 0; firstRow < height; firstRow += rowsPerStrip) {
    const rows = Math.min(rowsPerStrip, height - firstRow);
    const strip = new Uint8Array(rows * stride);
    for (let r = 0; r < rows; r++) filterRow(data, width, firstRow + r, strip, r * stride);
    await writer.write(strip);
  }
  await writer.close();
  return new Uint8Array(await compressed);
}

/**
 * Writes row y with the filter (None, Sub or Up) whose output has the smallest sum of absolute
 * values as signed bytes, the usual heuristic (libpng's): on a page of white paper and black
 * lines None and Up win almost everywhere, Sub on long horizontal strokes.
 */
function filterRow(data: Uint8Array, width: number, y: number, out: Uint8Array, at: number): void {
  const row = y * width;
  const previous = y > 0 ? row - width : -1;
  let costNone = 0;
  let costSub = 0;
  let costUp = 0;
  for (let x = 0; x < width; x++) {
    const v = data[row + x];
    const left = x > 0 ? data[row + x - 1] : 0;
    const up = previous >= 0 ? data[previous + x] : 0;
    const none = v;
    const sub = (v - left) & 255;
    const upDelta = (v - up) & 255;
    costNone += none < 128 ? none : 256 - none;
    costSub += sub < 128 ? sub : 256 - sub;
    costUp += upDelta < 128 ? upDelta : 256 - upDelta;
  }
  const target = at + 1;
  if (costNone <= costSub && costNone <= costUp) {
    out[at] = FILTER_NONE;
    out.set(data.subarray(row, row + width), target);
  } else if (costUp <= costSub) {
    out[at] = FILTER_UP;
    for (let x = 0; x < width; x++) out[target + x] = data[row + x] - (previous >= 0 ? data[previous + x] : 0);
  } else {
    out[at] = FILTER_SUB;
    out[target] = data[row];
    for (let x = 1; x < width; x++) out[target + x] = data[row + x] - data[row + x - 1];
  }
}

/**
 * Only black (0) and white (255) pixels? Read four pixels at a time where the bytes are aligned:
 * a page is mostly paper (0xffffffff words) and solid ink (0 words).
 */
function isBilevel({ width, height, data }: GrayPlane): boolean {
  const end = width * height;
  let i = 0;
  if (data.byteOffset % 4 === 0) {
    const words = new Uint32Array(data.buffer, data.byteOffset, end >> 2);
    for (let w = 0; w < words.length; w++) {
      const word = words[w];
      if (word === 0xffffffff || word === 0) continue;
      // Mixed: every byte must still be 0 or 255, i.e. each byte's low 7 bits equal its top bit × 127.
      const high = (word >>> 7) & 0x01010101;
      if ((word & 0x7f7f7f7f) !== high * 0x7f) return false;
    }
    i = words.length << 2;
  }
  for (; i < end; i++) {
    const v = data[i];
    if (v !== 0 && v !== 255) return false;
  }
  return true;
}

/**
 * Row y packed 8 pixels per byte (most significant bit first, 1 = white), written with the Up
 * filter, or None on the first row: on a page of paper and lines most packed bytes repeat the row
 * above, so Up turns them into zeros. `packed` holds the previous row's bytes in its second half.
 */
function packedRow(data: Uint8Array, width: number, y: number, packed: Uint8Array, out: Uint8Array, at: number): void {
  const bytes = packed.length >> 1;
  const row = y * width;
  packed.copyWithin(bytes, 0, bytes); // this row becomes the previous one
  // Whole bytes of 8 pixels first, without the past-the-end test.
  const wholeBytes = width >> 3;
  for (let b = 0; b < wholeBytes; b++) {
    const x0 = row + (b << 3);
    packed[b] =
      ((data[x0] !== 0 ? 128 : 0) | (data[x0 + 1] !== 0 ? 64 : 0) | (data[x0 + 2] !== 0 ? 32 : 0) | (data[x0 + 3] !== 0 ? 16 : 0) |
        (data[x0 + 4] !== 0 ? 8 : 0) | (data[x0 + 5] !== 0 ? 4 : 0) | (data[x0 + 6] !== 0 ? 2 : 0) | (data[x0 + 7] !== 0 ? 1 : 0));
  }
  for (let b = wholeBytes; b < bytes; b++) {
    let value = 0;
    const x0 = b << 3;
    for (let bit = 0; bit < 8; bit++) {
      const x = x0 + bit;
      // Padding bits past the row's end are white.
      value = (value << 1) | (x >= width || data[row + x] !== 0 ? 1 : 0);
    }
    packed[b] = value;
  }
  out[at] = y === 0 ? FILTER_NONE : FILTER_UP;
  for (let b = 0; b < bytes; b++) out[at + 1 + b] = y === 0 ? packed[b] : (packed[b] - packed[bytes + b]) & 255;
}

function writeChunk(png: Uint8Array, offset: number, type: string, body: Uint8Array): number {
  const view = new DataView(png.buffer, png.byteOffset);
  view.setUint32(offset, body.length);
  for (let i = 0; i < 4; i++) png[offset + 4 + i] = type.charCodeAt(i);
  png.set(body, offset + 8);
  // The CRC covers the chunk type and body.
  view.setUint32(offset + 8 + body.length, crc32(png, offset + 4, offset + 8 + body.length));
  return offset + 12 + body.length;
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (ISO 3309, polynomial 0xEDB88320) of bytes[from, to). */
export function crc32(bytes: Uint8Array, from = 0, to = bytes.length): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let crc = 0xffffffff;
  for (let i = from; i < to; i++) crc = table[(crc ^ bytes[i]) & 255] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** What a stored sketch remembers about itself, so a repeat request can skip the work. */
export interface SketchMetadata {
  qualityScore: number;
  width: number;
  height: number;
}

export async function storeSketch(
  bucket: R2Bucket,
  key: string,
  png: Uint8Array | ArrayBuffer,
  metadata: SketchMetadata,
): Promise<void> {
  await bucket.put(key, png, {
    httpMetadata: { contentType: "image/png" },
    customMetadata: {
      qualityScore: String(metadata.qualityScore),
      width: String(metadata.width),
      height: String(metadata.height),
    },
  });
}

/** The metadata of an already stored sketch, or null when there is none (or it is incomplete). */
export async function storedSketch(bucket: R2Bucket, key: string): Promise<SketchMetadata | null> {
  const head = await bucket.head(key);
  if (!head?.customMetadata) return null;
  const qualityScore = Number(head.customMetadata.qualityScore);
  const width = Number(head.customMetadata.width);
  const height = Number(head.customMetadata.height);
  if (![qualityScore, width, height].every(Number.isFinite)) return null;
  return { qualityScore, width, height };
}
