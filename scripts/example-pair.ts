/**
 * One landing-page example, made by the Worker's own code path: the photo decoded and sketched
 * exactly as a customer's upload is (decodeToGray + renderSketch of workers/sketch/pipeline.ts),
 * then both shrunk for the web. Bundled by scripts/make-examples.mjs with esbuild (the `.wasm`
 * imports become compiled modules, as in the bench).
 */
import encodeJpegFile, { init as initJpegEncoder } from "@jsquash/jpeg/encode";
import encodeRgbaPng, { init as initPngCodec } from "@jsquash/png/encode";
import jpegEncoderWasm from "../node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
import { decodeImage } from "../workers/sketch/decode";
import { encodeGrayPng } from "../workers/sketch/encode";
import { areaResize, fitWithin, type GrayPlane } from "../workers/sketch/kernel";
import { decodeToGray, renderSketch } from "../workers/sketch/pipeline";
import { pngCodecWasm } from "../workers/sketch/decode/wasm-modules";

type InitFromModule = (module: WebAssembly.Module) => Promise<unknown>;
let encodersReady: Promise<unknown> | undefined;
const encoders = () =>
  (encodersReady ??= Promise.all([(initJpegEncoder as unknown as InitFromModule)(jpegEncoderWasm), initPngCodec(pngCodecWasm)]));

export interface Rgba {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export interface ExamplePair {
  photo: Rgba;
  sketch: GrayPlane;
  /** The print-size page's quality score, as the shop would show it. */
  qualityScore: number;
  /** The size of the page the engine made before it was shrunk for the web. */
  pageWidth: number;
  pageHeight: number;
}

/** Sketches `bytes` with the Worker's pipeline; both images come back fitted to `longEdge` (never enlarged). */
export async function makeExamplePair(bytes: Uint8Array, longEdge: number): Promise<ExamplePair> {
  const { sketch: page, qualityScore } = renderSketch(await decodeToGray(bytes));
  const decoded = await decodeImage(bytes);
  const size = fitWithin(decoded.width, decoded.height, longEdge);
  const photo = shrinkRgba({ data: new Uint8ClampedArray(decoded.rgba), width: decoded.width, height: decoded.height }, size.width, size.height);
  // The page and the photo share an aspect ratio, so the web sketch matches the web photo pixel for pixel.
  const sketch = areaResize(page, size.width, size.height);
  return { photo, sketch, qualityScore, pageWidth: page.width, pageHeight: page.height };
}

/** Area-average shrink of RGBA, one channel at a time through the kernel's own areaResize. */
export function shrinkRgba(image: Rgba, width: number, height: number): Rgba {
  if (width === image.width && height === image.height) return image;
  const out = new Uint8ClampedArray(width * height * 4);
  const pixels = image.width * image.height;
  for (let channel = 0; channel < 4; channel++) {
    const plane = new Uint8Array(pixels);
    for (let i = 0; i < pixels; i++) plane[i] = image.data[i * 4 + channel];
    const small = areaResize({ data: plane, width: image.width, height: image.height }, width, height);
    for (let i = 0; i < width * height; i++) out[i * 4 + channel] = small.data[i];
  }
  return { data: out, width, height };
}

export async function encodeJpeg(image: Rgba, quality: number): Promise<Uint8Array> {
  await encoders();
  const encoded = await encodeJpegFile({ ...image, colorSpace: "srgb" } as ImageData, { quality, progressive: true });
  return new Uint8Array(encoded);
}

export async function encodePng(image: Rgba): Promise<Uint8Array> {
  await encoders();
  return new Uint8Array(await encodeRgbaPng({ ...image, colorSpace: "srgb" } as ImageData));
}

export { encodeGrayPng };

/** Grey plane as opaque RGBA, for composing it with photos. */
export function grayToRgba({ data, width, height }: GrayPlane): Rgba {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i++) {
    out[i * 4] = out[i * 4 + 1] = out[i * 4 + 2] = data[i];
    out[i * 4 + 3] = 255;
  }
  return { data: out, width, height };
}

/**
 * The social preview card, `width` x `height`: the photo small on the left and its sketch large
 * on the right, both whole and vertically centred on a brand-violet ground. The photo is kept
 * small on purpose: a photo costs about 3 bytes a pixel in a PNG, a line drawing a fraction.
 */
export function socialCard(photo: Rgba, sketch: Rgba, width: number, height: number, ground: [number, number, number]): Rgba {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) out.set([...ground, 255], i * 4);
  const margin = Math.round(height * 0.07);
  const gap = margin;
  const aspect = photo.width / photo.height;
  // The photo takes 38 % of the width inside the margins, the sketch the rest.
  const inner = width - 2 * margin - gap;
  const photoWidth = Math.round(inner * 0.38);
  const sketchWidth = Math.min(inner - photoWidth, Math.round((height - 2 * margin) * aspect));
  const paste = (image: Rgba, left: number, cellWidth: number) => {
    const cellHeight = Math.round(cellWidth / aspect);
    const cell = coverCrop(image, cellWidth, cellHeight);
    const top = Math.round((height - cellHeight) / 2);
    for (let y = 0; y < cellHeight; y++) {
      out.set(cell.data.subarray(y * cellWidth * 4, (y + 1) * cellWidth * 4), ((top + y) * width + left) * 4);
    }
  };
  paste(photo, margin, photoWidth);
  paste(sketch, width - margin - sketchWidth, sketchWidth);
  return { data: out, width, height };
}

/** Centre crop to the target's aspect ratio, then an area shrink (or a nearest-pixel stretch if the source is smaller). */
function coverCrop(image: Rgba, width: number, height: number): Rgba {
  const scale = Math.max(width / image.width, height / image.height);
  const cropWidth = Math.min(image.width, Math.round(width / scale));
  const cropHeight = Math.min(image.height, Math.round(height / scale));
  const left = Math.floor((image.width - cropWidth) / 2);
  const top = Math.floor((image.height - cropHeight) / 2);
  const cropped = new Uint8ClampedArray(cropWidth * cropHeight * 4);
  for (let y = 0; y < cropHeight; y++) {
    const from = ((top + y) * image.width + left) * 4;
    cropped.set(image.data.subarray(from, from + cropWidth * 4), y * cropWidth * 4);
  }
  const crop = { data: cropped, width: cropWidth, height: cropHeight };
  if (cropWidth >= width && cropHeight >= height) return shrinkRgba(crop, width, height);
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(cropHeight - 1, Math.floor((y * cropHeight) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(cropWidth - 1, Math.floor((x * cropWidth) / width));
      out.set(cropped.subarray((sy * cropWidth + sx) * 4, (sy * cropWidth + sx) * 4 + 4), (y * width + x) * 4);
    }
  }
  return { data: out, width, height };
}
