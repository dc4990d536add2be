/**
 * Uploaded photo → one grey byte per pixel, upright, reduced toward print size where that is
 * cheap, and beside it the photo's colour as JPEG's Cb and Cr planes (coarser than the grey).
 * The kernel takes it from there (area downscale to the print size, then the page).
 *
 * Before any decoder runs, the header alone says the format and the size, and a photo over the
 * pixel budget is refused: a decoder allocates for the whole image up front. The decoders, each
 * chosen to fit a Worker isolate's 128 MB (docs/decisions/005-decoding-within-128mb.md):
 *   JPEG  our own decoder (jpeg/decode-luma.ts), scaled by N/8 in the DCT domain so the long
 *         edge stays at least PRINT_LONG_EDGE_PX, its chroma at about half that resolution;
 *         jSquash only for the rare JPEG kinds it does not read (arithmetic, 12-bit, CMYK...),
 *         and only when that fits.
 *   PNG, WebP  jSquash (wasm), RGBA converted to grey and to chroma (reduced: chromaOfRgba) and
 *         dropped at once; a smaller pixel budget, because RGBA in and out of the codec's memory
 *         is 8 bytes per pixel.
 *   GIF (first frame), BMP  decoders of our own (gif.ts, bmp.ts), straight to grey; no chroma.
 * EXIF orientation (JPEG) is applied to the grey and chroma planes (exif.ts).
 */
import decodeJpeg, { init as initJpegDecoder } from "@jsquash/jpeg/decode";
import decodePng, { init as initPngDecoder } from "@jsquash/png/decode";
import decodeWebp, { init as initWebpDecoder } from "@jsquash/webp/decode";
import { MAX_PNG_WEBP_SOURCE_PIXELS, MAX_SOURCE_PIXELS, PRINT_LONG_EDGE_PX } from "../../../app/core/engine-limits";
import { PROCESSING_FAILURES } from "../../../app/core/engine-messages";
import { decodeBmpGray } from "./bmp";
import { PermanentSketchError, TRUNCATED_JPEG_REASON } from "../errors";
import { applyOrientation } from "./exif";
import { readJpegOrientation } from "../../../app/core/images/exif-orientation";
import { decodeGifGray } from "./gif";
import { pixelLimitFor, readImageHeader, type ImageFormat } from "../../../app/core/images/image-header";
import { decodeJpegPlanes, jpegScaleFor, UnsupportedJpegError } from "./jpeg/decode-luma";
import { rgbaToChroma, rgbaToGray, type ChromaPlanes, type GrayPlane } from "../kernel";
import { jpegDecoderWasm, pngCodecWasm, webpDecoderWasm } from "./wasm-modules";

/** Largest image we hand to a jSquash decoder (PNG, WebP, unusual JPEGs): see app/core/engine-limits.ts. */
export const MAX_JSQUASH_PIXELS = MAX_PNG_WEBP_SOURCE_PIXELS;

/** A decoded photo: the grey plane (upright), its colour, and the size of the photo it came from. */
export interface GrayPhoto extends GrayPlane {
  format: ImageFormat;
  /** Cb and Cr, upright, each at most the grey's size; absent for a grey photo, a GIF or a BMP. */
  chroma?: ChromaPlanes;
  /** The photo's own size, upright (after EXIF orientation), before any reduction. */
  sourceWidth: number;
  sourceHeight: number;
}

export interface DecodeOptions {
  /**
   * JPEGs are reduced in the DCT domain, but never below this long edge; the chroma of an RGBA
   * decode (PNG, WebP) is reduced by a whole factor, not below it either.
   */
  minLongEdge?: number;
}

/** The grey plane and, for a colour photo, its chroma, both as stored (before orientation). */
type PlanesAsStored = GrayPlane & { chroma?: ChromaPlanes };

export interface DecodedImage {
  format: ImageFormat;
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel. */
  rgba: Uint8Array | Uint8ClampedArray;
}

// Each wasm module is instantiated once per isolate, from the module wrangler bundled, never
// fetched. The jSquash typings only declare the options overload of init(); the code accepts a
// WebAssembly.Module as its first argument (its init() tests `instanceof WebAssembly.Module`).
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

// Two decimals, rounded up, so a photo just over the limit never reads as equal to it
// (6001 x 4000 is "24.01", the limit "24.00").
const megapixels = (pixels: number) => `${(Math.ceil(pixels / 10_000) / 100).toFixed(2)} megapixels`;

/**
 * Refuses a photo whose size is over the budget of its format (`pixelLimitFor`, the same rule the
 * upload applies), before any decoder allocates for it.
 */
