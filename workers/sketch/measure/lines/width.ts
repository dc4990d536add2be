/**
 * The width of the drawn line, in mm at print size: read across the line on the page's own
 * pixels at a sample of skeleton pixels, away from junctions.
 */
import type { GrayPlane } from "../../kernel";
import { CHAMFER_STEP } from "./distance";
import { NEIGHBOUR_COUNT, neighbourCode, type Skeleton } from "./skeleton";
import { INK_MAX_LEVEL, PRINT_PX_PER_MM, printScaleOf, WIDEST_LINE_MM, type WorkPlane } from "./work-plane";

export const LINE_WIDTH_PERCENTILE = 0.99;

/**
 * The work pixels within JUNCTION_ZONE_WIDTHS line widths of a junction (a skeleton pixel with
 * three or more skeleton neighbours): where lines meet, the ink is the lines' union, and the runs
 * through it are long in every direction however thin each line is (a T of two 0.5 mm lines read
 * 1.5-2 mm there). The line's own width is read along it, away from them.
 */
function junctionZones({ flags, stride }: WorkPlane, { pixels, count, toPaper }: Skeleton): Uint8Array {
  const zone = new Uint8Array(flags.length);
  const rows = flags.length / stride;
  for (let i = 0; i < count; i++) {
    const p = pixels[i];
    if (NEIGHBOUR_COUNT[neighbourCode(flags, p, stride)] < 3) continue;
    const reach = Math.ceil(JUNCTION_ZONE_WIDTHS * 2 * (toPaper[p] / CHAMFER_STEP)) + 1;
    const x = p % stride;
    const y = (p / stride) | 0;
    for (let yy = Math.max(0, y - reach); yy <= Math.min(rows - 1, y + reach); yy++) {
      zone.fill(1, yy * stride + Math.max(0, x - reach), yy * stride + Math.min(stride, x + reach + 1));
    }
  }
  return zone;
}

/** How far from a junction (in widths of the line there) its ink is not read as the line's width. */
const JUNCTION_ZONE_WIDTHS = 1;

/**
 * The LINE_WIDTH_PERCENTILE of the width across the line at each skeleton pixel, on the page
 * itself: the horizontal and vertical ink runs h and v through it give the width across a line at
 * any angle, w = h·v / √(h² + v²) (a run that reaches WIDTH_RUN_MAX_MM runs along the line: the
 * other run is the width). This is twice the distance from the line's middle to the paper, without
 * the half-pixel a one-pixel skeleton is off the middle of a line of even width.
 */
export function lineWidthMm(page: GrayPlane, work: WorkPlane, skeleton: Skeleton): number {
  const { pixels, count } = skeleton;
  if (!count) return 0;
  const pagePrintScale = printScaleOf(page);
  const maxRun = Math.max(1, Math.round((WIDEST_LINE_MM * PRINT_PX_PER_MM) / pagePrintScale));
  const binsPerPixel = 4;
  const histogram = new Uint32Array((2 * maxRun + 1) * binsPerPixel + 2);
  const { stride, factor } = work;
  const { data, width, height } = page;
  const nearJunction = junctionZones(work, skeleton);
  // A percentile needs a sample, not every pixel: at most WIDTH_SAMPLES, spread along the skeleton.
  const every = Math.max(1, Math.floor(count / WIDTH_SAMPLES));
  let sampled = 0;
  for (let i = 0; i < count; i += every) {
    const p = pixels[i];
    if (nearJunction[p]) continue;
    sampled++;
    const blockX = ((p % stride) - 1) * factor;
    const blockY = (((p / stride) | 0) - 1) * factor;
    const ink = firstInkInBlock(data, width, height, blockX, blockY, factor);
    const across = crossingWidth(data, width, height, ink % width, (ink / width) | 0, maxRun);
    histogram[Math.round(across * binsPerPixel)]++;
  }
  if (!sampled) return 0;
  const wanted = LINE_WIDTH_PERCENTILE * sampled;
  let bin = 0;
  for (let seen = histogram[0]; seen < wanted; ) seen += histogram[++bin];
  return ((bin / binsPerPixel) * pagePrintScale) / PRINT_PX_PER_MM;
}

