/**
 * Viola-Jones face detection (Viola and Jones 2001; Lienhart and Maydt 2002): a cascade of
 * stages of Haar-feature stumps slid over a pyramid of the grey plane, each window's features read
 * from an integral image and normalised by the window's contrast, and the windows that pass every
 * stage grouped into faces, as OpenCV's detectMultiScale does.
 */
import type { GrayPlane } from "../plane";
import { areaResize } from "../resize";
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

/** Every window that passes the whole cascade, [x, y, size] in the plane's pixels. */
function candidateWindows(grey: GrayPlane, cascade: FaceCascade, smallestFace: number): number[][] {
  const { windowWidth, windowHeight } = cascade;
  const found: number[][] = [];
  const firstScale = Math.max(1, smallestFace / windowWidth);
  const largest = (Math.round(grey.width / firstScale) + 1) * (Math.round(grey.height / firstScale) + 1);
  const sums = new Int32Array(largest);
  const squares = new Float64Array(largest);
  // Each rectangle's 4 corners as offsets from a window's top-left corner in a level's integral.
  const corners = new Int32Array(cascade.rects.length);
  for (let scale = firstScale; ; scale *= FACE_TUNING.scaleStep) {
    const width = Math.round(grey.width / scale);
    const height = Math.round(grey.height / scale);
    if (width < windowWidth + 2 || height < windowHeight + 2) break;
    const level = areaResize(grey, width, height);
    integrate(level, sums, squares);
    const stride = width + 1;
    for (let r = 0; r < cascade.rects.length; r += 4) {
      const [x, y, w, h] = cascade.rects.subarray(r, r + 4);
      corners[r] = y * stride + x;
      corners[r + 1] = y * stride + x + w;
      corners[r + 2] = (y + h) * stride + x;
      corners[r + 3] = (y + h) * stride + x + w;
    }
    const innerArea = (windowWidth - 2) * (windowHeight - 2);
    const stageCount = cascade.stageEnd.length;
    // innerArea² × the variance of the flattest window a face can be.
    const flattest = (innerArea * FACE_TUNING.flattestFaceSpread) ** 2;
    const innerWidth = windowWidth - 2;
    const innerHeight = (windowHeight - 2) * stride;
    for (let y = 0; y + windowHeight < height; y += FACE_TUNING.windowStep) {
      for (let x = 0; x + windowWidth < width; x += FACE_TUNING.windowStep) {
        const base = y * stride + x;
        // The window's contrast inside a 1 px border: its features are read in its own units.
        const a = base + stride + 1;
        const sum = sums[a] - sums[a + innerWidth] - sums[a + innerHeight] + sums[a + innerHeight + innerWidth];
        const sumOfSquares = squares[a] - squares[a + innerWidth] - squares[a + innerHeight] + squares[a + innerHeight + innerWidth];
        const spread = innerArea * sumOfSquares - sum * sum;
        // A window as flat as a wall or a sky holds no face: not worth the cascade.
        if (spread < flattest) continue;
        const stages = stagesPassed(cascade, sums, corners, base, 1 / Math.sqrt(spread));
        if (stages === stageCount) found.push([x * scale, y * scale, windowWidth * scale]);
        // Far from any face (not even the first stage passed): the next window, 2 px on, is
        // skipped too, as OpenCV's detectMultiScale does; a face is many windows wide.
        else if (stages === 0) x += FACE_TUNING.windowStep;
      }
    }
  }
  return found;
}

/** How many stages the window at `base` passes, in order (all of them: a face); `norm` is 1 / (its inner area × its contrast). */
function stagesPassed(cascade: FaceCascade, sums: Int32Array, corners: Int32Array, base: number, norm: number): number {
  const { stageEnd, stageThreshold, threshold, below, above, weights } = cascade;
  let stump = 0;
  for (let s = 0; s < stageEnd.length; s++) {
    let votes = 0;
    for (const end = stageEnd[s]; stump < end; stump++) {
      const c = stump * 12;
      const w = stump * 3;
      let value =
        weights[w] * (sums[base + corners[c]] - sums[base + corners[c + 1]] - sums[base + corners[c + 2]] + sums[base + corners[c + 3]]) +
        weights[w + 1] * (sums[base + corners[c + 4]] - sums[base + corners[c + 5]] - sums[base + corners[c + 6]] + sums[base + corners[c + 7]]);
      if (weights[w + 2] !== 0) {
        value += weights[w + 2] * (sums[base + corners[c + 8]] - sums[base + corners[c + 9]] - sums[base + corners[c + 10]] + sums[base + corners[c + 11]]);
      }
      votes += value * norm < threshold[stump] ? below[stump] : above[stump];
    }
    if (votes < stageThreshold[s]) return s;
  }
  return stageEnd.length;
}

/** The integral image of a plane and of its squares, (width + 1) × (height + 1), into the given buffers. */
export function integrate({ data, width, height }: GrayPlane, sums: Int32Array, squares: Float64Array): void {
  const stride = width + 1;
  sums.fill(0, 0, stride);
  squares.fill(0, 0, stride);
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    let rowSquares = 0;
    const above = y * stride;
    const here = above + stride;
    sums[here] = 0;
    squares[here] = 0;
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x];
      rowSum += v;
      rowSquares += v * v;
      sums[here + x + 1] = sums[above + x + 1] + rowSum;
      squares[here + x + 1] = squares[above + x + 1] + rowSquares;
    }
  }
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
