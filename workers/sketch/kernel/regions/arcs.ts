/**
 * The borders of a partition as arcs: the pixel cracks between two regions, followed from one
 * junction (three or more regions meet, or the page's edge) to the next, or round a closed loop.
 * Each arc separates the same two regions all along (a change of either side is a junction), so a
 * cut of the merge tree draws an arc exactly when its two sides are in different regions.
 *
 * Corners are the points (x, y) between pixels, 0 ≤ x ≤ width, 0 ≤ y ≤ height. The crack on the
 * left of pixel (x, y) runs from corner (x, y) down to (x, y + 1); the crack above it from corner
 * (x, y) right to (x + 1, y). Borders along the page's edge are not drawn: the paper's edge closes
 * those regions already.
 */

/** Lines as points: line k's points are points[pointStart[k] .. pointStart[k + 1]), x and y interleaved. */
export interface Polylines {
  count: number;
  pointStart: Int32Array;
  points: Float32Array;
}

export interface Arcs extends Polylines {
  /** The regions on the two sides of each arc. */
  sideA: Int32Array;
  sideB: Int32Array;
}

export function traceArcs(label: Int32Array, width: number, height: number): Arcs {
  const cornersWide = width + 1;
  // Crack presence: vertical (left of pixel x, y), horizontal (above pixel x, y), indexed by corner.
  const corners = cornersWide * (height + 1);
  const vertical = new Uint8Array(corners);
  const horizontal = new Uint8Array(corners);
  // How many cracks meet at each corner; padded to whole 32-bit words, so that the scan for the
  // corners with a crack below skips four without one at once (most corners have none).
  const degree = new Uint8Array(Math.ceil(corners / 4) * 4);
  const degreeWords = new Uint32Array(degree.buffer);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const corner = y * cornersWide;
    for (let x = 1; x < width; x++) {
      if (label[row + x] === label[row + x - 1]) continue;
      vertical[corner + x] = 1;
      degree[corner + x]++;
      degree[corner + cornersWide + x]++;
    }
  }
  for (let y = 1; y < height; y++) {
    const row = y * width;
    const corner = y * cornersWide;
    for (let x = 0; x < width; x++) {
      if (label[row + x] === label[row - width + x]) continue;
      horizontal[corner + x] = 1;
      degree[corner + x]++;
      degree[corner + x + 1]++;
    }
  }
  const sideA: number[] = [];
  const sideB: number[] = [];
  const pointStart: number[] = [0];
  const points: number[] = [];
  const isNode = (c: number) => degree[c] !== 2 && degree[c] !== 0;

  // Walks from corner c along the crack in direction d (0 right, 1 down, 2 left, 3 up), taking
  // each crack it passes, until a node (or back at the start of a loop).
  const walk = (start: number, direction: number) => {
    let c = start;
    let d = direction;
    const [a, b] = sidesOf(c, d);
    sideA.push(Math.min(a, b));
    sideB.push(Math.max(a, b));
    points.push(c % cornersWide, (c / cornersWide) | 0);
    for (;;) {
      c = take(c, d);
      points.push(c % cornersWide, (c / cornersWide) | 0);
      if (c === start || isNode(c)) break;
      d = nextDirection(c, d);
    }
    pointStart.push(points.length >> 1);
  };
  // The regions left and right of the crack leaving corner c in direction d.
  const sidesOf = (c: number, d: number): [number, number] => {
    const x = c % cornersWide;
    const y = (c / cornersWide) | 0;
    if (d === 0) return [label[(y - 1) * width + x], label[y * width + x]];
    if (d === 2) return [label[(y - 1) * width + x - 1], label[y * width + x - 1]];
    if (d === 1) return [label[y * width + x - 1], label[y * width + x]];
    return [label[(y - 1) * width + x - 1], label[(y - 1) * width + x]];
  };
  // Marks the crack leaving c in direction d as taken and returns the corner it reaches.
  const take = (c: number, d: number): number => {
    if (d === 0) return (horizontal[c] = 0), c + 1;
    if (d === 2) return (horizontal[c - 1] = 0), c - 1;
    if (d === 1) return (vertical[c] = 0), c + cornersWide;
    return (vertical[c - cornersWide] = 0), c - cornersWide;
  };
  // At a corner of degree 2, the crack that is left (not the one we came in by, already taken).
  const nextDirection = (c: number, from: number): number => {
    // Straight on, then either turn (no array of the three: this runs at every corner of every border).
    if (hasCrack(c, from)) return from;
    if (hasCrack(c, (from + 1) & 3)) return (from + 1) & 3;
    if (hasCrack(c, (from + 3) & 3)) return (from + 3) & 3;
    return (from + 2) & 3;
  };
  const hasCrack = (c: number, d: number): boolean => {
    if (d === 0) return horizontal[c] === 1 && c % cornersWide < width;
    if (d === 2) return c % cornersWide > 0 && horizontal[c - 1] === 1;
    if (d === 1) return vertical[c] === 1;
    return c >= cornersWide && vertical[c - cornersWide] === 1;
  };

  // The corners a crack touches, in order: four corners without one are skipped at once.
  const cracked: number[] = [];
  for (let word = 0; word < degreeWords.length; word++) {
    if (degreeWords[word] === 0) continue;
    for (let c = 4 * word; c < 4 * word + 4; c++) if (degree[c] !== 0) cracked.push(c);
  }
  for (const c of cracked) {
    if (!isNode(c)) continue;
    for (let d = 0; d < 4; d++) while (hasCrack(c, d)) walk(c, d);
  }
  // What is left is closed loops without a junction (a region inside one other).
  for (const c of cracked) {
    if (degree[c] !== 2) continue;
    for (let d = 0; d < 4; d++) if (hasCrack(c, d)) walk(c, d);
  }
  return {
    count: sideA.length,
    sideA: Int32Array.from(sideA),
    sideB: Int32Array.from(sideB),
    pointStart: Int32Array.from(pointStart),
    points: Float32Array.from(points),
  };
}

