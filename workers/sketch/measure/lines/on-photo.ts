/**
 * How the drawn lines sit on the photo: whether they lie on its edges (edge precision), and
 * whether they part regions of it that look different (clear share). The score's "on edges" and
 * "clarity" factors (../quality.ts).
 */
import { areaResize, type ChromaPlanes, type GrayPlane } from "../../kernel";
import { resampleTo } from "../../kernel/resize";
import { cellMagnitudeRow, OUTLINE_CELL, outlineCells } from "../pixels";
import { CHAMFER_STEP } from "./distance";
import { readPage, type PageParts } from "./page-parts";
import { BOUNDING_MARGIN_PX, EMPTY_REGIONS, twoRegionsAround } from "./regions";
import { skeletonOf } from "./skeleton";
import { workPlaneOf } from "./work-plane";

/**
 * A photo edge for edgePrecision: a cell Sobel magnitude / 4 of at least this many grey levels,
 * which is the height of a sharp step between cells. Lower than ../pixels.ts's STRONG_EDGE_MIN (24,
 * for the outlines a page must keep) because precision asks only "is there an edge here at all":
 * 16 levels (6 % of the range) is about the faintest boundary one sees in a photo, and far above
 * the noise left in a 4 × 4 cell mean (a sensor noise of 5 levels leaves ~1.5 of Sobel / 4).
 */
export const PHOTO_EDGE_MIN_STEP = 16;

/**
 * Lines on the photo's edges: the share of the page's skeleton pixels with a photo edge (a cell
 * of OUTLINE_CELL page pixels whose Sobel magnitude / 4 is at least PHOTO_EDGE_MIN_STEP) within
 * one cell, so within about 0.5 mm on a print-size page. 1 when the page has no lines.
 */
export function edgePrecision(source: GrayPlane, page: GrayPlane): number {
  return precisionOf(lineEdgeSteps(source, page), PHOTO_EDGE_MIN_STEP);
}

export function precisionOf(steps: Uint16Array, minStep: number): number {
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

export function lineEdgeStepsOf(source: GrayPlane, page: GrayPlane, { work, skeleton }: PageParts, chroma?: ChromaPlanes): Uint16Array {
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

export function clearShareOf(source: GrayPlane, page: GrayPlane, { work, regions, skeleton }: PageParts): number {
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
