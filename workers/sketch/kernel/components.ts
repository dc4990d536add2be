/**
 * Connected marks of a page: an 8-connected set of pixels darker than a level. Found by
 * union-find over runs (one run = a horizontal stretch of mark pixels), so memory grows with the
 * number of runs, not with the image, and white paper is skipped four pixels at a time.
 *
 * Used by the colourability measure (specks and lines of the finished page, measure/pixels.ts).
 */
import type { GrayPlane } from "./plane";

/** The marks of a page; per-mark figures are valid at the root run of each mark. */
export interface Marks {
  runCount: number;
  /** Coordinates fit 16 bits (a page is at most 3300 px a side): 23 bytes per run in all. */
  runRow: Uint16Array;
  runStart: Uint16Array;
  /** Exclusive. */
  runEnd: Uint16Array;
  /** The root run of each run's mark (a run is a root when parent[r] === r). */
  parent: Int32Array;
  /** Pixels of the mark. */
  size: Int32Array;
  /** Its darkest pixel. */
  darkest: Uint8Array;
  /** Its bounding box. */
  minX: Uint16Array;
  maxX: Uint16Array;
  minY: Uint16Array;
  maxY: Uint16Array;
  /** Pixels of all marks together, and how many of them are at or below `inkLevel`. */
  markedPixels: number;
  inkPixels: number;
}

export function rootOf(parent: Int32Array, run: number): number {
  let root = run;
  while (parent[root] !== root) root = parent[root] = parent[parent[root]];
  return root;
}

/**
 * The runs found so far, while findMarks works: the arrays grow as needed. One instance for the
 * isolate's life, started afresh per call (its arrays go to the caller in the Marks).
 */
class RunTable {
  count = 0;
  capacity = 0;
  markedPixels = 0;
  inkPixels = 0;
  runRow = new Uint16Array(0);
  runStart = new Uint16Array(0);
  runEnd = new Uint16Array(0);
  parent = new Int32Array(0);
  size = new Int32Array(0);
  darkest = new Uint8Array(0);
  minX = new Uint16Array(0);
  maxX = new Uint16Array(0);
  minY = new Uint16Array(0);
  maxY = new Uint16Array(0);

  start(capacity: number): void {
    this.count = this.markedPixels = this.inkPixels = 0;
    this.capacity = capacity;
    this.runRow = new Uint16Array(capacity);
    this.runStart = new Uint16Array(capacity);
    this.runEnd = new Uint16Array(capacity);
    this.parent = new Int32Array(capacity);
    this.size = new Int32Array(capacity);
    this.darkest = new Uint8Array(capacity);
    this.minX = new Uint16Array(capacity);
    this.maxX = new Uint16Array(capacity);
    this.minY = new Uint16Array(capacity);
    this.maxY = new Uint16Array(capacity);
  }

  /** Adds the run [start, end) of row y, its darkest pixel `darkest`, as a mark of its own. */
  add(y: number, start: number, end: number, darkest: number): void {
    if (this.count === this.capacity) this.grow();
    const r = this.count++;
    this.runRow[r] = y;
    this.runStart[r] = start;
    this.runEnd[r] = end;
    this.parent[r] = r;
    this.size[r] = end - start;
    this.darkest[r] = darkest;
    this.minX[r] = start;
    this.maxX[r] = end - 1;
    this.minY[r] = y;
    this.maxY[r] = y;
  }

  private grow(): void {
    const capacity = (this.capacity *= 2);
    this.runRow = grow(this.runRow, capacity);
    this.runStart = grow(this.runStart, capacity);
    this.runEnd = grow(this.runEnd, capacity);
    this.parent = grow(this.parent, capacity);
    this.size = grow(this.size, capacity);
    this.darkest = grow(this.darkest, capacity);
    this.minX = grow(this.minX, capacity);
    this.maxX = grow(this.maxX, capacity);
    this.minY = grow(this.minY, capacity);
    this.maxY = grow(this.maxY, capacity);
  }

  /** Joins the marks of runs c and q (the larger mark's root becomes the root of both). */
  union(c: number, q: number): void {
    const parent = this.parent;
    const size = this.size;
    let a = rootOf(parent, c);
    let b = rootOf(parent, q);
    if (a === b) return;
    if (size[a] < size[b]) {
      const t = a;
      a = b;
      b = t;
    }
    parent[b] = a;
    size[a] += size[b];
    if (this.darkest[b] < this.darkest[a]) this.darkest[a] = this.darkest[b];
    if (this.minX[b] < this.minX[a]) this.minX[a] = this.minX[b];
    if (this.maxX[b] > this.maxX[a]) this.maxX[a] = this.maxX[b];
    if (this.minY[b] < this.minY[a]) this.minY[a] = this.minY[b];
    if (this.maxY[b] > this.maxY[a]) this.maxY[a] = this.maxY[b];
  }
}

