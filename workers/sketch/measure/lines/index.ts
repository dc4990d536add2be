/**
 * How colourable a finished page is, read as a drawing: its lines and the white regions they close
 * (../pixels.ts counts pixels; this follows the lines). Serves the colourability measure of
 * docs/decisions/010-colourability-measure.md.
 *
 *   bounding share     share of the line (its skeleton) with different white regions on its two sides
 *   free ends / m      skeleton end points per metre of line: stroke tips that close nothing
 *   colourable share   share of the page in white regions a crayon can fill (0.25 cm² to 15 % of it)
 *   fiddly share       share of that in regions under 1 cm²
 *   background share   share of the page in regions over 15 % of it
 *   region count       white regions of at least 1 mm²
 *   nesting share      how much of a coarser level's drawing a finer level keeps
 *   edge precision     how much of the drawing lies on the photo's edges
 *
 * Sizes are at print size (300 dpi, long edge PRINT_LONG_EDGE_PX), so a small page and a large
 * one of the same drawing read alike. Pure TypeScript over typed arrays (workerd and Node).
 *
 * Lines and regions are found on a work plane, the page reduced by 2 when large (work-plane.ts).
 * The reading, in the order it is done: work-plane.ts (the page as ink flags), distance.ts (chamfer
 * distances), skeleton.ts (the lines thinned to one pixel), regions.ts (the white regions they
 * close), all made once per page (page-parts.ts); then this file's closure, free ends and amount
 * of line, width.ts (how wide the line is), on-photo.ts (how the lines sit on the photo).
 */
import type { ChromaPlanes, GrayPlane } from "../../kernel";
import { CHAMFER_STEP, chamferDistance } from "./distance";
import { clearShareOf, lineEdgeStepsOf, PHOTO_EDGE_MIN_STEP, precisionOf } from "./on-photo";
import { readPage, type PageParts } from "./page-parts";
import { BOUNDING_MARGIN_PX, touchesTwoRegions } from "./regions";
import { forwardLength, NEIGHBOUR_COUNT, neighbourCode, skeletonOf } from "./skeleton";
import { lineWidthMm } from "./width";
import { PRINT_PX_PER_MM, printScaleOf, workPlaneOf } from "./work-plane";

export { CLEAR_CONTRAST, clearLineShare, CONTRAST_FLOOR_GREY, edgePrecision, lineEdgeSteps, PHOTO_EDGE_MIN_STEP } from "./on-photo";
export { BOUNDING_MARGIN_PX, COLOURABLE_MAX_PAGE_SHARE, COLOURABLE_MIN_MM2, FIDDLY_BELOW_MM2 } from "./regions";
export { LINE_WIDTH_PERCENTILE } from "./width";
export { INK_MAX_LEVEL, WIDEST_LINE_MM, WORK_REDUCTION_ABOVE_PX } from "./work-plane";

export interface LineMeasure {
  /** Share of the drawn line (its one-pixel skeleton) that has different white regions on its two sides. */
  boundingShare: number;
  /** Free line ends (skeleton end points, except where a line runs into the paper's edge) per metre of skeleton line. */
  freeEndsPerMetre: number;
  /** Share of the whole page area lying in closed white regions of colourable size: between 0.25 cm² and 15 % of the page. */
  colourableShare: number;
  /** Share of the colourable area (see colourableShare) in regions under 1 cm²: fiddly work. */
  fiddlyShare: number;
  /** Share of the page in white regions over 15 % of it: background (a sky, a wall, a blurred garden). */
  backgroundShare: number;
  /** White regions (4-connected paper components) of at least 1 mm² (smaller ones are gaps inside junctions). */
  regionCount: number;
  /** Skeleton length in metres at print size (a diagonal step counts √2). */
  lineMetres: number;
  /** Ink pixels / all pixels. */
  inkShare: number;
  /** Line width in mm at print size: the 99th percentile over skeleton pixels of the width across the line, so a few junction blobs do not count. */
  lineWidthMm: number;
}

