/**
 * The Worker's decode entry and the seed files for `npm run fuzz` (bench/fuzz.mjs), bundled by
 * esbuild for Node. Not part of the Worker.
 *
 * Seeds: the JPEG fixtures as they are (baseline, progressive, restart intervals, grey, RGB),
 * plus small files made here from one of them so a mutated file stays small enough to keep in
 * test/fixtures/hostile: JPEG baseline and progressive (mozjpeg), PNG, WebP lossy and lossless,
 * GIF plain and interlaced, BMP at 1, 8, 24 and 32 bits (the test suite's own builders).
 */
import decodeJpeg, { init as initJpegDecoder } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initJpegEncoder } from "@jsquash/jpeg/encode";
import encodePng, { init as initPngEncoder } from "@jsquash/png/encode";
import encodeWebp, { init as initWebpEncoder } from "@jsquash/webp/encode";
import jpegEncoderWasm from "../node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
import webpEncoderWasm from "../node_modules/@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import { decodeToGrayPlane } from "../workers/sketch/decode";
import { isPermanent } from "../workers/sketch/errors";
import { jpegDecoderWasm, pngCodecWasm } from "../workers/sketch/decode/wasm-modules";
import { makeBmp, makeGif } from "../test/sketch/exif-fixtures";

export { isPermanent };

/** The decode every uploaded photo goes through in the sketch Worker. */
export async function decode(bytes: Uint8Array): Promise<{ width: number; height: number; length: number }> {
  const plane = await decodeToGrayPlane(bytes);
  return { width: plane.width, height: plane.height, length: plane.data.length };
}

export interface Seed {
  name: string;
  format: "jpeg" | "png" | "webp" | "gif" | "bmp";
  bytes: Uint8Array;
}

type InitFromModule = (module: WebAssembly.Module) => Promise<unknown>;

/** Small seeds made from `photo` (a JPEG), `width` x `height` pixels. */
export async function makeSmallSeeds(photo: Uint8Array, width: number, height: number): Promise<Seed[]> {
  await Promise.all([
    (initJpegDecoder as unknown as InitFromModule)(jpegDecoderWasm),
    (initJpegEncoder as unknown as InitFromModule)(jpegEncoderWasm),
    initPngEncoder(pngCodecWasm),
    (initWebpEncoder as unknown as InitFromModule)(webpEncoderWasm),
  ]);
  const full = await decodeJpeg(photo.slice().buffer as ArrayBuffer);
  const rgba = shrink(full.data, full.width, full.height, width, height);
  const image = { data: rgba, width, height, colorSpace: "srgb" } as ImageData;
  const pixel = (x: number, y: number) => [rgba[(y * width + x) * 4], rgba[(y * width + x) * 4 + 1], rgba[(y * width + x) * 4 + 2]];
  // A 3-3-2 colour cube: enough colours for a palette GIF of a photo.
  const cube: [number, number, number][] = Array.from({ length: 256 }, (_, i) => [(i >> 5) * 36, ((i >> 2) & 7) * 36, (i & 3) * 85]);
  const cubeIndex = (x: number, y: number) => {
    const [r, g, b] = pixel(x, y);
    return ((r >> 5) << 5) | ((g >> 5) << 2) | (b >> 6);
  };
  const greys: [number, number, number][] = Array.from({ length: 256 }, (_, i) => [i, i, i]);
  const grey = (x: number, y: number) => {
    const [r, g, b] = pixel(x, y);
    return [(77 * r + 150 * g + 29 * b + 128) >> 8];
  };
  const bytes = (buffer: ArrayBuffer) => new Uint8Array(buffer);
  return [
    { name: "small-baseline.jpg", format: "jpeg", bytes: bytes(await encodeJpeg(image, { quality: 80, baseline: true, progressive: false })) },
    { name: "small-progressive.jpg", format: "jpeg", bytes: bytes(await encodeJpeg(image, { quality: 80, progressive: true })) },
    { name: "small.png", format: "png", bytes: bytes(await encodePng(image)) },
    { name: "small-lossy.webp", format: "webp", bytes: bytes(await encodeWebp(image, { quality: 70 })) },
    { name: "small-lossless.webp", format: "webp", bytes: bytes(await encodeWebp(image, { lossless: 1 })) },
    { name: "small.gif", format: "gif", bytes: makeGif(width, height, cubeIndex, cube) },
    { name: "small-interlaced.gif", format: "gif", bytes: makeGif(width, height, cubeIndex, cube, { interlaced: true, transparent: 0 }) },
    { name: "small-24.bmp", format: "bmp", bytes: makeBmp(width, height, pixel, { bits: 24 }) },
    { name: "small-32-topdown.bmp", format: "bmp", bytes: makeBmp(width, height, pixel, { bits: 32, topDown: true }) },
    { name: "small-8.bmp", format: "bmp", bytes: makeBmp(width, height, grey, { bits: 8, palette: greys }) },
    { name: "small-1.bmp", format: "bmp", bytes: makeBmp(width, height, (x, y) => [grey(x, y)[0] > 110 ? 1 : 0], { bits: 1, palette: [[0, 0, 0], [255, 255, 255]] }) },
  ];
}

/** Box-average RGBA down to width x height. */
function shrink(data: Uint8ClampedArray, w: number, h: number, width: number, height: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * h) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * h) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * w) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * w) / width));
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) sum += data[(yy * w + xx) * 4 + c];
        out[(y * width + x) * 4 + c] = Math.round(sum / ((y1 - y0) * (x1 - x0)));
      }
    }
  }
  return out;
}
