/**
 * Watershed basins of the edge map (L. Vincent and P. Soille, 1991, without watershed lines):
 * every pixel belongs to the basin of one regional minimum, flooded level by level, so the
 * borders between basins run along the crests of edge strength and every basin is closed.
 */

export interface Basins {
  /** Basin of each pixel, 0 .. count - 1. */
  label: Int32Array;
  count: number;
  width: number;
  height: number;
}

const UNSEEN = -1;
/** A pixel of the level being flooded, not yet reached. */
const WAITING = -2;


export function watershedBasins(strength: Uint16Array, levels: number, width: number, height: number): Basins {
  const pixels = width * height;
  // Pixels sorted by strength (counting sort).
  const levelStart = new Int32Array(levels + 1);
  for (let i = 0; i < pixels; i++) levelStart[strength[i] + 1]++;
  for (let v = 0; v < levels; v++) levelStart[v + 1] += levelStart[v];
  const order = new Int32Array(pixels);
  const fill = levelStart.slice(0, levels);
  for (let i = 0; i < pixels; i++) order[fill[strength[i]]++] = i;

  const label = new Int32Array(pixels).fill(UNSEEN);
  const queue = new Int32Array(pixels);
  const seedBasin = new Int32Array(pixels);
  let count = 0;
  for (let level = 0; level < levels; level++) {
    const first = levelStart[level];
    const end = levelStart[level + 1];
    if (first === end) continue;
    for (let k = first; k < end; k++) label[order[k]] = WAITING;
    // Grow the basins already there into this level, breadth first from the pixels next to
    // them (nearest basin wins). Every seed takes its basin from a neighbour of an earlier level
    // before any seed is labelled: labelled one by one, a row of seeds would hand its first
    // pixel's basin along the whole row (a stripe of one basin across a plateau).
    let tail = 0;
    for (let k = first; k < end; k++) {
      const p = order[k];
      const basin = labelledNeighbour(label, strength, p, width, height);
      if (basin >= 0) {
        seedBasin[tail] = basin;
        queue[tail++] = p;
      }
    }
    for (let k = 0; k < tail; k++) label[queue[k]] = seedBasin[k];
    spread(label, queue, 0, tail, width, height);
    // What is left of the level is new minima: each connected plateau starts a basin.
    for (let k = first; k < end; k++) {
      const p = order[k];
      if (label[p] !== WAITING) continue;
      label[p] = count++;
      queue[0] = p;
      spread(label, queue, 0, 1, width, height);
    }
  }
  return { label, count, width, height };
}

/**
 * The basin of p's lowest 4-neighbour already in a basin (the way the flood came), or -1. Taking
 * the first one found in a fixed order (left, right, up, down) drew borders twice as often down
 * the image as across it.
 */
function labelledNeighbour(label: Int32Array, strength: Uint16Array, p: number, width: number, height: number): number {
  const x = p % width;
  let basin = -1;
  let lowest = Infinity;
  if (x > 0 && label[p - 1] >= 0 && strength[p - 1] < lowest) (basin = label[p - 1]), (lowest = strength[p - 1]);
  if (x < width - 1 && label[p + 1] >= 0 && strength[p + 1] < lowest) (basin = label[p + 1]), (lowest = strength[p + 1]);
  if (p >= width && label[p - width] >= 0 && strength[p - width] < lowest) (basin = label[p - width]), (lowest = strength[p - width]);
  if (p < (height - 1) * width && label[p + width] >= 0 && strength[p + width] < lowest) basin = label[p + width];
  return basin;
}

/** Breadth first: every WAITING 4-neighbour of a queued pixel takes its basin and is queued. */
function spread(label: Int32Array, queue: Int32Array, head: number, tail: number, width: number, height: number): void {
  const last = (height - 1) * width;
  while (head < tail) {
    const p = queue[head++];
    const basin = label[p];
    const x = p % width;
    if (x > 0 && label[p - 1] === WAITING) (label[p - 1] = basin), (queue[tail++] = p - 1);
    if (x < width - 1 && label[p + 1] === WAITING) (label[p + 1] = basin), (queue[tail++] = p + 1);
    if (p >= width && label[p - width] === WAITING) (label[p - width] = basin), (queue[tail++] = p - width);
    if (p < last && label[p + width] === WAITING) (label[p + width] = basin), (queue[tail++] = p + width);
  }
}
