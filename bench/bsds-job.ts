/**
 * One BSDS photo through the Worker's own code path (bench/bsds.mjs): the JPEG decoded as the
 * Worker decodes it, the region hierarchy built once, each detail level cut and drawn from it.
 */
import { DETAIL_LEVELS, type DetailLevel } from "../app/core/engine-limits";
import { decodeToGray } from "../workers/sketch/pipeline";
import { drawLevel, grayToHierarchy, type GrayPlane } from "../workers/sketch/kernel";

export { DETAIL_LEVELS };

/** Each level's page; `scale` 1 is print size, less draws the same lines on a smaller page. */
export async function bsdsPages(bytes: Uint8Array, scale: number): Promise<Record<DetailLevel, GrayPlane>> {
  const photo = await decodeToGray(bytes);
  const { hierarchy } = grayToHierarchy(photo.gray, photo.chroma);
  const pages = {} as Record<DetailLevel, GrayPlane>;
  for (const level of DETAIL_LEVELS) pages[level] = drawLevel(hierarchy, level, scale);
  return pages;
}
