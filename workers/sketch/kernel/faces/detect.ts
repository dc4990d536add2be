/**
 * Viola-Jones face detection (Viola and Jones 2001; Lienhart and Maydt 2002): a cascade of
 * stages of Haar-feature stumps slid over a pyramid of the grey plane, each window's features read
 * from an integral image and normalised by the window's contrast, and the windows that pass every
 * stage grouped into faces, as OpenCV's detectMultiScale does.
 */
import type { GrayPlane } from "../plane";
import { areaResize } from "../resize";
import { integrate } from "../summed-area";
import type { FaceCascade } from "./cascade";
import { FACE_TUNING } from "./tuning";

/** A face's box, in the pixels of the plane searched: left, top and side (the cascade's window is square). */
export interface FaceBox {
  x: number;
  y: number;
  size: number;
}

/** The faces of a grey plane at least `smallestFace` px across. */
export function detectFaces(grey: GrayPlane, cascade: FaceCascade, smallestFace: number): FaceBox[] {
  const windows = candidateWindows(grey, cascade, smallestFace);
  return groupWindows(windows, FACE_TUNING.fewestAgreeingWindows, FACE_TUNING.agreement);
}

/**
 * Every window that passes the whole cascade, [x, y, size] in the plane's pixels.
 *
 * The windows of a pyramid level go through the cascade a stage at a time, all of them together:
 * the first stage window by window (a window that fails it skips its neighbour), each later stage
 * stump by stump over the windows still standing. A stump's rectangles, weights and threshold are
 * then read once per level and stage, not once per window: the search takes 25-35 % less CPU than
 * window by window did. Each window's votes are added in the same order, so it finds the same windows.
 */
export function candidateWindows(grey: GrayPlane, cascade: FaceCascade, smallestFace: number): number[][] {
  const { windowWidth, windowHeight } = cascade;
  const found: number[][] = [];
  const firstScale = Math.max(1, smallestFace / windowWidth);
  const largest = (Math.round(grey.width / firstScale) + 1) * (Math.round(grey.height / firstScale) + 1);
  const sums = new Int32Array(largest);
  const squares = new Float64Array(largest);
  // The windows still standing: their top-left corner in the level's integral and 1 / their contrast.
  const bases = new Int32Array(largest);
  const norms = new Float64Array(largest);
  const votes = new Float64Array(largest);
  // Each rectangle's 4 corners as offsets from a window's top-left corner in a level's integral.
  const corners = new Int32Array(cascade.rects.length);
  for (let scale = firstScale; ; scale *= FACE_TUNING.scaleStep) {
    const width = Math.round(grey.width / scale);
    const height = Math.round(grey.height / scale);
    if (width < windowWidth + 2 || height < windowHeight + 2) break;
    const level = areaResize(grey, width, height);
    integrate(level, sums, squares);
    const stride = width + 1;
    const { rects } = cascade;
    for (let r = 0; r < rects.length; r += 4) {
      const x = rects[r], y = rects[r + 1], w = rects[r + 2], h = rects[r + 3];
      corners[r] = y * stride + x;
      corners[r + 1] = y * stride + x + w;
      corners[r + 2] = (y + h) * stride + x;
      corners[r + 3] = (y + h) * stride + x + w;
    }
    let standing = windowsPastFirstStage(cascade, sums, squares, corners, width, height, stride, bases, norms, windowStepAt(scale));
    for (let s = 1; s < cascade.stageEnd.length && standing > 0; s++) {
      standing = windowsPastStage(cascade, s, sums, corners, standing, bases, norms, votes);
    }
    for (let i = 0; i < standing; i++) {
      const y = Math.floor(bases[i] / stride);
      found.push([(bases[i] - y * stride) * scale, y * scale, windowWidth * scale]);
    }
  }
  return found;
}

