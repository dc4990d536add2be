/**
 * A mask of dark-line pixels thinned to one-pixel lines (after Zhang and Suen, "A fast parallel
 * algorithm for thinning digital patterns", CACM 1984), and those lines followed from end or
 * junction to the next as chains of pixel centres.
 */

/**
 * Thins `mask` (1 = on) in place to 8-connected lines one pixel wide; pixels off the plane count
 * as off. Each pixel is removed as soon as it is found removable (Zhang and Suen remove a pass's
 * pixels together, which erases a 2 × 2 spot, a pupil, whole).
 */
export function thin(mask: Uint8Array, width: number, height: number): void {
  let candidates: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) candidates.push(i);
  const at = (x: number, y: number) => (x >= 0 && y >= 0 && x < width && y < height ? mask[y * width + x] : 0);
  const ring = new Uint8Array(9);
  for (let changed = true; changed; ) {
    changed = false;
    for (const pass of [0, 1]) {
      for (const i of candidates) {
        if (!mask[i]) continue;
        const x = i % width;
        const y = (i / width) | 0;
        // Neighbours clockwise from north: p2 .. p9.
        const p2 = at(x, y - 1), p3 = at(x + 1, y - 1), p4 = at(x + 1, y), p5 = at(x + 1, y + 1);
        const p6 = at(x, y + 1), p7 = at(x - 1, y + 1), p8 = at(x - 1, y), p9 = at(x - 1, y - 1);
        const on = p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9;
        if (on < 2 || on > 6) continue;
        ring[0] = p2; ring[1] = p3; ring[2] = p4; ring[3] = p5; ring[4] = p6; ring[5] = p7; ring[6] = p8; ring[7] = p9; ring[8] = p2;
        let rises = 0;
        for (let k = 0; k < 8; k++) if (ring[k] === 0 && ring[k + 1] === 1) rises++;
        if (rises !== 1) continue;
        if (pass === 0 ? p2 * p4 * p6 !== 0 || p4 * p6 * p8 !== 0 : p2 * p4 * p8 !== 0 || p2 * p6 * p8 !== 0) continue;
        mask[i] = 0;
        changed = true;
      }
    }
    candidates = candidates.filter((i) => mask[i] === 1);
  }
}

export interface Chains {
  count: number;
  /** Chain k's pixels are pixels[start[k] .. start[k + 1]) (indices into the plane). */
  start: Int32Array;
  pixels: Int32Array;
  /** Each pixel's crossings (the runs of line pixels round it): 1 at an end, 2 along a line, 3 or more at a junction. */
  crossings: Uint8Array;
}

/** The 8 neighbours, the 4 beside a pixel first: a line is followed along its sides before its diagonals. */
const NEIGHBOURS = [[0, -1], [1, 0], [0, 1], [-1, 0], [1, -1], [1, 1], [-1, 1], [-1, -1]];
/** Clockwise from north, for counting a pixel's crossings. */
const RING = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]];

/**
 * The lines of a thinned mask as chains: from each end or junction along the line to the next
 * end or junction; lone pixels as chains of one; loops without a junction from any of their pixels
 * round to it again. Ends and junctions are told by their crossings (the runs of line pixels
 * round them: 1 at an end, 2 along a line, 3 or more at a junction), not by their neighbours,
 * which a line's turn on the diagonal doubles.
 */
export function traceChains(mask: Uint8Array, width: number, height: number): Chains {
  const at = (x: number, y: number) => (x >= 0 && y >= 0 && x < width && y < height ? mask[y * width + x] : 0);
  const neighbours = (i: number, visit: (j: number) => void) => {
    const x = i % width;
    const y = (i / width) | 0;
    for (const [dx, dy] of NEIGHBOURS) if (at(x + dx, y + dy)) visit((y + dy) * width + x + dx);
  };
  const crossings = new Uint8Array(mask.length);
  const on: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    on.push(i);
    const x = i % width;
    const y = (i / width) | 0;
    let runs = 0;
    for (let k = 0; k < 8; k++) {
      const [dx, dy] = RING[k];
      const [nx, ny] = RING[(k + 1) & 7];
      if (!at(x + dx, y + dy) && at(x + nx, y + ny)) runs++;
    }
    // A pixel whose every neighbour is on (inside a blob thinning left) counts as a junction.
    crossings[i] = runs === 0 && at(x + 1, y) ? 3 : runs;
  }
  const isNode = (i: number) => crossings[i] !== 2;
  const taken = new Uint8Array(mask.length);
  const start: number[] = [0];
  const pixels: number[] = [];
  const close = () => start.push(pixels.length);
  // From node `from` through its neighbour `first`, to the next node (or back round a loop).
  const follow = (from: number, first: number) => {
    pixels.push(from);
    let previous = from;
    let current = first;
    for (;;) {
      pixels.push(current);
      if (isNode(current) || current === from) break;
      taken[current] = 1;
      let next = -1;
      neighbours(current, (j) => {
        if (next < 0 && j !== previous && (isNode(j) || !taken[j] || j === from)) next = j;
      });
      if (next < 0) break;
      previous = current;
      current = next;
    }
    close();
  };
  for (const i of on) {
    if (!isNode(i)) continue;
    if (crossings[i] === 0) {
      pixels.push(i);
      close();
      continue;
    }
    neighbours(i, (j) => {
      // A chain between two adjacent nodes is followed once, from the lower index.
      if (isNode(j) ? i < j : !taken[j]) follow(i, j);
    });
  }
  for (const i of on) {
    if (isNode(i) || taken[i]) continue;
    let first = -1;
    neighbours(i, (j) => {
      if (first < 0) first = j;
    });
    taken[i] = 1;
    follow(i, first);
  }
  return { count: start.length - 1, start: Int32Array.from(start), pixels: Int32Array.from(pixels), crossings };
}
