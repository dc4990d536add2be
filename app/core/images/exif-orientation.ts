/**
 * EXIF orientation, read from a JPEG's APP1 segment: the sketch Worker turns a decoded plane by it
 * (workers/sketch/decode/exif.ts), so a portrait phone photo (stored landscape, tagged "rotate 90°")
 * comes out upright, and metadata stripping keeps it (strip-metadata.ts).
 *
 * Orientation values (EXIF 2.3, tag 0x0112) say how the stored pixels must be turned for display:
 * 1 as stored, 2 mirrored left-right, 3 turned 180°, 4 mirrored top-bottom, 5 transposed
 * (mirrored along the main diagonal), 6 turned 90° clockwise, 7 transversed (mirrored along the
 * other diagonal), 8 turned 90° counter-clockwise.
 */

export const ORIENTATION_TAG = 0x0112;

/** The Orientation of a JPEG's EXIF (1..8), or 1 when there is none or it is unreadable. */
export function readJpegOrientation(bytes: Uint8Array): number {
  const exif = findJpegExif(bytes);
  return exif ? readTiffOrientation(bytes, exif.tiffStart, exif.tiffEnd) : 1;
}

/** Where the TIFF structure of the first "Exif\0\0" APP1 segment lies, if any. */
export function findJpegExif(bytes: Uint8Array): { tiffStart: number; tiffEnd: number } | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null; // EXIF comes before the image data
    const length = (bytes[offset + 2] << 8) | bytes[offset + 3];
    const start = offset + 4;
    if (marker === 0xe1 && length >= 8 && isExifSignature(bytes, start)) {
      return { tiffStart: start + 6, tiffEnd: Math.min(bytes.length, offset + 2 + length) };
    }
    offset += 2 + length;
  }
  return null;
}

function isExifSignature(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === 0x45 && bytes[at + 1] === 0x78 && bytes[at + 2] === 0x69 && bytes[at + 3] === 0x66 && bytes[at + 4] === 0 && bytes[at + 5] === 0;
}

/** Orientation from IFD0 of the TIFF structure in bytes[start, end). */
export function readTiffOrientation(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < 8) return 1;
  const little = bytes[start] === 0x49 && bytes[start + 1] === 0x49;
  const big = bytes[start] === 0x4d && bytes[start + 1] === 0x4d;
  if (!little && !big) return 1;
  const u16 = (at: number) => (little ? bytes[at] | (bytes[at + 1] << 8) : (bytes[at] << 8) | bytes[at + 1]);
  const u32 = (at: number) => (little ? u16(at) + u16(at + 2) * 65536 : u16(at) * 65536 + u16(at + 2));
  if (u16(start + 2) !== 42) return 1;
  const ifd = start + u32(start + 4);
  if (ifd + 2 > end) return 1;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    if (u16(entry) === ORIENTATION_TAG) {
      const value = u16(entry + 8); // SHORT, count 1: the value sits at the start of the field
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}
