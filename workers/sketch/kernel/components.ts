/**
 * Connected marks of a page: an 8-connected set of pixels darker than a level. Found by
 * union-find over runs (one run = a horizontal stretch of mark pixels), so memory grows with the
 * number of runs, not with the image, and white paper is skipped four pixels at a time.
 *
 * Used twice: by the binarise stage (which marks to keep) and by the colourability measure
 * (specks and lines of the finished page).
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
 * The marks of pixels darker than `markLevel` (0 = ink, 255 = paper). The pixels at or below
 * `inkLevel` are counted on the way (the colourability measure's ink share without another scan).
 */
export function findMarks({ width, height, data }: GrayPlane, markLevel: number, inkLevel = -1): Marks {
  if (width > 65535 || height > 65535) throw new RangeError(`a page of ${width}x${height} is too large for 16-bit coordinates`);
  const aligned = data.byteOffset % 4 === 0;
  const words = new Uint32Array(data.buffer, data.byteOffset, aligned ? data.length >> 2 : 0);
  let capacity = Math.max(1024, height * 8);
  let runRow = new Uint16Array(capacity);
  let runStart = new Uint16Array(capacity);
  let runEnd = new Uint16Array(capacity);
  let parent = new Int32Array(capacity);
  let size = new Int32Array(capacity);
  let darkest = new Uint8Array(capacity);
  let minX = new Uint16Array(capacity);
  let maxX = new Uint16Array(capacity);
  let minY = new Uint16Array(capacity);
  let maxY = new Uint16Array(capacity);
  let runCount = 0;
  let markedPixels = 0;
  let inkPixels = 0;

  let previousFirst = 0;
  let previousEnd = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const rowFirst = runCount;
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
      for (; x < width; x++) {
        const v = data[row + x];
        if (v >= markLevel) break;
        if (v < minimum) minimum = v;
        if (v <= inkLevel) inkPixels++;
      }
      markedPixels += x - start;
      if (runCount === capacity) {
        capacity *= 2;
        runRow = grow(runRow, capacity);
        runStart = grow(runStart, capacity);
        runEnd = grow(runEnd, capacity);
        parent = grow(parent, capacity);
        size = grow(size, capacity);
        darkest = grow(darkest, capacity);
        minX = grow(minX, capacity);
        maxX = grow(maxX, capacity);
        minY = grow(minY, capacity);
        maxY = grow(maxY, capacity);
      }
      runRow[runCount] = y;
      runStart[runCount] = start;
      runEnd[runCount] = x;
      parent[runCount] = runCount;
      size[runCount] = x - start;
      darkest[runCount] = minimum;
      minX[runCount] = start;
      maxX[runCount] = x - 1;
      minY[runCount] = y;
      maxY[runCount] = y;
      runCount++;
    }
    // Join with the previous row's runs that touch, diagonals included.
    let p = previousFirst;
    for (let c = rowFirst; c < runCount; c++) {
      while (p < previousEnd && runEnd[p] < runStart[c]) p++;
      for (let q = p; q < previousEnd && runStart[q] <= runEnd[c]; q++) {
        let a = rootOf(parent, c);
        let b = rootOf(parent, q);
        if (a === b) continue;
        if (size[a] < size[b]) {
          const t = a;
          a = b;
          b = t;
        }
        parent[b] = a;
        size[a] += size[b];
        if (darkest[b] < darkest[a]) darkest[a] = darkest[b];
        if (minX[b] < minX[a]) minX[a] = minX[b];
        if (maxX[b] > maxX[a]) maxX[a] = maxX[b];
        if (minY[b] < minY[a]) minY[a] = minY[b];
        if (maxY[b] > maxY[a]) maxY[a] = maxY[b];
      }
    }
    previousFirst = rowFirst;
    previousEnd = runCount;
  }
  // Every run points straight at its root, so callers read parent[r] without walking.
  for (let r = 0; r < runCount; r++) parent[r] = rootOf(parent, r);
  return { runCount, runRow, runStart, runEnd, parent, size, darkest, minX, maxX, minY, maxY, markedPixels, inkPixels };
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