export const NESTING_TOLERANCE_MM = 0.5;

export function measureLines(page: GrayPlane): LineMeasure {
  return linesOf(page, readPage(page));
}

/**
 * The figures the quality score is built from (quality.ts), all from one reading of the page:
 * its lines and regions, how much of its lines lie on the photo's edges, and how much of them
 * part clearly different regions. `source` is the photo's grey (any size).
 */
export interface PageFigures extends LineMeasure {
  edgePrecision: number;
  clearShare: number;
}

export function pageFigures(source: GrayPlane, page: GrayPlane, chroma?: ChromaPlanes): PageFigures {
  const parts = readPage(page);
  return {
    ...linesOf(page, parts),
    edgePrecision: precisionOf(lineEdgeStepsOf(source, page, parts, chroma), PHOTO_EDGE_MIN_STEP),
    clearShare: clearShareOf(source, page, parts),
  };
}

function linesOf(page: GrayPlane, { work, regions, skeleton }: PageParts): LineMeasure {
  const { flags, stride, width, height, printScale } = work;
  const { pixels, count, toPaper } = skeleton;
  const printPxPerMetre = PRINT_PX_PER_MM * 1000;

  let ends = 0;
  let bounding = 0;
  let length = 0;
  for (let i = 0; i < count; i++) {
    const p = pixels[i];
    // Look just past the line's edges: the half-thickness here plus a margin, in every direction.
    const halfWidth = Math.ceil(toPaper[p] / CHAMFER_STEP - 0.5);
    const reach = halfWidth + BOUNDING_MARGIN_PX;
    // A line that runs into the paper's edge ends there, closed like the regions it bounds.
    if (NEIGHBOUR_COUNT[neighbourCode(flags, p, stride)] === 1 && !nearPlaneEdge(p, stride, width, height, halfWidth + 1)) ends++;
    length += forwardLength(flags, p, stride);
    if (touchesTwoRegions(regions.labels, p, stride, width, height, reach)) bounding++;
  }
  const lineMetres = (length * printScale) / printPxPerMetre;

  return {
    boundingShare: count ? bounding / count : 0,
    freeEndsPerMetre: lineMetres ? ends / lineMetres : 0,
    colourableShare: regions.colourableArea / (width * height),
    fiddlyShare: regions.colourableArea ? regions.fiddlyArea / regions.colourableArea : 0,
    backgroundShare: regions.backgroundArea / (width * height),
    regionCount: regions.realCount,
    lineMetres,
    inkShare: work.pageInkPixels / (page.width * page.height),
    lineWidthMm: lineWidthMm(page, work, skeleton),
  };
}

function nearPlaneEdge(p: number, stride: number, width: number, height: number, distance: number): boolean {
  const x = p % stride;
  const y = (p / stride) | 0;
  return x <= distance || y <= distance || width + 1 - x <= distance || height + 1 - y <= distance;
}

/**
 * Share of the coarse page's skeleton pixels lying within `tolerancePx` page pixels (default
 * NESTING_TOLERANCE_MM at print size) of the fine page's ink: 1 when every coarse line is also a
 * fine line, and when the coarse page has no lines. Both pages the same size.
 */
export function nestingShare(coarse: GrayPlane, fine: GrayPlane, tolerancePx = (NESTING_TOLERANCE_MM * PRINT_PX_PER_MM) / printScaleOf(coarse)): number {
  if (coarse.width !== fine.width || coarse.height !== fine.height) throw new Error("nestingShare: the pages differ in size");
  const coarseWork = workPlaneOf(coarse);
  const { pixels, count } = skeletonOf(coarseWork);
  if (!count) return 1;
  const fineWork = workPlaneOf(fine);
  const toInk = chamferDistance(fineWork, true);
  const limit = (tolerancePx / fineWork.factor) * CHAMFER_STEP;
  let nested = 0;
  for (let i = 0; i < count; i++) if (toInk[pixels[i]] <= limit) nested++;
  return nested / count;
}