/** How far apart (px) windows are tried on the pyramid level of this scale: a large face is few windows wide at its own level, so there every window is tried (FACE_TUNING.everyWindowAboveScale). */
export function windowStepAt(scale: number): number {
  return scale > FACE_TUNING.everyWindowAboveScale ? 1 : FACE_TUNING.windowStep;
}

/**
 * The windows of one level, every `step` px, that are not flat and pass the cascade's first
 * stage, into `bases` and `norms` in scan order; how many.
 */
function windowsPastFirstStage(
  cascade: FaceCascade,
  sums: Int32Array,
  squares: Float64Array,
  corners: Int32Array,
  width: number,
  height: number,
  stride: number,
  bases: Int32Array,
  norms: Float64Array,
  step: number,
): number {
  const { windowWidth, windowHeight, stageEnd, stageThreshold, threshold, votes, weights } = cascade;
  const innerArea = (windowWidth - 2) * (windowHeight - 2);
  // innerArea² × the variance of the flattest window a face can be.
  const flattest = (innerArea * FACE_TUNING.flattestFaceSpread) ** 2;
  const innerWidth = windowWidth - 2;
  const innerHeight = (windowHeight - 2) * stride;
  let count = 0;
  for (let y = 0; y + windowHeight < height; y += step) {
    for (let x = 0; x + windowWidth < width; x += step) {
      const base = y * stride + x;
      // The window's contrast inside a 1 px border: its features are read in its own units.
      const a = base + stride + 1;
      const sum = sums[a] - sums[a + innerWidth] - sums[a + innerHeight] + sums[a + innerHeight + innerWidth];
      const sumOfSquares = squares[a] - squares[a + innerWidth] - squares[a + innerHeight] + squares[a + innerHeight + innerWidth];
      const spread = innerArea * sumOfSquares - sum * sum;
      // A window as flat as a wall or a sky holds no face: not worth the cascade.
      if (spread < flattest) continue;
      const norm = 1 / Math.sqrt(spread);
      let stageVotes = 0;
      for (let stump = 0; stump < stageEnd[0]; stump++) {
        stageVotes += votes[2 * stump + +!(stumpValue(sums, corners, weights, stump, base) * norm < threshold[stump])];
      }
      if (stageVotes >= stageThreshold[0]) {
        bases[count] = base;
        norms[count] = norm;
        count++;
      }
      // Far from any face (not even the first stage passed): the next window, a step on, is
      // skipped too, as OpenCV's detectMultiScale does; a face is many windows wide.
      else x += step;
    }
  }
  return count;
}

/** One stump's Haar feature at the window whose top-left corner is `base` (before the window's contrast). */
function stumpValue(sums: Int32Array, corners: Int32Array, weights: Float64Array, stump: number, base: number): number {
  const c = stump * 12;
  const w = stump * 3;
  let value =
    weights[w] * (sums[base + corners[c]] - sums[base + corners[c + 1]] - sums[base + corners[c + 2]] + sums[base + corners[c + 3]]) +
    weights[w + 1] * (sums[base + corners[c + 4]] - sums[base + corners[c + 5]] - sums[base + corners[c + 6]] + sums[base + corners[c + 7]]);
  if (weights[w + 2] !== 0) {
    value += weights[w + 2] * (sums[base + corners[c + 8]] - sums[base + corners[c + 9]] - sums[base + corners[c + 10]] + sums[base + corners[c + 11]]);
  }
  return value;
}

/**
 * Stage `s` over the `count` windows still standing: each stump read once, then run over every
 * window; the windows that pass are moved to the front of `bases` and `norms` (in order). How many pass.
 */