export function checkPixelBudget(width: number, height: number, format: ImageFormat = "jpeg"): void {
  const limit = pixelLimitFor(format);
  if (width * height <= limit) return;
  const size = `${width} x ${height} pixels (${megapixels(width * height)})`;
  // Over every format's budget: no format would do, so no format is suggested.
  if (width * height > MAX_SOURCE_PIXELS) {
    throw new PermanentSketchError(
      `The photo is too large to convert: ${size}; the limit is ${megapixels(MAX_SOURCE_PIXELS)}. Please upload a smaller photo.`,
    );
  }
  throw new PermanentSketchError(
    `The ${format.toUpperCase()} image is too large to convert: ${size}; the limit for PNG and WebP is ` +
      `${megapixels(limit)} (JPEG photos up to ${megapixels(MAX_SOURCE_PIXELS)}). Please upload a JPEG or a smaller image.`,
  );
}

/** Format and size from the header, refused before decoding if unknown, truncated or too big. */
function checkedHeader(bytes: Uint8Array) {
  const header = readImageHeader(bytes);
  if (!header) {
    throw new PermanentSketchError(
      "This file is not a photo we can read (JPEG, PNG, WebP, GIF or BMP), or its header is damaged.",
    );
  }
  checkPixelBudget(header.width, header.height, header.format);
  // A cut-off JPEG still "decodes" (the missing rows come out grey), so look for the end.
  if (header.format === "jpeg" && !jpegIsComplete(bytes)) {
    throw new PermanentSketchError(TRUNCATED_JPEG_REASON);
  }
  return header;
}

/**
 * The Worker's decode: bytes → upright grey plane. JPEGs come out reduced by N/8 with the long
 * edge still at least minLongEdge (3300 px, the print size) when the photo is that big.
 */
export async function decodeToGrayPlane(bytes: Uint8Array, options: DecodeOptions = {}): Promise<GrayPhoto> {
  const { format, width, height } = checkedHeader(bytes);
  const minLongEdge = options.minLongEdge ?? PRINT_LONG_EDGE_PX;
  let planes: PlanesAsStored;
  if (format === "jpeg") {
    planes = await decodeJpegOrFallback(bytes, width, height, minLongEdge);
    const orientation = readJpegOrientation(bytes);
    const { data, width: w, height: h } = applyOrientation(planes, orientation);
    const chroma = planes.chroma && { cb: applyOrientation(planes.chroma.cb, orientation), cr: applyOrientation(planes.chroma.cr, orientation) };
    const turned = orientation >= 5;
    return { data, width: w, height: h, ...(chroma && { chroma }), format, sourceWidth: turned ? height : width, sourceHeight: turned ? width : height };
  }
  if (format === "gif") planes = decodeGifGray(bytes);
  else if (format === "bmp") planes = decodeBmpGray(bytes);
  else planes = await decodeWithJsquashToGray(bytes, format, minLongEdge);
  return { ...planes, format, sourceWidth: width, sourceHeight: height };
}

async function decodeJpegOrFallback(bytes: Uint8Array, width: number, height: number, minLongEdge: number): Promise<PlanesAsStored> {
  try {
    const { data, width: w, height: h, chroma } = decodeJpegPlanes(bytes, jpegScaleFor(width, height, minLongEdge));
    return chroma ? { data, width: w, height: h, chroma } : { data, width: w, height: h };
  } catch (error) {
    if (!(error instanceof UnsupportedJpegError)) throw error;
    if (width * height > MAX_JSQUASH_PIXELS) {
      throw new PermanentSketchError(
        `${error.message} At ${width} x ${height} pixels it is too large for our fallback decoder ` +
          `(limit ${megapixels(MAX_JSQUASH_PIXELS)}). Please save it as an ordinary JPEG and upload it again.`,
      );
    }
    try {
      return await decodeWithJsquashToGray(bytes, "jpeg", minLongEdge);
    } catch {
      throw new PermanentSketchError(`${error.message} Please save it as an ordinary JPEG and upload it again.`);
    }
  }
}

/** jSquash to RGBA, then grey and chroma; the RGBA is a local here and is garbage once this returns. */
async function decodeWithJsquashToGray(bytes: Uint8Array, format: "jpeg" | "png" | "webp", minLongEdge: number): Promise<PlanesAsStored> {
  const { rgba, width, height } = await decodeRgba(bytes, format);
  return { ...rgbaToGray(rgba, width, height), chroma: chromaOfRgba(rgba, width, height, minLongEdge) };
}

