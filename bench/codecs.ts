/** Codecs and image helpers the benchmark needs besides the job itself (test photos, the contact sheet). */
import decodeJpeg, { init as initJpegDecoder } from "@jsquash/jpeg/decode";
import encodeJpegFile, { init as initJpegEncoder } from "@jsquash/jpeg/encode";
import encodePng, { init as initPng } from "@jsquash/png/encode";
import decodePng, { init as initPngDecoder } from "@jsquash/png/decode";
import jpegDecoderWasm from "../node_modules/@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
import jpegEncoderWasm from "../node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
import type { GrayPlane } from "../workers/sketch/kernel";
import { pngCodecWasm } from "../workers/sketch/decode/wasm-modules";

/** What the upload page does to a photo over print size, for the bench's upload-sized photo. */
export { JPEG_QUALITY as UPLOAD_JPEG_QUALITY, targetSize as uploadSize } from "../app/lib/prepare-photo";
export { integrate } from "../workers/sketch/kernel/summed-area";

type InitFromModule = (module: WebAssembly.Module) => Promise<unknown>;
let ready: Promise<unknown> | undefined;
const codecs = () =>
  (ready ??= Promise.all([
    (initJpegDecoder as unknown as InitFromModule)(jpegDecoderWasm),
    (initJpegEncoder as unknown as InitFromModule)(jpegEncoderWasm),
    initPng(pngCodecWasm),
    initPngDecoder(pngCodecWasm),
  ]));

export interface Rgba {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export async function decodeJpegRgba(bytes: Uint8Array): Promise<Rgba> {
  await codecs();
  const image = await decodeJpeg(bytes.slice().buffer as ArrayBuffer);
  return { data: image.data, width: image.width, height: image.height };
}

/** A PNG's pixels (the bench's face photos include PNGs, made into JPEGs as the Worker's uploads are). */
export async function decodePngRgba(bytes: Uint8Array): Promise<Rgba> {
  await codecs();
  const image = await decodePng(bytes.slice().buffer as ArrayBuffer);
  return { data: image.data, width: image.width, height: image.height };
}

/** mozjpeg's JPEG (progressive by default, as mozjpeg writes; `progressive: false` for a baseline file as browsers write). */
export async function encodeJpeg(image: Rgba, quality: number, { progressive = true } = {}): Promise<Uint8Array> {
  await codecs();
  return new Uint8Array(await encodeJpegFile({ ...image, colorSpace: "srgb" } as ImageData, { quality, progressive }));
}

/** Bilinear resize of RGBA; with crop, the source is first cut to the target's aspect ratio. */
export function resizeRgba(image: Rgba, width: number, height: number, crop = false): Rgba {
  let [x0, y0, w, h] = [0, 0, image.width, image.height];
  if (crop) {
    const aspect = width / height;
    if (w / h > aspect) {
      w = Math.round(h * aspect);
      x0 = Math.floor((image.width - w) / 2);
    } else {
      h = Math.round(w / aspect);
      y0 = Math.floor((image.height - h) / 2);
    }
  }
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(h - 1, Math.max(0, ((y + 0.5) * h) / height - 0.5));
    const iy = Math.min(h - 2, Math.floor(sy));
    const fy = sy - iy;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(w - 1, Math.max(0, ((x + 0.5) * w) / width - 0.5));
      const ix = Math.min(w - 2, Math.floor(sx));
      const fx = sx - ix;
      const at = (xx: number, yy: number, c: number) => image.data[((y0 + yy) * image.width + x0 + xx) * 4 + c];
      for (let c = 0; c < 4; c++) {
        const top = at(ix, iy, c) * (1 - fx) + at(ix + 1, iy, c) * fx;
        const bottom = at(ix, iy + 1, c) * (1 - fx) + at(ix + 1, iy + 1, c) * fx;
        data[(y * width + x) * 4 + c] = top * (1 - fy) + bottom * fy;
      }
    }
  }
  return { data, width, height };
}

/**
 * One row per photo: the colour photo, then its pages (one per detail level), all scaled to
 * rowHeight (area average for the pages so thin lines keep their weight), on a mid-grey ground
 * so the pages' white paper shows where it ends.
 */
export async function contactSheet(rows: { bytes: Uint8Array; pages: GrayPlane[] }[], rowHeight: number): Promise<Uint8Array> {
  const gap = 12;
  const cells = await Promise.all(
    rows.map(async ({ bytes, pages }) => {
      const photo = await decodeJpegRgba(bytes);
      const width = Math.round((photo.width * rowHeight) / photo.height);
      const pageCells = pages.map((page) => {
        const pageRgba: Rgba = { data: new Uint8ClampedArray(page.width * page.height * 4), width: page.width, height: page.height };
        for (let i = 0; i < page.data.length; i++) pageRgba.data.fill(page.data[i], i * 4, i * 4 + 3), (pageRgba.data[i * 4 + 3] = 255);
        return areaShrinkRgba(pageRgba, width, rowHeight);
      });
      return { photo: resizeRgba(photo, width, rowHeight), pages: pageCells };
    }),
  );
  const columns = 1 + Math.max(...cells.map((c) => c.pages.length));
  const sheetWidth = gap + Math.max(...cells.map((c) => c.photo.width)) * columns + columns * gap;
  const sheetHeight = gap + cells.length * (rowHeight + gap);
  const sheet = new Uint8ClampedArray(sheetWidth * sheetHeight * 4).fill(128);
  const paste = (image: Rgba, left: number, top: number) => {
    for (let y = 0; y < image.height; y++)
      sheet.set(image.data.subarray(y * image.width * 4, (y + 1) * image.width * 4), ((top + y) * sheetWidth + left) * 4);
  };
  cells.forEach((cell, row) => {
    const top = gap + row * (rowHeight + gap);
    paste(cell.photo, gap, top);
    cell.pages.forEach((page, column) => paste(page, gap + (column + 1) * (gap + cell.photo.width), top));
  });
  await codecs();
  return new Uint8Array(await encodePng({ data: sheet, width: sheetWidth, height: sheetHeight, colorSpace: "srgb" } as ImageData));
}

/** Area-average shrink of RGBA (box of source pixels per output pixel), for thin black lines. */
function areaShrinkRgba(image: Rgba, width: number, height: number): Rgba {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * image.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * image.width) / width));
      let sum = 0;
      for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) sum += image.data[(yy * image.width + xx) * 4];
      const v = sum / ((y1 - y0) * (x1 - x0));
      const o = (y * width + x) * 4;
      data[o] = data[o + 1] = data[o + 2] = v;
      data[o + 3] = 255;
    }
  }
  return { data, width, height };
}
