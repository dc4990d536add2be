/**
 * The white regions the lines close: 4-connected paper components of the work plane, sorted by
 * size into colourable, fiddly and background, and whether a line parts two of them.
 */
import { SPECK_PRINT_PIXELS } from "../pixels";
import { INK, INK_IN_EVERY_BYTE, PRINT_PX_PER_MM, type WorkPlane } from "./work-plane";

/** 0.25 cm²: the smallest region worth a crayon. */
export const COLOURABLE_MIN_MM2 = 25;
/** A region over this share of the page is background (sky, wall), not a shape to colour. */
export const COLOURABLE_MAX_PAGE_SHARE = 0.15;
/** Colourable regions under 1 cm² are fiddly: a page mostly of them is a puzzle, not a picture. */
export const FIDDLY_BELOW_MM2 = 100;
/** Work pixels looked at beyond the line's edge on each side when asking which regions it parts. */
export const BOUNDING_MARGIN_PX = 2;

export interface Regions {
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
export const EMPTY_REGIONS: Regions = { labels: new Uint16Array(0), realCount: 0, colourableArea: 0, fiddlyArea: 0, backgroundArea: 0 };

/** 4-connected paper components of the work plane, by union-find over runs of paper. */
export function whiteRegions(work: WorkPlane): Regions {
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
export function touchesTwoRegions(labels: Uint16Array, p: number, stride: number, width: number, height: number, reach: number): boolean {
  return twoRegionsAround(labels, p, stride, width, height, reach, unusedPair);
}

const unusedPair = new Int32Array(2);

/**
 * Whether the square around p (half-side `reach`) touches two real regions: its top and bottom rows
 * whole, the rows between at their two ends. The first two found go in `pair`.
 */
export function twoRegionsAround(labels: Uint16Array, p: number, stride: number, width: number, height: number, reach: number, pair: Int32Array): boolean {
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
