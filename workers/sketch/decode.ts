/**
 * Decodes an uploaded photo to RGBA with jSquash (wasm codecs), after checking from the header
 * alone that it is a format we convert and that it fits the pixel budget: a decoder allocates
 * width × height × 4 bytes up front, so a 30000 x 30000 PNG of a few KB must be refused here.
 */
import decodeJpeg, { init as initJpegDecoder } from "@jsquash/jpeg/decode";
import decodePng, { init as initPngDecoder } from "@jsquash/png/decode";
import decodeWebp, { init as initWebpDecoder } from "@jsquash/webp/decode";
import { MAX_SOURCE_PIXELS } from "../../app/lib/constants";
import { PermanentSketchError } from "./errors";
import { readImageHeader, type ImageFormat } from "./image-header";
import { jpegDecoderWasm, pngCodecWasm, webpDecoderWasm } from "./wasm-modules";

export interface DecodedImage {
  format: ImageFormat;
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel. */
  rgba: Uint8Array | Uint8ClampedArray;
}

// Each wasm module is instantiated once per isolate, from the module wrangler bundled, never
// fetched. The jSquash typings only declare the options overload of init(); the code accepts a
// WebAssembly.Module as its first argument (see TOOLCHAIN.md).
type InitFromModule = (module: WebAssembly.Module) => Promise<unknown>;
const decoderReady: Partial<Record<ImageFormat, Promise<unknown>>> = {};
function ready(format: "jpeg" | "png" | "webp"): Promise<unknown> {
  decoderReady[format] ??= {
    jpeg: () => (initJpegDecoder as unknown as InitFromModule)(jpegDecoderWasm),
    png: () => initPngDecoder(pngCodecWasm),
    webp: () => (initWebpDecoder as unknown as InitFromModule)(webpDecoderWasm),
  }[format]();
  return decoderReady[format]!;
}

const megapixels = (pixels: number) => `${(pixels / 1_000_000).toFixed(pixels < 10_000_000 ? 1 : 0)} megapixels`;

export function checkPixelBudget(width: number, height: number): void {
  if (width * height > MAX_SOURCE_PIXELS) {
    throw new PermanentSketchError(
      `The photo is too large to convert: ${width} x ${height} pixels (${megapixels(width * height)}); ` +
        `the limit is ${megapixels(MAX_SOURCE_PIXELS)}. Please upload a smaller photo.`,
    );
  }
}

export async function decodeImage(bytes: Uint8Array): Promise<DecodedImage> {
  const header = readImageHeader(bytes);
  if (!header) {
    throw new PermanentSketchError(
      "This file is not a photo we can read (JPEG, PNG or WebP), or its header is damaged.",
    );
  }
  const { format } = header;
  checkPixelBudget(header.width, header.height);
  if (format === "gif" || format === "bmp") {
    throw new PermanentSketchError(
      `${format.toUpperCase()} images cannot be converted yet. Please upload a JPEG, PNG or WebP photo.`,
    );
  }
  // A cut-off JPEG still "decodes" (libjpeg pads the missing rows with grey), so look for the end.
  if (format === "jpeg" && !jpegIsComplete(bytes)) {
    throw new PermanentSketchError("The JPEG file is incomplete (truncated); please upload it again.");
  }

  await ready(format);
  // The codecs want an ArrayBuffer holding exactly the file.
  const buffer =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? (bytes.buffer as ArrayBuffer)
      : (bytes.slice().buffer as ArrayBuffer);
  let image: ImageData;
  try {
    if (format === "jpeg") image = await decodeJpeg(buffer, { preserveOrientation: true });
    else if (format === "png") image = await decodePng(buffer);
    else image = await decodeWebp(buffer);
  } catch (error) {
    const detail = error instanceof Error && error.message ? ` (${error.message})` : "";
    throw new PermanentSketchError(
      `The ${format.toUpperCase()} file is damaged and could not be decoded${detail}.`,
    );
  }
  // The header passed the budget; the decoded size is what we allocate from now on.
  checkPixelBudget(image.width, image.height);
  return { format, width: image.width, height: image.height, rgba: image.data };
}

/**
 * True when the JPEG's marker structure reaches End Of Image. Walks the segments; inside
 * entropy-coded scan data a 0xFF byte is followed by 0x00 (stuffing) or a restart marker, so
 * the first other marker ends the scan.
 */
export function jpegIsComplete(bytes: Uint8Array): boolean {
  let offset = 2; // after SOI
  const length = bytes.length;
  while (offset + 1 < length) {
    if (bytes[offset] !== 0xff) return false;
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    if (marker === 0xd9) return true; // EOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (offset + 3 >= length) return false;
    const segmentEnd = offset + 2 + ((bytes[offset + 2] << 8) | bytes[offset + 3]);
    if (segmentEnd > length) return false;
    offset = segmentEnd;
    if (marker === 0xda) {
      // Skip the entropy-coded data that follows a start of scan.
      while (offset + 1 < length) {
        if (bytes[offset] === 0xff) {
          const next = bytes[offset + 1];
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7)) break;
          offset += 2;
        } else {
          offset++;
        }
      }
      if (offset + 1 >= length) return false;
    }
  }
  return false;
}