/**
 * Cb and Cr of an RGBA image, each pixel the mean of a factor x factor box (the largest whole
 * factor that keeps the long edge at least minLongEdge), transparent pixels over white paper as
 * rgbaToGray takes them. Converted a row at a time, so only the reduced planes are allocated:
 * chroma finer than the analysis grid would be averaged away by the region stage anyway.
 */
export function chromaOfRgba(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, minLongEdge: number): ChromaPlanes {
  const factor = Math.max(1, Math.floor(Math.max(width, height) / Math.max(1, minLongEdge)));
  const outWidth = Math.ceil(width / factor);
  const outHeight = Math.ceil(height / factor);
  const cb = new Uint8Array(outWidth * outHeight);
  const cr = new Uint8Array(outWidth * outHeight);
  const row = new Uint8Array(outWidth * 4);
  const sums = new Float64Array(outWidth * 3);
  const counts = new Uint32Array(outWidth);
  for (let oy = 0; oy < outHeight; oy++) {
    sums.fill(0);
    counts.fill(0);
    for (let y = oy * factor; y < Math.min(height, (oy + 1) * factor); y++) {
      for (let x = 0, p = y * width * 4; x < width; x++, p += 4) {
        const alpha = rgba[p + 3];
        const paper = 255 * (255 - alpha);
        const o = ((x / factor) | 0) * 3;
        sums[o] += (rgba[p] * alpha + paper) / 255;
        sums[o + 1] += (rgba[p + 1] * alpha + paper) / 255;
        sums[o + 2] += (rgba[p + 2] * alpha + paper) / 255;
        counts[(x / factor) | 0]++;
      }
    }
    for (let ox = 0; ox < outWidth; ox++) {
      row[ox * 4] = Math.round(sums[ox * 3] / counts[ox]);
      row[ox * 4 + 1] = Math.round(sums[ox * 3 + 1] / counts[ox]);
      row[ox * 4 + 2] = Math.round(sums[ox * 3 + 2] / counts[ox]);
      row[ox * 4 + 3] = 255;
    }
    const converted = rgbaToChroma(row, outWidth, 1);
    cb.set(converted.cb.data, oy * outWidth);
    cr.set(converted.cr.data, oy * outWidth);
  }
  return { cb: { data: cb, width: outWidth, height: outHeight }, cr: { data: cr, width: outWidth, height: outHeight } };
}

/**
 * The RGBA path (jSquash, JPEG/PNG/WebP, EXIF orientation not applied), for tests and tools
 * that want colour; the Worker itself uses decodeToGrayPlane.
 */
export async function decodeImage(bytes: Uint8Array): Promise<DecodedImage> {
  const { format } = checkedHeader(bytes);
  if (format === "gif" || format === "bmp") {
    throw new PermanentSketchError(`${format.toUpperCase()} images have no RGBA decoder here; use decodeToGrayPlane.`);
  }
  return decodeRgba(bytes, format);
}

async function decodeRgba(bytes: Uint8Array, format: "jpeg" | "png" | "webp"): Promise<DecodedImage> {
  await ready(format);
  // The codecs want an ArrayBuffer holding exactly the file.
  const buffer =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? (bytes.buffer as ArrayBuffer)
      : (bytes.slice().buffer as ArrayBuffer);
  let image: ImageData;
  try {
    if (format === "jpeg") image = await decodeJpeg(buffer, { preserveOrientation: false });
    else if (format === "png") image = await decodePng(buffer);
    else image = await decodeWebp(buffer);
  } catch (error) {
    // A codec that failed may have trapped half-way and left its wasm instance broken (npm run
    // fuzz: after earlier failures, a later 1.6 KB JPEG hung the fallback decoder; on its own it
    // failed in 13 ms). The isolate outlives this photo, so the next one gets a fresh instance.
    delete decoderReady[format];
    // The codec's own words are for the log (describeError quotes the cause), not the customer.
    throw new PermanentSketchError(PROCESSING_FAILURES.codecDamaged(format.toUpperCase()), { cause: error });
  }
  // The header passed the budget; the decoded size is what we allocate from now on.
  checkPixelBudget(image.width, image.height, format);
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
      // Skip the entropy-coded data that follows a start of scan, 0xFF to 0xFF: indexOf runs
      // natively, several times faster than a loop here over a photo's megabytes.
      for (;;) {
        const at = bytes.indexOf(0xff, offset);
        if (at < 0 || at + 1 >= length) return false;
        const next = bytes[at + 1];
        offset = at;
        if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7)) break;
        offset += 2;
      }
    }
  }
  return false;
}
