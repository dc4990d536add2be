/**
 * Entry for bench/kernel-only.mjs: the kernel and a decoder that does not depend on the
 * Worker's decoder (jSquash RGBA → Rec. 601 grey and its chroma, as the Worker's decoders give
 * them), so the kernel can be timed on its own.
 */
import { decodeJpegRgba } from "./codecs";
import { grayToSketch, rgbaToChroma, rgbaToGray, type ChromaPlanes, type GrayPlane } from "../workers/sketch/kernel";

export { grayToSketch };
export { timeKernelStages } from "./stage-times";

export async function decodeToPlane(bytes: Uint8Array): Promise<GrayPlane & { chroma: ChromaPlanes }> {
  const image = await decodeJpegRgba(bytes);
  return { ...rgbaToGray(image.data, image.width, image.height), chroma: rgbaToChroma(image.data, image.width, image.height) };
}
