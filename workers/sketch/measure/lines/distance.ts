/**
 * Chamfer distances on the work plane: from each ink cell to the nearest paper (how far the
 * skeleton lies inside its line, so half the line's width), or from every cell to the nearest ink
 * (how near one page's lines come to another's).
 */
import { INK, INK_IN_EVERY_BYTE, type WorkPlane } from "./work-plane";

/** Chamfer distances count an orthogonal step as 3, a diagonal one as 4 (≈ 3√2). */
export const CHAMFER_STEP = 3;
const CHAMFER_DIAGONAL = 4;

/**
 * Chamfer distance (thirds of a work pixel) from every cell to the nearest ink cell (toInk) or,
 * for ink cells, to the nearest paper (the page's edge counts as paper, and the border cells of
 * the plane are it: 0 when measuring to paper, far when measuring to ink).
 */
export function chamferDistance(work: WorkPlane, toInk: boolean): Uint16Array {
  const { flags, stride, width, height } = work;
  const distance = new Uint16Array(flags.length);
  // Measuring to paper, paper cells stay 0 and are skipped four at a time (most of a page is paper).
  const flagWords = new Int32Array(flags.buffer, flags.byteOffset, toInk ? 0 : flags.length >> 2);
  if (toInk) distance.fill(FAR_DISTANCE);
  for (let y = 1; y <= height; y++) chamferForwardRow(flags, flagWords, distance, y * stride + 1, width, stride, toInk);
  for (let y = height; y >= 1; y--) chamferBackwardRow(flagWords, distance, y * stride + 1, width, stride);
  return distance;
}

export const FAR_DISTANCE = 0xffff;

function chamferForwardRow(flags: Uint8Array, flagWords: Int32Array, d: Uint16Array, start: number, length: number, stride: number, toInk: boolean): void {
  const skipPaper = flagWords.length > 0;
  for (let p = start, end = start + length; p < end; p++) {
    if (skipPaper && (p & 3) === 0 && p + 4 <= end && (flagWords[p >> 2] & INK_IN_EVERY_BYTE) === 0) {
      p += 3;
      continue;
    }
    if (((flags[p] & INK) !== 0) === toInk) {
      if (toInk) d[p] = 0;
      continue;
    }
    const up = p - stride;
    let m = FAR_DISTANCE;
    if (d[p - 1] + CHAMFER_STEP < m) m = d[p - 1] + CHAMFER_STEP;
    if (d[up] + CHAMFER_STEP < m) m = d[up] + CHAMFER_STEP;
    if (d[up - 1] + CHAMFER_DIAGONAL < m) m = d[up - 1] + CHAMFER_DIAGONAL;
    if (d[up + 1] + CHAMFER_DIAGONAL < m) m = d[up + 1] + CHAMFER_DIAGONAL;
    d[p] = m;
  }
}

function chamferBackwardRow(flagWords: Int32Array, d: Uint16Array, start: number, length: number, stride: number): void {
  const skipPaper = flagWords.length > 0;
  for (let p = start + length - 1; p >= start; p--) {
    if (skipPaper && (p & 3) === 3 && p - 3 >= start && (flagWords[p >> 2] & INK_IN_EVERY_BYTE) === 0) {
      p -= 3;
      continue;
    }
    if (d[p] === 0) continue;
    const down = p + stride;
    let m = d[p];
    if (d[p + 1] + CHAMFER_STEP < m) m = d[p + 1] + CHAMFER_STEP;
    if (d[down] + CHAMFER_STEP < m) m = d[down] + CHAMFER_STEP;
    if (d[down - 1] + CHAMFER_DIAGONAL < m) m = d[down - 1] + CHAMFER_DIAGONAL;
    if (d[down + 1] + CHAMFER_DIAGONAL < m) m = d[down + 1] + CHAMFER_DIAGONAL;
    d[p] = m;
  }
}
