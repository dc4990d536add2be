/**
 * The sketch job as the Worker runs it, instrumented per stage for bench/run.mjs (bundled by
 * esbuild; `.wasm` imports become compiled modules read from node_modules).
 */
import { decodeImage } from "../workers/sketch/decode";
import { encodeGrayPng } from "../workers/sketch/encode";
import { areaResize, fitWithin, grayToSketch, rgbaToGray, type GrayPlane } from "../workers/sketch/kernel";
import { measureQuality } from "../workers/sketch/quality";

export { encodeGrayPng, rgbaToGray, grayToSketch, measureQuality };

export interface JobTiming {
  width: number;
  height: number;
  workWidth: number;
  workHeight: number;
  decode_ms: number;
  /**
   * The kernel's first step, area-averaging the decoded plane to half the working resolution,
   * timed on its own in a separate call (the kernel does it again; kernel_ms includes it).
   */
  resize_ms: number;
  /** Decoded plane to finished page: resize + page (the kernel's whole job). */
  kernel_ms: number;
  score_ms: number;
  encode_ms: number;
  total_ms: number;
  score: number;
  pngBytes: number;
}

/** The decoder is being changed to return a grey plane; accept either shape. */
async function decodeToPlane(bytes: Uint8Array): Promise<GrayPlane> {
  const decoded = (await decodeImage(bytes)) as unknown as {
    width: number;
    height: number;
    rgba?: Uint8Array | Uint8ClampedArray;
    data?: Uint8Array;
  };
  if (decoded.rgba) return rgbaToGray(decoded.rgba, decoded.width, decoded.height);
  return { data: decoded.data!, width: decoded.width, height: decoded.height };
}

export async function runJob(
  bytes: Uint8Array,
  sample: (label: string) => void = () => {},
): Promise<{ timing: JobTiming; page: GrayPlane; png: Uint8Array }> {
  const t0 = performance.now();
  const gray = await decodeToPlane(bytes);
  sample("decoded");
  const r0 = performance.now();
  const work = fitWithin(gray.width, gray.height, 3300);
  areaResize(gray, Math.ceil(work.width / 2), Math.ceil(work.height / 2));
  const resize_ms = performance.now() - r0;
  const t1 = performance.now();
  const { sketch: page, stats } = grayToSketch(gray);
  sample("page");
  const t3 = performance.now();
  const report = measureQuality({ sourceWidth: gray.width, sourceHeight: gray.height, source: gray, sketch: page, stats });
  const t4 = performance.now();
  const png = await encodeGrayPng(page);
  sample("encoded");
  const t5 = performance.now();
  return {
    page,
    png,
    timing: {
      width: gray.width,
      height: gray.height,
      workWidth: page.width,
      workHeight: page.height,
      decode_ms: r0 - t0,
      resize_ms,
      kernel_ms: t3 - t1,
      score_ms: t4 - t3,
      encode_ms: t5 - t4,
      total_ms: t5 - t0 - resize_ms,
      score: report.score,
      pngBytes: png.length,
    },
  };
}