const RUNS = new RunTable();

/**
 * The marks of pixels darker than `markLevel` (0 = ink, 255 = paper). The pixels at or below
 * `inkLevel` are counted on the way (the colourability measure's ink share without another scan).
 *
 * The work is in small functions called per row (scanRow, joinRows) and per run: called hundreds
 * of times per photo, they are optimised whole after the first photo or two. As one long loop in a
 * function called twice per photo, it was compiled on the spot (on-stack replacement), thrown
 * away when a path it had not yet seen was taken, and compiled again, photo after photo; those
 * compiles cost more CPU than the scans.
 */
export function findMarks({ width, height, data }: GrayPlane, markLevel: number, inkLevel = -1): Marks {
  if (width > 65535 || height > 65535) throw new RangeError(`a page of ${width}x${height} is too large for 16-bit coordinates`);
  const aligned = data.byteOffset % 4 === 0;
  const words = new Uint32Array(data.buffer, data.byteOffset, aligned ? data.length >> 2 : 0);
  const runs = RUNS;
  // Room for 48 runs a row from the start: the bench's grey pages have 20-40 (astronaut 10 510
  // runs in 512 rows, the room 19 631 in 500), and each doubling from the 8 a row this started
  // with copied ten arrays (binarise of the room 2.05 → 1.95 ms). 23 bytes a run: 2.7 MB for a
  // 3300 px page, where doubling to the same runs held up to twice that while it copied.
  runs.start(Math.max(1024, height * 48));
  let previousFirst = 0;
  for (let y = 0; y < height; y++) {
    const rowFirst = runs.count;
    scanRow(data, words, aligned, y, width, markLevel, inkLevel, runs);
    joinRows(runs, previousFirst, rowFirst);
    previousFirst = rowFirst;
  }
  const { count: runCount, runRow, runStart, runEnd, parent, size, darkest, minX, maxX, minY, maxY, markedPixels, inkPixels } = runs;
  // Every run points straight at its root, so callers read parent[r] without walking.
  pointAtRoots(parent, runCount);
  runs.start(0); // the arrays are the caller's now
  return { runCount, runRow, runStart, runEnd, parent, size, darkest, minX, maxX, minY, maxY, markedPixels, inkPixels };
}

/** Adds row y's runs of pixels darker than markLevel to `runs`; paper is skipped four pixels at a time where the bytes are aligned. */
function scanRow(data: Uint8Array, words: Uint32Array, aligned: boolean, y: number, width: number, markLevel: number, inkLevel: number, runs: RunTable): void {
  const row = y * width;
  // Words wholly inside the row end before this one.
  const rowWordsEnd = (row + width) >> 2;
  let x = 0;
  while (x < width) {
    const i = row + x;
    if ((i & 3) === 0 && aligned) {
      // Paper four pixels at a time, in a loop of its own (most of a page is paper).
      let w = i >> 2;
      while (w < rowWordsEnd && words[w] === 0xffffffff) w++;
      if (w << 2 !== i) {
        x += (w << 2) - i;
        continue;
      }
    }
    if (data[i] >= markLevel) {
      x++;
      continue;
    }
    const start = x;
    let minimum = 255;
    let ink = 0;
    for (; x < width; x++) {
      const v = data[row + x];
      if (v >= markLevel) break;
      if (v < minimum) minimum = v;
      if (v <= inkLevel) ink++;
    }
    runs.markedPixels += x - start;
    runs.inkPixels += ink;
    runs.add(y, start, x, minimum);
  }
}

/** Joins each run from rowFirst on with the previous row's runs (previousFirst .. rowFirst) that touch it, diagonals included. */
function joinRows(runs: RunTable, previousFirst: number, rowFirst: number): void {
  const { runStart, runEnd } = runs;
  const count = runs.count;
  let p = previousFirst;
  for (let c = rowFirst; c < count; c++) {
    while (p < rowFirst && runEnd[p] < runStart[c]) p++;
    for (let q = p; q < rowFirst && runStart[q] <= runEnd[c]; q++) runs.union(c, q);
  }
}

function pointAtRoots(parent: Int32Array, runCount: number): void {
  for (let r = 0; r < runCount; r++) parent[r] = rootOf(parent, r);
}

/** The longer side of a mark's bounding box: how far the stroke reaches. */
export function extentOf(marks: Marks, root: number): number {
  return Math.max(marks.maxX[root] - marks.minX[root], marks.maxY[root] - marks.minY[root]) + 1;
}

function grow<T extends Int32Array | Uint16Array | Uint8Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
