/**
 * How colourable a finished page is, read as a drawing: its lines and the white regions they close
 * (pixels.ts counts pixels; this follows the lines). Serves the colourability measure of
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
 * The work plane: lines and regions are found on the page reduced by 2 when its long edge is over
 * WORK_REDUCTION_ABOVE_PX (a reduced pixel is ink when any of its four is), so a work pixel is never
 * much finer than 2 print pixels (0.17 mm): a 3300 px page costs what a 1650 px page does, and
 * reads alike. Line widths are read on the page itself, where a pixel of width matters.
 */
import { PRINT_LONG_EDGE_PX } from "../../../app/core/engine-limits";
import { areaResize, type ChromaPlanes, type GrayPlane } from "../kernel";
import { resampleTo } from "../kernel/resize";
import { cellMagnitudeRow, OUTLINE_CELL, outlineCells, SPECK_PRINT_PIXELS } from "./pixels";

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

/** Pages are black and white; anything darker than mid-grey is ink. */
export const INK_MAX_LEVEL = 127;
/** Pages with a longer edge are measured on a plane reduced by 2 (see the module comment). */
export const WORK_REDUCTION_ABOVE_PX = 1700;
/** 0.25 cm²: the smallest region worth a crayon. */
export const COLOURABLE_MIN_MM2 = 25;
/** A region over this share of the page is background (sky, wall), not a shape to colour. */
export const COLOURABLE_MAX_PAGE_SHARE = 0.15;
/** Colourable regions under 1 cm² are fiddly: a page mostly of them is a puzzle, not a picture. */
export const FIDDLY_BELOW_MM2 = 100;
/** Work pixels looked at beyond the line's edge on each side when asking which regions it parts. */
export const BOUNDING_MARGIN_PX = 2;
export const LINE_WIDTH_PERCENTILE = 0.99;
/**
 * Ink wider than this (mm) is a filled area, not a line: widths are measured up to about twice
 * this, and a spur this long is a stroke whatever the junction it leaves.
 */
export const WIDEST_LINE_MM = 5;
export const NESTING_TOLERANCE_MM = 0.5;
/**
 * A photo edge for edgePrecision: a cell Sobel magnitude / 4 of at least this many grey levels,
 * which is the height of a sharp step between cells. Lower than pixels.ts's STRONG_EDGE_MIN (24,
 * for the outlines a page must keep) because precision asks only "is there an edge here at all":
 * 16 levels (6 % of the range) is about the faintest boundary one sees in a photo, and far above
 * the noise left in a 4 × 4 cell mean (a sensor noise of 5 levels leaves ~1.5 of Sobel / 4).
 */
export const PHOTO_EDGE_MIN_STEP = 16;

const PRINT_PX_PER_MM = 300 / 25.4;
/** The bits of a work plane cell. */
const SKELETON = 1;
const INK = 2;
/** On the thinning's list of cells to look at again. */
const QUEUED = 4;
/** The thinning has come to this cell's distance (it may be looked at again). */
const REACHED = 8;
/** Chamfer distances count an orthogonal step as 3, a diagonal one as 4 (≈ 3√2). */
const CHAMFER_STEP = 3;
const CHAMFER_DIAGONAL = 4;

/** The page, reduced when large, with one cell of paper around it so neighbours need no bounds checks. */
interface WorkPlane {
  flags: Uint8Array;
  width: number;
  height: number;
  stride: number;
  /** Page pixels per work pixel, each way (1 or 2). */
  factor: number;
  /** Print pixels per work pixel, each way. */
  printScale: number;
  /** Also a bound on the work plane's ink: each ink cell holds at least one ink pixel. */
  pageInkPixels: number;
}

interface Skeleton {
  /** Work plane cells of the skeleton (flags & SKELETON), count of them. */
  pixels: Int32Array;
  count: number;
  /** Chamfer distance (thirds of a work pixel) from each ink cell to the nearest paper. */
  toPaper: Uint16Array;
}

export function measureLines(page: GrayPlane): LineMeasure {
  return linesOf(page, readPage(page));
}

/**
 * Everything the page measures read: the work plane, its white regions and its skeleton, made once
 * (each costs tens of ms on a print-size page).
 */
interface PageParts {
  work: WorkPlane;
  regions: Regions;
  skeleton: Skeleton;
}