/**
 * Smooths each arc's staircase into a curve: its points averaged with a Gaussian of `sigma`
 * points along the arc, the two end points (junctions) fixed so arcs still meet, the window
 * shrinking toward them; a closed loop wraps round. Then keeps every `step`-th point.
 */
export function smoothArcs(arcs: Arcs, sigma: number, step: number): Arcs {
  return { ...smoothLines(arcs, sigma, step), sideA: arcs.sideA, sideB: arcs.sideB };
}

/** smoothArcs for any lines (the feature strokes too). */
export function smoothLines(arcs: Polylines, sigma: number, step: number): Polylines {
  const radius = Math.max(1, Math.ceil(2.5 * sigma));
  const weights = new Float32Array(radius + 1);
  for (let k = 0; k <= radius; k++) weights[k] = Math.exp((-k * k) / (2 * sigma * sigma));
  const pointStart: number[] = [0];
  const points: number[] = [];
  for (let arc = 0; arc < arcs.count; arc++) {
    const first = arcs.pointStart[arc];
    const n = arcs.pointStart[arc + 1] - first;
    const src = arcs.points.subarray(first * 2, (first + n) * 2);
    const closed = n > 2 && src[0] === src[2 * n - 2] && src[1] === src[2 * n - 1];
    const take = (i: number) => {
      let sx = 0;
      let sy = 0;
      let sw = 0;
      // Open arcs: a window symmetric around i that never passes an end (ends stay put).
      const reach = closed ? radius : Math.min(radius, i, n - 1 - i);
      for (let k = -reach; k <= reach; k++) {
        let j = i + k;
        if (closed) j = (((j % (n - 1)) + (n - 1)) % (n - 1));
        const w = weights[Math.abs(k)];
        sx += w * src[2 * j];
        sy += w * src[2 * j + 1];
        sw += w;
      }
      points.push(sx / sw, sy / sw);
    };
    for (let i = 0; i < n - 1; i += step) take(i);
    take(n - 1);
    pointStart.push(points.length >> 1);
  }
  return { count: arcs.count, pointStart: Int32Array.from(pointStart), points: Float32Array.from(points) };
}
