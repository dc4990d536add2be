/**
 * The sketch job exactly as the Worker runs a first conversion (pipeline.ts convertOriginal:
 * decode → regions, the decoded plane dropped, the regions packed for R2 → the level's page and
 * score; encode.ts: PNG), bundled for bench/memory.mjs, plus the jSquash encoder that makes the
 * synthetic 24 MP test photo. Not part of the Worker.
 */
import encodeJpeg, { init as initJpegEncoder } from "@jsquash/jpeg/encode";
import decodeJpeg, { init as initJpegDecoder } from "@jsquash/jpeg/decode";
import jpegEncoderWasm from "../node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
import jpegDecoderWasm from "../node_modules/@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
import { DEFAULT_DETAIL_LEVEL } from "../app/core/engine-limits";
import { encodeGrayPng } from "../workers/sketch/encode";
import { decodeToGray, photoRegions, renderLevel } from "../workers/sketch/pipeline";
import { packRegions } from "../workers/sketch/stored-regions";

/** Like loadGray in pipeline.ts: the file's bytes are a local here, garbage once it returns. */
async function load(read: () => Uint8Array) {
  return decodeToGray(read());
}

/** read() hands over the file (the caller keeps no reference, as R2's arrayBuffer() in the Worker). */
export async function runJob(read: () => Uint8Array, sample: (stage: string) => void) {
  sample("start");
  let photo: Awaited<ReturnType<typeof decodeToGray>> | undefined = await load(read);
  sample("decoded");
  const regions = photoRegions(photo);
  const decoded = { width: photo.gray.width, height: photo.gray.height, sourceWidth: photo.width, sourceHeight: photo.height };
  photo = undefined;
  sample("regions built");
  // What storeRegions hands to R2's put, garbage once the put returns.
  let stored: Uint8Array | undefined = packRegions(regions);
  const storedBytes = stored.length;
  stored = undefined;
  sample("packed");
  const { sketch, qualityScore } = renderLevel(regions, DEFAULT_DETAIL_LEVEL);
  sample("page");
  const png = await encodeGrayPng(sketch);
  sample("encoded");
  return { ...decoded, pageWidth: sketch.width, pageHeight: sketch.height, qualityScore, storedBytes, pngBytes: png.length };
}

type InitFromModule = (module: WebAssembly.Module) => Promise<unknown>;

/** A JPEG of the photo resized (bilinear) to width x height: the synthetic large test photo. */
export async function resizedJpeg(bytes: Uint8Array, width: number, height: number, quality = 90): Promise<Uint8Array> {
  await (initJpegDecoder as unknown as InitFromModule)(jpegDecoderWasm);
  await (initJpegEncoder as unknown as InitFromModule)(jpegEncoderWasm);
  const source = await decodeJpeg(bytes.slice().buffer as ArrayBuffer);
  const out = new Uint8ClampedArray(width * height * 4);
  const sx = source.width / width;
  const sy = source.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(source.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(source.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(source.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(source.width - 1, x0 + 1);
      const wx = fx - x0;
      for (let c = 0; c < 4; c++) {
        const a = source.data[(y0 * source.width + x0) * 4 + c];
        const b = source.data[(y0 * source.width + x1) * 4 + c];
        const d = source.data[(y1 * source.width + x0) * 4 + c];
        const e = source.data[(y1 * source.width + x1) * 4 + c];
        out[(y * width + x) * 4 + c] = (a * (1 - wx) + b * wx) * (1 - wy) + (d * (1 - wx) + e * wx) * wy;
      }
    }
  }
  const image = { width, height, data: out, colorSpace: "srgb" } as ImageData;
  return new Uint8Array(await encodeJpeg(image, { quality }));
}
