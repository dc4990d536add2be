/**
 * Removes metadata (EXIF with its GPS and camera fields, XMP, IPTC, comments, text chunks,
 * thumbnails, trailing data) from an image file, keeping the coded image bit-exact and keeping
 * only what display needs: colour (ICC profiles, sRGB/gamma chunks, Adobe's colour transform),
 * transparency, animation control, and for JPEG the orientation.
 *
 * JPEG orientation: a minimal EXIF with only the Orientation tag is written back, rather than
 * rotating the pixels, because rotating means re-encoding (lossy) or a lossless transform that
 * only works on whole MCUs (a partial edge block would be cut off). Browsers and our decoder
 * both apply the tag, so the photo still displays upright and nothing else about it is left.
 *
 * Pure: bytes in, bytes out. Used by the upload path (app) before an original is stored; the
 * sketch PNG we encode ourselves carries no metadata to begin with.
 */
import { readJpegOrientation } from "./exif-orientation";
import type { ImageFormat } from "./image-header";

export function stripMetadata(bytes: Uint8Array, format: ImageFormat): Uint8Array {
  switch (format) {
    case "jpeg":
      return stripJpeg(bytes);
    case "png":
      return stripPng(bytes);
    case "webp":
      return stripWebp(bytes);
    case "gif":
      return stripGif(bytes);
    case "bmp":
      return bytes; // no metadata fields (a v5 header's ICC profile is for display)
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

/** APP1 "Exif" holding a big-endian TIFF whose IFD0 has one entry: Orientation. */
export function orientationOnlyExif(orientation: number): Uint8Array {
  return new Uint8Array([
    0xff, 0xe1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00,
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08,
    0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,
  ]);
}

function stripJpeg(bytes: Uint8Array): Uint8Array {
  const orientation = readJpegOrientation(bytes);
  const parts: Uint8Array[] = [bytes.subarray(0, 2)];
  if (orientation !== 1) parts.push(orientationOnlyExif(orientation));
  let offset = 2;
  while (offset + 1 < bytes.length) {
    if (bytes[offset] !== 0xff) {
      // Stray bytes between segments (decoders skip them too). Fail closed: never hand back
      // the file whole, or an odd file would keep its GPS position.
      offset++;
      continue;
    }
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (marker === 0xd9) {
      parts.push(bytes.subarray(offset, offset + 2)); // end of image; anything after it goes
      return concat(parts);
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      parts.push(bytes.subarray(offset, offset + 2));
      offset += 2;
      continue;
    }
    const end = offset + 2 + ((bytes[offset + 2] << 8) | bytes[offset + 3]);
    if (end > bytes.length) {
      // A segment cut off by the end of the file: keep image data, never metadata.
      if (keepJpegSegment(bytes, marker, offset + 4)) parts.push(bytes.subarray(offset));
      return concat(parts);
    }
    let next = end;
    if (marker === 0xda) {
      // The scan's entropy-coded data runs to the next marker that is not stuffing or a restart.
      while (next + 1 < bytes.length) {
        if (bytes[next] === 0xff && bytes[next + 1] !== 0 && !(bytes[next + 1] >= 0xd0 && bytes[next + 1] <= 0xd7)) break;
        next++;
      }
    }
    if (keepJpegSegment(bytes, marker, offset + 4)) parts.push(bytes.subarray(offset, next));
    offset = next;
  }
  return concat(parts);
}

function keepJpegSegment(bytes: Uint8Array, marker: number, payload: number): boolean {
  if (marker === 0xfe) return false; // comment
  if (marker >= 0xe0 && marker <= 0xef) {
    if (marker === 0xe0) return ascii(bytes, payload, 5) === "JFIF\0"; // not JFXX thumbnails
    if (marker === 0xe2) return ascii(bytes, payload, 12) === "ICC_PROFILE\0";
    if (marker === 0xee) return ascii(bytes, payload, 5) === "Adobe"; // colour transform flag
    return false; // EXIF, XMP, IPTC/Photoshop, MPF, maker data...
  }
  return true; // frame, tables, restart interval, scans
}

const PNG_KEPT = new Set(["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "bKGD", "pHYs", "acTL", "fcTL", "fdAT"]);

function stripPng(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0;
    const end = offset + 12 + length;
    const type = ascii(bytes, offset + 4, 4);
    if (end > bytes.length) {
      // Cut off by the end of the file: keep image data, never metadata (fail closed).
      if (PNG_KEPT.has(type)) parts.push(bytes.subarray(offset));
      break;
    }
    if (PNG_KEPT.has(type)) parts.push(bytes.subarray(offset, end));
    offset = end;
    if (type === "IEND") break;
  }
  return concat(parts);
}

const WEBP_KEPT = new Set(["VP8 ", "VP8L", "VP8X", "ALPH", "ICCP", "ANIM", "ANMF"]);

function stripWebp(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [bytes.slice(0, 12)];
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const size = (bytes[offset + 4] | (bytes[offset + 5] << 8) | (bytes[offset + 6] << 16) | (bytes[offset + 7] << 24)) >>> 0;
    const end = offset + 8 + size + (size & 1);
    const type = ascii(bytes, offset, 4);
    if (offset + 8 + size > bytes.length) {
      // Cut off by the end of the file: keep image data, never metadata (fail closed).
      if (WEBP_KEPT.has(type) && type !== "VP8X") parts.push(bytes.subarray(offset));
      break;
    }
    if (type === "VP8X") {
      const chunk = bytes.slice(offset, Math.min(end, bytes.length));
      chunk[8] &= ~(0x08 | 0x04); // no EXIF, no XMP any more
      parts.push(chunk);
    } else if (WEBP_KEPT.has(type)) {
      parts.push(bytes.subarray(offset, Math.min(end, bytes.length)));
    }
    offset = end;
  }
  const out = concat(parts);
  new DataView(out.buffer).setUint32(4, out.length - 8, true);
  return out;
}

function stripGif(bytes: Uint8Array): Uint8Array {
  const flags = bytes[10];
  let offset = 13 + (flags & 0x80 ? 3 * (2 << (flags & 7)) : 0);
  const parts: Uint8Array[] = [bytes.subarray(0, offset)];
  const subBlocksEnd = (at: number) => {
    while (at < bytes.length && bytes[at] !== 0) at += 1 + bytes[at];
    return at + 1;
  };
  while (offset < bytes.length) {
    const introducer = bytes[offset];
    if (introducer === 0x3b) {
      parts.push(bytes.subarray(offset, offset + 1));
      return concat(parts);
    }
    if (introducer === 0x21) {
      const label = bytes[offset + 1];
      const end = subBlocksEnd(offset + 2);
      // Comments go; of application extensions only the looping ones (NETSCAPE2.0/ANIMEXTS1.0) stay.
      const application = label === 0xff ? ascii(bytes, offset + 3, 11) : "";
      const keep = label !== 0xfe && (label !== 0xff || application === "NETSCAPE2.0" || application === "ANIMEXTS1.0");
      if (keep) parts.push(bytes.subarray(offset, end));
      offset = end;
    } else if (introducer === 0x2c) {
      const imageFlags = bytes[offset + 9];
      const dataStart = offset + 10 + (imageFlags & 0x80 ? 3 * (2 << (imageFlags & 7)) : 0) + 1;
      const end = subBlocksEnd(dataStart);
      parts.push(bytes.subarray(offset, end));
      offset = end;
    } else {
      break; // not a block we know: what follows is dropped, never passed on unread (fail closed)
    }
  }
  return concat(parts);
}