function windowsPastStage(
  cascade: FaceCascade,
  s: number,
  sums: Int32Array,
  corners: Int32Array,
  count: number,
  bases: Int32Array,
  norms: Float64Array,
  votes: Float64Array,
): number {
  const { stageEnd, stageThreshold, threshold, votes: stumpVotes, weights } = cascade;
  votes.fill(0, 0, count);
  for (let stump = stageEnd[s - 1]; stump < stageEnd[s]; stump++) {
    const c = stump * 12;
    const a0 = corners[c], a1 = corners[c + 1], a2 = corners[c + 2], a3 = corners[c + 3];
    const b0 = corners[c + 4], b1 = corners[c + 5], b2 = corners[c + 6], b3 = corners[c + 7];
    const c0 = corners[c + 8], c1 = corners[c + 9], c2 = corners[c + 10], c3 = corners[c + 11];
    // The weights are whole numbers (-1, 2, 3): the feature is summed in integers, exactly.
    const wa = weights[stump * 3] | 0;
    const wb = weights[stump * 3 + 1] | 0;
    const wc = weights[stump * 3 + 2] | 0;
    const limit = threshold[stump];
    // The stump's vote picked by the comparison as an index into its two: a branch on it, taken
    // either way at random from window to window, cost 8 % of the face search.
    const below = 2 * stump;
    if (wc === 0) {
      for (let i = 0; i < count; i++) {
        const base = bases[i];
        const value = (Math.imul(wa, sums[base + a0] - sums[base + a1] - sums[base + a2] + sums[base + a3]) + Math.imul(wb, sums[base + b0] - sums[base + b1] - sums[base + b2] + sums[base + b3])) | 0;
        votes[i] += stumpVotes[below + +!(value * norms[i] < limit)];
      }
    } else {
      for (let i = 0; i < count; i++) {
        const base = bases[i];
        const value =
          (Math.imul(wa, sums[base + a0] - sums[base + a1] - sums[base + a2] + sums[base + a3]) +
            Math.imul(wb, sums[base + b0] - sums[base + b1] - sums[base + b2] + sums[base + b3]) +
            Math.imul(wc, sums[base + c0] - sums[base + c1] - sums[base + c2] + sums[base + c3])) |
          0;
        votes[i] += stumpVotes[below + +!(value * norms[i] < limit)];
      }
    }
  }
  let kept = 0;
  for (let i = 0; i < count; i++) {
    if (votes[i] < stageThreshold[s]) continue;
    bases[kept] = bases[i];
    norms[kept] = norms[i];
    kept++;
  }
  return kept;
}

/**
 * Clusters of alike windows, averaged, kept when more than `fewest` agree; a cluster inside a
 * larger one at least as strong is dropped (OpenCV's groupRectangles and its last pass).
 */
function groupWindows(windows: number[][], fewest: number, agreement: number): FaceBox[] {
  const parent = windows.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const alike = (a: number[], b: number[]) => {
    const delta = agreement * Math.min(a[2], b[2]);
    return Math.abs(a[0] - b[0]) <= delta && Math.abs(a[1] - b[1]) <= delta && Math.abs(a[0] + a[2] - b[0] - b[2]) <= delta;
  };
  for (let i = 0; i < windows.length; i++) for (let j = i + 1; j < windows.length; j++) if (alike(windows[i], windows[j])) parent[find(i)] = find(j);
  const clusters = new Map<number, { sum: number[]; count: number }>();
  windows.forEach((window, i) => {
    const cluster = clusters.get(find(i)) ?? { sum: [0, 0, 0], count: 0 };
    for (let k = 0; k < 3; k++) cluster.sum[k] += window[k];
    cluster.count++;
    clusters.set(find(i), cluster);
  });
  const kept = [...clusters.values()]
    .filter((cluster) => cluster.count > fewest)
    .map(({ sum, count }) => ({ box: { x: sum[0] / count, y: sum[1] / count, size: sum[2] / count }, count }));
  const within = (a: FaceBox, b: FaceBox) => {
    const margin = b.size * agreement;
    return b.size > a.size && a.x >= b.x - margin && a.y >= b.y - margin && a.x + a.size <= b.x + b.size + margin && a.y + a.size <= b.y + b.size + margin;
  };
  return kept.filter((a) => !kept.some((b) => b !== a && b.count >= Math.max(3, a.count) && within(a.box, b.box))).map(({ box }) => box);
}
