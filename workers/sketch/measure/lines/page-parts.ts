/** One reading of a page that all its line measures share. */
import type { GrayPlane } from "../../kernel";
import { whiteRegions, type Regions } from "./regions";
import { skeletonOf, type Skeleton } from "./skeleton";
import { workPlaneOf, type WorkPlane } from "./work-plane";

/**
 * Everything the page measures read: the work plane, its white regions and its skeleton, made once
 * (each costs tens of ms on a print-size page).
 */
export interface PageParts {
  work: WorkPlane;
  regions: Regions;
  skeleton: Skeleton;
}

export function readPage(page: GrayPlane): PageParts {
  const work = workPlaneOf(page);
  return { work, regions: whiteRegions(work), skeleton: skeletonOf(work) };
}
