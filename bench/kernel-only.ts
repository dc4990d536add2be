/**
 * Entry for bench/kernel-only.mjs: the kernel and a decoder that does not depend on the
 * Worker's decoder (jSquash RGBA → Rec. 601 grey), so the kernel can be timed on its own.
 */
import { decodeJpegRgba } from "./codecs";
import { grayToSketch, onKernelStage, rgbaToGray, type GrayPlane } from "../workers/sketch/kernel";

export { grayToSketch, onKernelStage };

export async function decodeToPlane(bytes: Uint8Array): Promise<GrayPlane> {
  const image = await decodeJpegRgba(bytes);
  return rgbaToGray(image.data, image.width, image.height);
}