function readPage(page: GrayPlane): PageParts {
  const work = workPlaneOf(page);
  return { work, regions: whiteRegions(work), skeleton: skeletonOf(work) };
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

/**
 * Lines on the photo's edges: the share of the page's skeleton pixels with a photo edge (a cell
 * of OUTLINE_CELL page pixels whose Sobel magnitude / 4 is at least PHOTO_EDGE_MIN_STEP) within
 * one cell, so within about 0.5 mm on a print-size page. 1 when the page has no lines.
 */
export function edgePrecision(source: GrayPlane, page: GrayPlane): number {
  return precisionOf(lineEdgeSteps(source, page), PHOTO_EDGE_MIN_STEP);
}

function precisionOf(steps: Uint16Array, minStep: number): number {
  if (!steps.length) return 1;
  let onEdge = 0;
  for (let i = 0; i < steps.length; i++) if (steps[i] >= minStep) onEdge++;
  return onEdge / steps.length;
}

/**
 * The photo's step under the drawing: per skeleton pixel of the page, the largest cell Sobel
 * magnitude / 4 (grey levels) within one cell of it (cells as outlineSurvival makes them). An
 * outline sits on a step of tens of grey levels; a border drawn through texture or blur on a few.
 */
export function lineEdgeSteps(source: GrayPlane, page: GrayPlane): Uint16Array {
  const work = workPlaneOf(page);
  return lineEdgeStepsOf(source, page, { work, regions: EMPTY_REGIONS, skeleton: skeletonOf(work) });
}

function lineEdgeStepsOf(source: GrayPlane, page: GrayPlane, { work, skeleton }: PageParts, chroma?: ChromaPlanes): Uint16Array {
  const { pixels, count } = skeleton;
  // The cells as outlineSurvival makes them: the photo is only ever reduced to them.
  const { cellsWide, cellsHigh } = outlineCells(source, page);
  const nearest = photoStepsNear(source, cellsWide, cellsHigh, chroma);
  const steps = new Uint16Array(count);
  const { stride, factor } = work;
  for (let i = 0; i < count; i++) {
    const p = pixels[i];
    // The page pixel at the middle of the work pixel, and its cell (as outlineSurvival maps them).
    const x = Math.min(page.width - 1, ((p % stride) - 1) * factor + (factor >> 1));
    const y = Math.min(page.height - 1, (((p / stride) | 0) - 1) * factor + (factor >> 1));
    const cellX = Math.min(cellsWide - 1, Math.floor((x * cellsWide) / page.width));
    const cellY = Math.min(cellsHigh - 1, Math.floor((y * cellsHigh) / page.height));
    steps[i] = nearest[cellY * cellsWide + cellX];
  }
  return steps;
}

/**
 * Per cell, the largest photo step (cell Sobel magnitude / 4) within one cell. It depends on the
 * photo and the cells only, and the three levels' drawings are scored on the same cells, so the
 * last photo's answer is kept (a WeakMap: it goes with the photo's grey).
 * With the photo's chroma, a step of Cb or Cr counts as one of grey (a level of each): the region
 * stage draws borders between colours of the same lightness, and those lie on the photo's edges.
 */
function photoStepsNear(source: GrayPlane, cellsWide: number, cellsHigh: number, chroma?: ChromaPlanes): Uint16Array {
  const known = stepsNearByPhoto.get(source);
  if (known && known.cellsWide === cellsWide && known.cellsHigh === cellsHigh) return known.nearest;
  const magnitude = new Uint16Array(cellsWide * cellsHigh);
  const unusedHistogram = new Float64Array(1024);
  for (const plane of chroma ? [source, chroma.cb, chroma.cr] : [source]) {
    // The grey as before (never smaller than the cells); the chroma may be, and is stretched.
    const photo = plane === source ? areaResize(plane, cellsWide, cellsHigh) : resampleTo(plane, cellsWide, cellsHigh);
    const planeMagnitude = plane === source ? magnitude : new Uint16Array(cellsWide * cellsHigh);
    for (let y = 1; y < cellsHigh - 1; y++) cellMagnitudeRow(photo.data, y, cellsWide, planeMagnitude, unusedHistogram);
    if (planeMagnitude !== magnitude) for (let i = 0; i < magnitude.length; i++) if (planeMagnitude[i] > magnitude[i]) magnitude[i] = planeMagnitude[i];
  }
  const nearest = new Uint16Array(cellsWide * cellsHigh);
  for (let y = 1; y < cellsHigh - 1; y++) spreadStepRow(magnitude, nearest, y, cellsWide);
  stepsNearByPhoto.set(source, { cellsWide, cellsHigh, nearest });
  return nearest;
}

const stepsNearByPhoto = new WeakMap<GrayPlane, { cellsWide: number; cellsHigh: number; nearest: Uint16Array }>();

/**
 * How clearly the drawn lines part regions of the photo that look different: per skeleton pixel,
 * the two white regions it parts, and the difference of the photo's mean grey in them over the
 * spread of grey within them, |mean A - mean B| / (sd A + sd B + CONTRAST_FLOOR_GREY). An
 * outline between a cup and a table parts two calm areas of different grey (several); a border
 * drawn through fur, grass or noise parts two patches of the same texture (well under one).
 * Answers the share of the lines (their parting skeleton pixels) whose contrast is at least
 * CLEAR_CONTRAST; 0 when no line parts two regions.
 */
export function clearLineShare(source: GrayPlane, page: GrayPlane): number {
  return clearShareOf(source, page, readPage(page));
}

function clearShareOf(source: GrayPlane, page: GrayPlane, { work, regions, skeleton }: PageParts): number {
  const { stride, width, height, factor } = work;
  const { labels, realCount } = regions;
  // The photo's grey per region: sum, sum of squares, count (labels wrap after 65535: merged then, harmlessly).
  const regionCount = Math.min(realCount, 0xffff) + 1;
  const sum = new Float64Array(regionCount);
  const squares = new Float64Array(regionCount);
  const pixels = new Float64Array(regionCount);
  const sourceXOf = new Int32Array(width + 2);
  for (let x = 1; x <= width; x++) sourceXOf[x] = Math.min(source.width - 1, Math.floor((((x - 1) * factor + (factor >> 1)) * source.width) / page.width));
  for (let y = 1; y <= height; y++) {
    const sourceRow = Math.min(source.height - 1, Math.floor((((y - 1) * factor + (factor >> 1)) * source.height) / page.height)) * source.width;
    for (let x = 1, i = y * stride + 1; x <= width; x++, i++) {
      const label = labels[i];
      if (!label) continue;
      const grey = source.data[sourceRow + sourceXOf[x]];
      sum[label] += grey;
      squares[label] += grey * grey;
      pixels[label]++;
    }
  }
  const mean = new Float64Array(regionCount);
  const spread = new Float64Array(regionCount);
  for (let r = 1; r < regionCount; r++) {
    if (!pixels[r]) continue;
    mean[r] = sum[r] / pixels[r];
    spread[r] = Math.sqrt(Math.max(0, squares[r] / pixels[r] - mean[r] * mean[r]));
  }
  let parting = 0;
  let clear = 0;
  const pair = new Int32Array(2);
  for (let k = 0; k < skeleton.count; k++) {
    const p = skeleton.pixels[k];
    const reach = Math.ceil(skeleton.toPaper[p] / CHAMFER_STEP - 0.5) + BOUNDING_MARGIN_PX;
    if (!twoRegionsAround(labels, p, stride, width, height, reach, pair)) continue;
    parting++;
    const [a, b] = pair;
    if (Math.abs(mean[a] - mean[b]) >= CLEAR_CONTRAST * (spread[a] + spread[b] + CONTRAST_FLOOR_GREY)) clear++;
  }
  return parting ? clear / parting : 0;
}

/** Grey levels added to two regions' spreads: two flat regions a grey level or two apart are not clearly different. */
export const CONTRAST_FLOOR_GREY = 4;
/** A line parts clearly different regions when their means differ by at least this many of their spreads. */
export const CLEAR_CONTRAST = 1;

/**
 * Whether the square around p (half-side `reach`) touches two real regions: its top and bottom rows
 * whole, the rows between at their two ends. The first two found go in `pair`.
 */
function twoRegionsAround(labels: Uint16Array, p: number, stride: number, width: number, height: number, reach: number, pair: Int32Array): boolean {
  const x = p % stride;
  const y = (p / stride) | 0;
  const left = Math.max(1, x - reach);
  const right = Math.min(width, x + reach);
  const top = Math.max(1, y - reach) * stride;
  const bottom = Math.min(height, y + reach) * stride;
  let first = 0;
  for (let row = top; row <= bottom; row += stride) {
    const step = row === top || row === bottom ? 1 : Math.max(1, right - left);
    for (let i = row + left, end = row + right; i <= end; i += step) {
      const label = labels[i];
      if (label === first || label === 0) continue;
      if (first) {
        pair[0] = first;
        pair[1] = label;
        return true;
      }
      first = label;
    }
  }
  return false;
}

/** Row y's cells hand their magnitude to their 3 x 3 neighbourhood, keeping the largest. */
function spreadStepRow(magnitude: Uint16Array, nearest: Uint16Array, y: number, cellsWide: number): void {
  for (let x = 1; x < cellsWide - 1; x++) {
    const i = y * cellsWide + x;
    const m = magnitude[i];
    if (m === 0) continue;
    for (let j = i - cellsWide; j <= i + cellsWide; j += cellsWide) {
      if (nearest[j - 1] < m) nearest[j - 1] = m;
      if (nearest[j] < m) nearest[j] = m;
      if (nearest[j + 1] < m) nearest[j + 1] = m;
    }
  }
}

function printScaleOf(page: GrayPlane): number {
  return PRINT_LONG_EDGE_PX / Math.max(page.width, page.height);
}

function workPlaneOf(page: GrayPlane): WorkPlane {
  const factor = Math.max(page.width, page.height) > WORK_REDUCTION_ABOVE_PX ? 2 : 1;
  const width = Math.ceil(page.width / factor);
  const height = Math.ceil(page.height / factor);
  const stride = width + 2;
  const flags = new Uint8Array(stride * (height + 2));
  const { data } = page;
  const words = new Int32Array(data.buffer, data.byteOffset, (data.byteOffset & 3) === 0 ? data.length >> 2 : 0);
  let pageInkPixels = 0;
  for (let y = 0; y < page.height; y++) {
    pageInkPixels += inkRow(data, words, y * page.width, page.width, flags, (((y / factor) | 0) + 1) * stride + 1, factor);
  }
  return { flags, width, height, stride, factor, printScale: factor * printScaleOf(page), pageInkPixels };
}

/** Every byte's top bit of a 32-bit word (as the signed value bitwise operators and Int32Array give). */
const TOP_BITS = 0x80808080 | 0;

/**
 * Marks the ink of one page row in its work row; returns the row's ink pixels. Paper is skipped
 * four pixels at a time where the bytes are aligned: a word is all paper when every byte's top bit
 * is set (>= 128).
 */
function inkRow(data: Uint8Array, words: Int32Array, start: number, length: number, flags: Uint8Array, out: number, factor: number): number {
  const shift = factor === 2 ? 1 : 0;
  let ink = 0;
  let x = 0;
  if (words.length) {
    for (; x < length && ((start + x) & 3) !== 0; x++) {
      if (data[start + x] <= INK_MAX_LEVEL) {
        flags[out + (x >> shift)] = INK | SKELETON;
        ink++;
      }
    }
    for (; x + 4 <= length; x += 4) {
      if ((words[(start + x) >> 2] & TOP_BITS) === TOP_BITS) continue;
      for (let i = x; i < x + 4; i++) {
        if (data[start + i] <= INK_MAX_LEVEL) {
          flags[out + (i >> shift)] = INK | SKELETON;
          ink++;
        }
      }
    }
  }
  for (; x < length; x++) {
    if (data[start + x] <= INK_MAX_LEVEL) {
      flags[out + (x >> shift)] = INK | SKELETON;
      ink++;
    }
  }
  return ink;
}

/** The 8 neighbours in ring order: N, NE, E, SE, S, SW, W, NW (bit k of a neighbour code). */
function neighbourOffsets(stride: number): Int32Array {
  return Int32Array.of(-stride, -stride + 1, 1, stride + 1, stride, stride - 1, -1, -stride - 1);
}

/** Which of p's 8 neighbours are skeleton, one bit each in ring order (see neighbourOffsets). */
function neighbourCode(flags: Uint8Array, p: number, stride: number): number {
  const up = p - stride;
  const down = p + stride;
  return (
    (flags[up] & SKELETON) |
    ((flags[up + 1] & SKELETON) << 1) |
    ((flags[p + 1] & SKELETON) << 2) |
    ((flags[down + 1] & SKELETON) << 3) |
    ((flags[down] & SKELETON) << 4) |
    ((flags[down - 1] & SKELETON) << 5) |
    ((flags[p - 1] & SKELETON) << 6) |
    ((flags[up - 1] & SKELETON) << 7)
  );
}

const NEIGHBOUR_COUNT = new Uint8Array(256);
/** Whether thinning may remove a cell with this neighbour code (see skeletonOf). */
const DELETABLE = new Uint8Array(256);
for (let code = 0; code < 256; code++) {
  const absent = (k: number) => ((code >> (k & 7)) & 1) ^ 1;
  let connectivity = 0;
  for (let k = 0; k < 8; k += 2) connectivity += absent(k) - absent(k) * absent(k + 1) * absent(k + 2);
  for (let k = 0; k < 8; k++) NEIGHBOUR_COUNT[code] += (code >> k) & 1;
  DELETABLE[code] = connectivity === 1 && NEIGHBOUR_COUNT[code] >= 2 ? 1 : 0;
}

/**
 * The skeleton: the ink thinned to one pixel, then spurs shorter than the line is wide pruned
 * (thinning's answer to a corner or a square line end, not strokes). Its pixels are listed in
 * raster order, so the loops over them read the planes nearly in order.
 *
 * Thinning peels the ink by distance to paper (after Pudney 1998), nearest first, and removes a
 * cell when it is simple (its 8-connected neighbours form one piece and it touches the paper:
 * Yokoi's connectivity number is 1, so neither a line nor a hole is cut) and not a line end.
 * Removing one cell at a time against the current state keeps every line and every region;
 * peeling by distance keeps the skeleton in the middle of the line. Within a distance the cells
 * are peeled side by side (N, S, E, W, only those bare on that side when the side begins, until
 * nothing changes): taken in plain order, a ridge two cells wide would be eaten from its tip, each
 * pair being simple in turn, and a stroke would vanish. After the first round only the cells next
 * to a removal are looked at again, shallower ones included.
 */
function skeletonOf(work: WorkPlane): Skeleton {
  const { flags, stride, width, height } = work;
  const toPaper = chamferDistance(work, false);
  const flagWords = new Int32Array(flags.buffer, flags.byteOffset, flags.length >> 2);
  const ink = new Int32Array(Math.min(work.pageInkPixels, width * height));
  const atDistance = new Int32Array(FAR + 2);
  let inkCount = 0;
  for (let y = 1; y <= height; y++) inkCount = inkCellsOfRow(flags, flagWords, toPaper, y * stride + 1, width, ink, inkCount, atDistance);
  const order = byDistance(ink, inkCount, toPaper, atDistance);
  const changed = new Int32Array(inkCount);
  const changedNext = new Int32Array(inkCount);
  // atDistance[d] is now where distance d's cells end in order.
  for (let distance = 1, start = atDistance[0]; start < inkCount; start = atDistance[distance++]) {
    if (atDistance[distance] > start) thinLevel(flags, stride, order, start, atDistance[distance], changed, changedNext);
  }
  // What is left of the ink, in the ink's raster order.
  let count = 0;
  for (let i = 0; i < inkCount; i++) if (flags[ink[i]] & SKELETON) ink[count++] = ink[i];
  const pixels = ink;
  pruneSpurs(flags, stride, pixels, count, toPaper, Math.round((WIDEST_LINE_MM * PRINT_PX_PER_MM) / work.printScale));
  let kept = 0;
  for (let i = 0; i < count; i++) if (flags[pixels[i]] & SKELETON) pixels[kept++] = pixels[i];
  return { pixels, count: kept, toPaper };
}

/**
 * Appends row's ink cells to `cells`, skipping paper four cells at a time where aligned, and
 * counts them by distance to paper in atDistance[distance + 1].
 */
function inkCellsOfRow(flags: Uint8Array, flagWords: Int32Array, toPaper: Uint16Array, start: number, length: number, cells: Int32Array, count: number, atDistance: Int32Array): number {
  for (let p = start, end = start + length; p < end; p++) {
    if ((p & 3) === 0 && p + 4 <= end && (flagWords[p >> 2] & INK_IN_EVERY_BYTE) === 0) {
      p += 3;
      continue;
    }
    if (!(flags[p] & INK)) continue;
    cells[count++] = p;
    atDistance[toPaper[p] + 1]++;
  }
  return count;
}

/** The cells sorted by their distance to paper (a counting sort: raster order within a distance). */
function byDistance(cells: Int32Array, count: number, toPaper: Uint16Array, atDistance: Int32Array): Int32Array {
  for (let d = 1; d < atDistance.length; d++) atDistance[d] += atDistance[d - 1];
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[atDistance[toPaper[cells[i]]]++] = cells[i];
  return order;
}

/**
 * Peels the cells order[start, end) (all at one distance, in raster order), side by side,
 * then again the cells next to a removal, until nothing changes. `changed` and `changedNext`:
 * room for those (the ink's size).
 *
 * A side takes the cells bare on that side when it begins. Visiting them so that each cell's
 * neighbour on that side comes after it (bottom-up for N, top-down for S, and so on) makes "bare
 * now" the same as "bare when the side began", with no pass to mark them first.
 */
function thinLevel(flags: Uint8Array, stride: number, order: Int32Array, start: number, end: number, changed: Int32Array, changedNext: Int32Array): void {
  const around = neighbourOffsets(stride);
  for (let i = start; i < end; i++) flags[order[i]] |= REACHED;
  let cells = order;
  let from = start;
  let to = end;
  let spare = changed;
  for (;;) {
    // N (bottom-up), S (top-down), E (left to right), W (right to left).
    let changedCount = peelSide(flags, stride, around, cells, to - 1, from - 1, -1, -stride, spare, 0);
    changedCount = peelSide(flags, stride, around, cells, from, to, 1, stride, spare, changedCount);
    changedCount = peelSide(flags, stride, around, cells, from, to, 1, 1, spare, changedCount);
    changedCount = peelSide(flags, stride, around, cells, to - 1, from - 1, -1, -1, spare, changedCount);
    // Cells queued and then removed themselves need no second look.
    let kept = 0;
    for (let i = 0; i < changedCount; i++) {
      const q = spare[i];
      flags[q] &= ~QUEUED;
      if (flags[q] & SKELETON) spare[kept++] = q;
    }
    if (!kept) return;
    changedCount = kept;
    spare.subarray(0, changedCount).sort();
    const done = cells === order ? changedNext : cells;
    cells = spare;
    from = 0;
    to = changedCount;
    spare = done;
  }
}

/**
 * One side of a peel: visits cells[first], cells[first + direction], ... up to (not including)
 * `stop`, removing those bare at offset `bare` that may go; appends the neighbours to look at
 * again to `changed` (returns its new count).
 */
function peelSide(flags: Uint8Array, stride: number, around: Int32Array, cells: Int32Array, first: number, stop: number, direction: number, bare: number, changed: Int32Array, changedCount: number): number {
  for (let n = first; n !== stop; n += direction) {
    const p = cells[n];
    if (!(flags[p] & SKELETON) || flags[p + bare] & SKELETON || !DELETABLE[neighbourCode(flags, p, stride)]) continue;
    flags[p] &= ~SKELETON;
    for (let k = 0; k < 8; k++) {
      const q = p + around[k];
      if ((flags[q] & (SKELETON | QUEUED | REACHED)) !== (SKELETON | REACHED)) continue;
      flags[q] |= QUEUED;
      changed[changedCount++] = q;
    }
  }
  return changedCount;
}

/**
 * From each end, follows the line to the first junction (3 or more neighbours); a path no longer
 * than the line is wide there (2 × its distance to paper) is removed. A stroke that meets no
 * junction within maxLength is a stroke, and so is one whose far end is another end.
 */
function pruneSpurs(flags: Uint8Array, stride: number, skeleton: Int32Array, count: number, toPaper: Uint16Array, maxLength: number): void {
  const around = neighbourOffsets(stride);
  const path = new Int32Array(maxLength + 1);
  for (let i = 0; i < count; i++) {
    const end = skeleton[i];
    if (!(flags[end] & SKELETON) || NEIGHBOUR_COUNT[neighbourCode(flags, end, stride)] !== 1) continue;
    let length = 0;
    let current = end;
    // The two pixels before current: on a thin line the only path pixels it can touch.
    let previous = -1;
    let beforePrevious = -1;
    while (length < maxLength) {
      path[length++] = current;
      let next = -1;
      for (let k = 0; k < 8 && next < 0; k++) {
        const q = current + around[k];
        if (flags[q] & SKELETON && q !== previous && q !== beforePrevious) next = q;
      }
      if (next < 0) break;
      const neighbours = NEIGHBOUR_COUNT[neighbourCode(flags, next, stride)];
      if (neighbours >= 3) {
        if (length * CHAMFER_STEP <= 2 * toPaper[next]) for (let j = 0; j < length; j++) flags[path[j]] &= ~SKELETON;
        break;
      }
      if (neighbours === 1) break;
      beforePrevious = previous;
      previous = current;
      current = next;
    }
  }
}

/**
 * Chamfer distance (thirds of a work pixel) from every cell to the nearest ink cell (toInk) or,
 * for ink cells, to the nearest paper (the page's edge counts as paper, and the border cells of
 * the plane are it: 0 when measuring to paper, far when measuring to ink).
 */
function chamferDistance(work: WorkPlane, toInk: boolean): Uint16Array {
  const { flags, stride, width, height } = work;
  const distance = new Uint16Array(flags.length);
  // Measuring to paper, paper cells stay 0 and are skipped four at a time (most of a page is paper).
  const flagWords = new Int32Array(flags.buffer, flags.byteOffset, toInk ? 0 : flags.length >> 2);
  if (toInk) distance.fill(FAR);
  for (let y = 1; y <= height; y++) chamferForwardRow(flags, flagWords, distance, y * stride + 1, width, stride, toInk);
  for (let y = height; y >= 1; y--) chamferBackwardRow(flagWords, distance, y * stride + 1, width, stride);
  return distance;
}

const FAR = 0xffff;

function chamferForwardRow(flags: Uint8Array, flagWords: Int32Array, d: Uint16Array, start: number, length: number, stride: number, toInk: boolean): void {
  const skipPaper = flagWords.length > 0;
  for (let p = start, end = start + length; p < end; p++) {
    if (skipPaper && (p & 3) === 0 && p + 4 <= end && (flagWords[p >> 2] & INK_IN_EVERY_BYTE) === 0) {
      p += 3;
      continue;
    }
    if (((flags[p] & INK) !== 0) === toInk) {
      if (toInk) d[p] = 0;
      continue;
    }
    const up = p - stride;
    let m = FAR;
    if (d[p - 1] + CHAMFER_STEP < m) m = d[p - 1] + CHAMFER_STEP;
    if (d[up] + CHAMFER_STEP < m) m = d[up] + CHAMFER_STEP;
    if (d[up - 1] + CHAMFER_DIAGONAL < m) m = d[up - 1] + CHAMFER_DIAGONAL;
    if (d[up + 1] + CHAMFER_DIAGONAL < m) m = d[up + 1] + CHAMFER_DIAGONAL;
    d[p] = m;
  }
}

function chamferBackwardRow(flagWords: Int32Array, d: Uint16Array, start: number, length: number, stride: number): void {
  const skipPaper = flagWords.length > 0;
  for (let p = start + length - 1; p >= start; p--) {
    if (skipPaper && (p & 3) === 3 && p - 3 >= start && (flagWords[p >> 2] & INK_IN_EVERY_BYTE) === 0) {
      p -= 3;
      continue;
    }
    if (d[p] === 0) continue;
    const down = p + stride;
    let m = d[p];
    if (d[p + 1] + CHAMFER_STEP < m) m = d[p + 1] + CHAMFER_STEP;
    if (d[down] + CHAMFER_STEP < m) m = d[down] + CHAMFER_STEP;
    if (d[down - 1] + CHAMFER_DIAGONAL < m) m = d[down - 1] + CHAMFER_DIAGONAL;
    if (d[down + 1] + CHAMFER_DIAGONAL < m) m = d[down + 1] + CHAMFER_DIAGONAL;
    d[p] = m;
  }
}

/**
 * The skeleton's length from p to its E, S, SE and SW neighbours (each link counted once, from its
 * upper or left end). A diagonal link is left out where an orthogonal pair already joins the two
 * pixels (a stair step is two steps of 1, not also a √2).
 */
function forwardLength(flags: Uint8Array, p: number, stride: number): number {
  const east = flags[p + 1] & SKELETON;
  const south = flags[p + stride] & SKELETON;
  let length = east + south;
  if (flags[p + stride + 1] & SKELETON && !east && !south) length += Math.SQRT2;
  if (flags[p + stride - 1] & SKELETON && !(flags[p - 1] & SKELETON) && !south) length += Math.SQRT2;
  return length;
}

interface Regions {
  /**
   * The real region (at least 1 mm² at print size) of each work cell, 0 on ink, on smaller
   * regions and on the border cells. Labels wrap after 65535: two regions whose labels agree then
   * would have to be 65535 regions apart and meet at one line (a page holds at most ~78 000).
   */
  labels: Uint16Array;
  /** Regions of each size: real ones, and the work pixels in those of colourable size... */
  realCount: number;
  colourableArea: number;
  /** ...of them, those in regions under FIDDLY_BELOW_MM2 (a crayon's work, not a child's)... */
  fiddlyArea: number;
  /** ...and the work pixels in regions over COLOURABLE_MAX_PAGE_SHARE of the page (background). */
  backgroundArea: number;
}

/** For the measures that read no regions. */
const EMPTY_REGIONS: Regions = { labels: new Uint16Array(0), realCount: 0, colourableArea: 0, fiddlyArea: 0, backgroundArea: 0 };

/** 4-connected paper components of the work plane, by union-find over runs of paper. */
function whiteRegions(work: WorkPlane): Regions {
  const { flags, stride, width, height, printScale } = work;
  const flagWords = new Int32Array(flags.buffer, flags.byteOffset, flags.length >> 2);
  let capacity = 4096;
  let runStart = new Int32Array(capacity);
  let runEnd = new Int32Array(capacity);
  let parent = new Int32Array(capacity);
  let runCount = 0;
  let previousFirst = 0;
  for (let y = 1; y <= height; y++) {
    const row = y * stride;
    const first = runCount;
    for (let x = 1; x <= width; ) {
      while (x <= width && flags[row + x] & INK) x++;
      if (x > width) break;
      const start = x;
      x = paperRunEnd(flags, flagWords, row, x, width);
      if (runCount === capacity) {
        capacity *= 2;
        runStart = grown(runStart, capacity);
        runEnd = grown(runEnd, capacity);
        parent = grown(parent, capacity);
      }
      runStart[runCount] = row + start;
      runEnd[runCount] = row + x;
      parent[runCount] = runCount;
      runCount++;
    }
    // Join each run with the previous row's runs it overlaps (sharing a column: 4-connected).
    for (let a = previousFirst, b = first; a < first && b < runCount; ) {
      const aStart = runStart[a] + stride;
      const aEnd = runEnd[a] + stride;
      if (aStart < runEnd[b] && runStart[b] < aEnd) union(parent, a, b);
      if (aEnd < runEnd[b]) a++;
      else b++;
    }
    previousFirst = first;
  }
  // Areas gather on the roots; then each real region gets a label, the others none.
  const area = new Float64Array(runCount);
  for (let r = 0; r < runCount; r++) area[find(parent, r)] += runEnd[r] - runStart[r];
  const minArea = SPECK_PRINT_PIXELS / (printScale * printScale);
  const colourableMin = (COLOURABLE_MIN_MM2 * PRINT_PX_PER_MM * PRINT_PX_PER_MM) / (printScale * printScale);
  const colourableMax = COLOURABLE_MAX_PAGE_SHARE * width * height;
  const labelOfRoot = new Uint16Array(runCount);
  const fiddlyBelow = (FIDDLY_BELOW_MM2 * PRINT_PX_PER_MM * PRINT_PX_PER_MM) / (printScale * printScale);
  let realCount = 0;
  let colourableArea = 0;
  let fiddlyArea = 0;
  let backgroundArea = 0;
  for (let r = 0; r < runCount; r++) {
    if (parent[r] !== r || area[r] < minArea) continue;
    labelOfRoot[r] = (realCount++ % 0xffff) + 1;
    if (area[r] > colourableMax) backgroundArea += area[r];
    else if (area[r] >= colourableMin) {
      colourableArea += area[r];
      if (area[r] < fiddlyBelow) fiddlyArea += area[r];
    }
  }
  const labels = new Uint16Array(flags.length);
  for (let r = 0; r < runCount; r++) {
    const label = labelOfRoot[parent[r]];
    if (label) labels.fill(label, runStart[r], runEnd[r]);
  }
  return { labels, realCount, colourableArea, fiddlyArea, backgroundArea };
}

/** Where the paper run from x ends (the first ink or the row's end); four cells at a time where aligned. */
function paperRunEnd(flags: Uint8Array, flagWords: Int32Array, row: number, x: number, width: number): number {
  for (;;) {
    if (((row + x) & 3) === 0 && x + 3 <= width && (flagWords[(row + x) >> 2] & INK_IN_EVERY_BYTE) === 0) {
      x += 4;
      continue;
    }
    if (x > width || flags[row + x] & INK) return x;
    x++;
  }
}

const INK_IN_EVERY_BYTE = INK * 0x01010101;

function grown(array: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(capacity);
  larger.set(array);
  return larger;
}

function find(parent: Int32Array, r: number): number {
  while (parent[r] !== r) {
    parent[r] = parent[parent[r]];
    r = parent[r];
  }
  return r;
}

function union(parent: Int32Array, a: number, b: number): void {
  const rootA = find(parent, a);
  const rootB = find(parent, b);
  if (rootA < rootB) parent[rootB] = rootA;
  else if (rootB < rootA) parent[rootA] = rootB;
}

/**
 * Whether the edge of the square of half-side `reach` around p (cut to the plane) crosses two
 * different real regions: the line there parts them. A stroke with the same region all round (a
 * lone stroke, a spur, a line inside a region) does not; tiny gaps in junctions are not real
 * regions and do not count. Only the square's edge is read (a third of the cells for a line
 * 1 mm wide): it lies just past the line on every side, and a real region beside the line (1 mm²
 * or more) reaches it unless it is a sliver that ends right there.
 */
function touchesTwoRegions(labels: Uint16Array, p: number, stride: number, width: number, height: number, reach: number): boolean {
  return twoRegionsAround(labels, p, stride, width, height, reach, unusedPair);
}

const unusedPair = new Int32Array(2);

/**
 * The work pixels within JUNCTION_ZONE_WIDTHS line widths of a junction (a skeleton pixel with
 * three or more skeleton neighbours): where lines meet, the ink is the lines' union, and the runs
 * through it are long in every direction however thin each line is (a T of two 0.5 mm lines read
 * 1.5-2 mm there). The line's own width is read along it, away from them.
 */
function junctionZones({ flags, stride }: WorkPlane, { pixels, count, toPaper }: Skeleton): Uint8Array {
  const zone = new Uint8Array(flags.length);
  const rows = flags.length / stride;
  for (let i = 0; i < count; i++) {
    const p = pixels[i];
    if (NEIGHBOUR_COUNT[neighbourCode(flags, p, stride)] < 3) continue;
    const reach = Math.ceil(JUNCTION_ZONE_WIDTHS * 2 * (toPaper[p] / CHAMFER_STEP)) + 1;
    const x = p % stride;
    const y = (p / stride) | 0;
    for (let yy = Math.max(0, y - reach); yy <= Math.min(rows - 1, y + reach); yy++) {
      zone.fill(1, yy * stride + Math.max(0, x - reach), yy * stride + Math.min(stride, x + reach + 1));
    }
  }
  return zone;
}

/** How far from a junction (in widths of the line there) its ink is not read as the line's width. */
const JUNCTION_ZONE_WIDTHS = 1;

/**
 * The LINE_WIDTH_PERCENTILE of the width across the line at each skeleton pixel, on the page
 * itself: the horizontal and vertical ink runs h and v through it give the width across a line at
 * any angle, w = h·v / √(h² + v²) (a run that reaches WIDTH_RUN_MAX_MM runs along the line: the
 * other run is the width). This is twice the distance from the line's middle to the paper, without
 * the half-pixel a one-pixel skeleton is off the middle of a line of even width.
 */
function lineWidthMm(page: GrayPlane, work: WorkPlane, skeleton: Skeleton): number {
  const { pixels, count } = skeleton;
  if (!count) return 0;
  const pagePrintScale = printScaleOf(page);
  const maxRun = Math.max(1, Math.round((WIDEST_LINE_MM * PRINT_PX_PER_MM) / pagePrintScale));
  const binsPerPixel = 4;
  const histogram = new Uint32Array((2 * maxRun + 1) * binsPerPixel + 2);
  const { stride, factor } = work;
  const { data, width, height } = page;
  const nearJunction = junctionZones(work, skeleton);
  // A percentile needs a sample, not every pixel: at most WIDTH_SAMPLES, spread along the skeleton.
  const every = Math.max(1, Math.floor(count / WIDTH_SAMPLES));
  let sampled = 0;
  for (let i = 0; i < count; i += every) {
    const p = pixels[i];
    if (nearJunction[p]) continue;
    sampled++;
    const blockX = ((p % stride) - 1) * factor;
    const blockY = (((p / stride) | 0) - 1) * factor;
    const ink = firstInkInBlock(data, width, height, blockX, blockY, factor);
    const across = crossingWidth(data, width, height, ink % width, (ink / width) | 0, maxRun);
    histogram[Math.round(across * binsPerPixel)]++;
  }
  if (!sampled) return 0;
  const wanted = LINE_WIDTH_PERCENTILE * sampled;
  let bin = 0;
  for (let seen = histogram[0]; seen < wanted; ) seen += histogram[++bin];
  return ((bin / binsPerPixel) * pagePrintScale) / PRINT_PX_PER_MM;
}

/** Skeleton pixels whose width is measured, at most (every n-th, evenly along the raster order). */
const WIDTH_SAMPLES = 8192;

/** A work pixel is ink when one of its page pixels is: the first of them. */
function firstInkInBlock(data: Uint8Array, width: number, height: number, x: number, y: number, factor: number): number {
  for (let dy = 0; dy < factor && y + dy < height; dy++) {
    for (let dx = 0; dx < factor && x + dx < width; dx++) if (data[(y + dy) * width + x + dx] <= INK_MAX_LEVEL) return (y + dy) * width + x + dx;
  }
  return y * width + x;
}

/**
 * The width across the line at (x, y) from its horizontal and vertical ink runs (each way from
 * the pixel, at most maxRun). A run ALONG_RATIO times the other one, each way, runs along the
 * line and the other run is the width (within 1.5 %): so a run is followed only as far as that,
 * and a line costs a few times its width, not maxRun.
 */
function crossingWidth(data: Uint8Array, width: number, height: number, x: number, y: number, maxRun: number): number {
  const i = y * width + x;
  let up = inkArm(data, i, -width, y, 0, SHORT_ARM);
  let down = inkArm(data, i, width, height - 1 - y, 0, SHORT_ARM);
  const verticalShort = up < SHORT_ARM && down < SHORT_ARM;
  const horizontalLimit = verticalShort ? Math.min(maxRun, ALONG_RATIO * (up + down + 1)) : maxRun;
  const left = inkArm(data, i, -1, x, 0, horizontalLimit);
  const right = inkArm(data, i, 1, width - 1 - x, 0, horizontalLimit);
  const horizontal = left + right + 1;
  const horizontalEndless = left === horizontalLimit || right === horizontalLimit;
  let verticalEndless = false;
  if (!verticalShort) {
    const verticalLimit = horizontalEndless ? maxRun : Math.min(maxRun, ALONG_RATIO * horizontal);
    up = inkArm(data, i, -width, y, up, verticalLimit);
    down = inkArm(data, i, width, height - 1 - y, down, verticalLimit);
    verticalEndless = up === verticalLimit || down === verticalLimit;
  }
  const vertical = up + down + 1;
  let across: number;
  if (verticalEndless && !horizontalEndless) across = horizontal;
  else if (horizontalEndless && !verticalEndless) across = vertical;
  else across = (horizontal * vertical) / Math.sqrt(horizontal * horizontal + vertical * vertical);
  // On a bend the two runs are not across one straight line and the formula reads the bend's
  // width; the diagonal chords through the pixel bound it (a chord is never shorter than the
  // line is wide, and the one nearest across a line at any angle is within 8 % of its width).
  const diagonalLimit = Math.ceil(across);
  const room = (dx: number, dy: number) => Math.min(dx < 0 ? x : width - 1 - x, dy < 0 ? y : height - 1 - y);
  const falling = inkArm(data, i, -width - 1, room(-1, -1), 0, diagonalLimit) + inkArm(data, i, width + 1, room(1, 1), 0, diagonalLimit) + 1;
  const rising = inkArm(data, i, -width + 1, room(1, -1), 0, diagonalLimit) + inkArm(data, i, width - 1, room(-1, 1), 0, diagonalLimit) + 1;
  return Math.min(across, Math.SQRT2 * Math.min(falling, rising));
}

/** A run this many times the other one (each way) runs along the line (see crossingWidth). */
const ALONG_RATIO = 3;
/** The vertical run is first followed this far (page pixels each way): most lines are narrower. */
const SHORT_ARM = 8;

/** How far the ink goes from index i in steps of `step`, continuing from `from`, at most `limit` (and `room`, the page's edge). */
function inkArm(data: Uint8Array, i: number, step: number, room: number, from: number, limit: number): number {
  const last = Math.min(limit, room);
  let n = from;
  while (n < last && data[i + (n + 1) * step] <= INK_MAX_LEVEL) n++;
  return n;
}