/** Skeleton pixels whose width is measured, at most (every n-th, evenly along the raster order). */
const WIDTH_SAMPLES = 8192;

/** A work pixel is ink when one of its page pixels is: the first of them. */
function firstInkInBlock(data: Uint8Array, width: number, height: number, x: number, y: number, factor: number): number {
  for (let dy = 0; dy < factor && y + dy < height; dy++) {
    for (let dx = 0; dx < factor && x + dx < width; dx++) if (data[(y + dy) * width + x + dx] <= INK_MAX_LEVEL) return (y + dy) * width + x + dx;
  }
  return y * width + x;
}

/**
 * The width across the line at (x, y) from its horizontal and vertical ink runs (each way from
 * the pixel, at most maxRun). A run ALONG_RATIO times the other one, each way, runs along the
 * line and the other run is the width (within 1.5 %): so a run is followed only as far as that,
 * and a line costs a few times its width, not maxRun.
 */
function crossingWidth(data: Uint8Array, width: number, height: number, x: number, y: number, maxRun: number): number {
  const i = y * width + x;
  let up = inkArm(data, i, -width, y, 0, SHORT_ARM);
  let down = inkArm(data, i, width, height - 1 - y, 0, SHORT_ARM);
  const verticalShort = up < SHORT_ARM && down < SHORT_ARM;
  const horizontalLimit = verticalShort ? Math.min(maxRun, ALONG_RATIO * (up + down + 1)) : maxRun;
  const left = inkArm(data, i, -1, x, 0, horizontalLimit);
  const right = inkArm(data, i, 1, width - 1 - x, 0, horizontalLimit);
  const horizontal = left + right + 1;
  const horizontalEndless = left === horizontalLimit || right === horizontalLimit;
  let verticalEndless = false;
  if (!verticalShort) {
    const verticalLimit = horizontalEndless ? maxRun : Math.min(maxRun, ALONG_RATIO * horizontal);
    up = inkArm(data, i, -width, y, up, verticalLimit);
    down = inkArm(data, i, width, height - 1 - y, down, verticalLimit);
    verticalEndless = up === verticalLimit || down === verticalLimit;
  }
  const vertical = up + down + 1;
  let across: number;
  if (verticalEndless && !horizontalEndless) across = horizontal;
  else if (horizontalEndless && !verticalEndless) across = vertical;
  else across = (horizontal * vertical) / Math.sqrt(horizontal * horizontal + vertical * vertical);
  // On a bend the two runs are not across one straight line and the formula reads the bend's
  // width; the diagonal chords through the pixel bound it (a chord is never shorter than the
  // line is wide, and the one nearest across a line at any angle is within 8 % of its width).
  const diagonalLimit = Math.ceil(across);
  const room = (dx: number, dy: number) => Math.min(dx < 0 ? x : width - 1 - x, dy < 0 ? y : height - 1 - y);
  const falling = inkArm(data, i, -width - 1, room(-1, -1), 0, diagonalLimit) + inkArm(data, i, width + 1, room(1, 1), 0, diagonalLimit) + 1;
  const rising = inkArm(data, i, -width + 1, room(1, -1), 0, diagonalLimit) + inkArm(data, i, width - 1, room(-1, 1), 0, diagonalLimit) + 1;
  return Math.min(across, Math.SQRT2 * Math.min(falling, rising));
}

/** A run this many times the other one (each way) runs along the line (see crossingWidth). */
const ALONG_RATIO = 3;
/** The vertical run is first followed this far (page pixels each way): most lines are narrower. */
const SHORT_ARM = 8;

/** How far the ink goes from index i in steps of `step`, continuing from `from`, at most `limit` (and `room`, the page's edge). */
function inkArm(data: Uint8Array, i: number, step: number, room: number, from: number, limit: number): number {
  const last = Math.min(limit, room);
  let n = from;
  while (n < last && data[i + (n + 1) * step] <= INK_MAX_LEVEL) n++;
  return n;
}
