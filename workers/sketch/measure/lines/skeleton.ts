/**
 * The page's lines traced: the ink thinned to a one-pixel skeleton (spurs pruned), its pixels'
 * neighbours, and its length. What the line measures walk along: free ends, closure, width,
 * and where the lines lie on the photo.
 */
import { CHAMFER_STEP, chamferDistance, FAR_DISTANCE } from "./distance";
import { INK, INK_IN_EVERY_BYTE, PRINT_PX_PER_MM, QUEUED, REACHED, SKELETON, WIDEST_LINE_MM, type WorkPlane } from "./work-plane";

export interface Skeleton {
  /** Work plane cells of the skeleton (flags & SKELETON), count of them. */
  pixels: Int32Array;
  count: number;
  /** Chamfer distance (thirds of a work pixel) from each ink cell to the nearest paper. */
  toPaper: Uint16Array;
}

/** The 8 neighbours in ring order: N, NE, E, SE, S, SW, W, NW (bit k of a neighbour code). */
function neighbourOffsets(stride: number): Int32Array {
  return Int32Array.of(-stride, -stride + 1, 1, stride + 1, stride, stride - 1, -1, -stride - 1);
}

/** Which of p's 8 neighbours are skeleton, one bit each in ring order (see neighbourOffsets). */
export function neighbourCode(flags: Uint8Array, p: number, stride: number): number {
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

export const NEIGHBOUR_COUNT = new Uint8Array(256);
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
export function skeletonOf(work: WorkPlane): Skeleton {
  const { flags, stride, width, height } = work;
  const toPaper = chamferDistance(work, false);
  const flagWords = new Int32Array(flags.buffer, flags.byteOffset, flags.length >> 2);
  const ink = new Int32Array(Math.min(work.pageInkPixels, width * height));
  const atDistance = new Int32Array(FAR_DISTANCE + 2);
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
 * The skeleton's length from p to its E, S, SE and SW neighbours (each link counted once, from its
 * upper or left end). A diagonal link is left out where an orthogonal pair already joins the two
 * pixels (a stair step is two steps of 1, not also a √2).
 */
export function forwardLength(flags: Uint8Array, p: number, stride: number): number {
  const east = flags[p + 1] & SKELETON;
  const south = flags[p + stride] & SKELETON;
  let length = east + south;
  if (flags[p + stride + 1] & SKELETON && !east && !south) length += Math.SQRT2;
  if (flags[p + stride - 1] & SKELETON && !(flags[p - 1] & SKELETON) && !south) length += Math.SQRT2;
  return length;
}
