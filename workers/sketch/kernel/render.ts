/**
 * The render stage: the grey page from the smoothed, blurred and surround planes, made at the
 * working resolution in one fused pass (colour dodge, Sobel edges, levels).
 */
import type { FixedPlane } from "./plane";
import { HALF_GRID_SOBEL_GAIN } from "./scale";
import { SURROUND_FIXED } from "./surround";
import type { SketchTuning } from "./tuning";

interface Taps {
  index: Int32Array;
  /** Of the next sample, in 1/256ths. */
  weight: Int32Array;
}

/**
 * Bilinear sampling positions from a plane at `scale` working pixels per sample back to `size`
 * pixels: working pixel x sits at (x + 0.5) / scale - 0.5 in the plane.
 */
export function upsampleTaps(size: number, reducedSize: number, scale: number): Taps {
  const index = new Int32Array(size);
  const weight = new Int32Array(size);
  for (let x = 0; x < size; x++) {
    const position = Math.min(reducedSize - 1, Math.max(0, (x + 0.5) / scale - 0.5));
    const i = Math.min(reducedSize - 2, Math.floor(position));
    if (i < 0) continue; // a one-sample plane: index 0, weight 0
    index[x] = i;
    weight[x] = Math.round((position - i) * 256);
  }
  return { index, weight };
}

/** A blend weight that keeps the top row whole: (top × 4096 + 2048) >> 12 = top. */
const WHOLE_TOP = 4096;

/**
 * Working rows of one plane, made in order, as a pair of rows in the render pass's shared row
 * buffer and the weights that blend them: working row = (top × topWeight + bottom × bottomWeight
 * + 2048) >> 12, in 8.8.
 *
 * A reduced plane is upsampled along x a plane row at a time into the pair (values 8.8 × 16:
 * bilinear weights in 1/256ths, then ÷ 16 rounded, so the blend along y stays in Int32); each
 * plane row is upsampled once however many working rows read it, and the weights are the
 * bilinear ones along y. A plane at working resolution (not reduced at all: a very small
 * photo's dodge blur or surround) is what upsampling would give back exactly, so its row is
 * copied into the top slot as it is and kept whole (WHOLE_TOP, bottom weight 0).
 *
 * The two instances (blurred, surround) live as long as the isolate, reset per page. Made per page, their shape
 * (V8 map) died with them at each garbage collection, and the optimised code of the render pass,
 * which depends on it, was thrown away and compiled again for the next photo.
 */
class PlaneRows {
  /** Where the pair starts in the shared buffer, and its weights, for the last selected row. */
  topAt = 0;
  bottomAt = 0;
  topWeight = 0;
  bottomWeight = 0;
  private rows: Int32Array = new Int32Array(0);
  private topIndex = -1;
  private bottomIndex = -1;
  private width = 0;
  private atWorkingSize = false;
  // The plane's and the taps' arrays and sizes as fields of their own, not the plane object.
  private data: Uint16Array = new Uint16Array(0);
  private planeWidth = 0;
  private planeHeight = 0;
  private planeScale = 1;
  private columnIndex: Int32Array = new Int32Array(0);
  private columnWeight: Int32Array = new Int32Array(0);
  private rowIndex: Int32Array = new Int32Array(0);
  private rowWeight: Int32Array = new Int32Array(0);

  /** Starts on a new plane for a width x height page; its pair is rows[slot, slot + 2 × width). */
  reset(plane: FixedPlane, width: number, height: number, rows: Int32Array, slot: number): void {
    this.data = plane.data;
    this.planeWidth = plane.width;
    this.planeHeight = plane.height;
    this.width = width;
    this.rows = rows;
    this.topAt = slot;
    this.bottomAt = slot + width;
    this.topIndex = -1;
    this.bottomIndex = -1;
    this.atWorkingSize = plane.width === width && plane.height === height;
    if (this.atWorkingSize) {
      this.bottomAt = this.topAt;
      this.topWeight = WHOLE_TOP;
      this.bottomWeight = 0;
      return;
    }
    this.planeScale = plane.scale;
    const columns = upsampleTaps(width, plane.width, plane.scale);
    const rowTaps = upsampleTaps(height, plane.height, plane.scale);
    this.columnIndex = columns.index;
    this.columnWeight = columns.weight;
    this.rowIndex = rowTaps.index;
    this.rowWeight = rowTaps.weight;
  }

  /** Lets go of the plane and the buffer (garbage once the page is made). */
  release(): void {
    this.data = new Uint16Array(0);
    this.rows = this.columnIndex = this.columnWeight = this.rowIndex = this.rowWeight = new Int32Array(0);
  }

  /** Makes the pair and weights for working row y. */
  select(y: number): void {
    if (this.atWorkingSize) {
      const start = y * this.width;
      this.rows.set(this.data.subarray(start, start + this.width), this.topAt);
      return;
    }
    const i = this.rowIndex[y];
    const weight = this.rowWeight[y];
    this.topWeight = 256 - weight;
    this.bottomWeight = weight;
    const j = Math.min(i + 1, this.planeHeight - 1);
    if (this.topIndex === i && this.bottomIndex === j) return;
    if (this.bottomIndex === i) {
      const t = this.topAt;
      this.topAt = this.bottomAt;
      this.bottomAt = t;
      this.topIndex = i;
      this.bottomIndex = -1;
    } else if (this.topIndex !== i) {
      this.upsampleRow(this.topAt, i);
      this.topIndex = i;
    }
    if (this.bottomIndex !== j) {
      this.upsampleRow(this.bottomAt, j);
      this.bottomIndex = j;
    }
  }

  private upsampleRow(at: number, y: number): void {
    upsamplePlaneRow(this.data, y * this.planeWidth, this.planeWidth, this.planeScale, this.columnIndex, this.columnWeight, this.rows, at, this.width);
  }
}

/**
 * Plane row `row` (its first sample's index) upsampled along x to `width` values (8.8 × 16) at
 * out[at ..), by the bilinear taps of upsampleTaps (index, weight).
 *
 * Between the first and the last sample, working pixel scale × i + scale / 2 + k reads samples
 * i and i + 1 with weight (k + ½) / scale, the same for every i (64 and 192 in 1/256ths at scale
 * 2; 32, 96, 160 and 224 at scale 4, the small photos' blur and surround). Those pixels go sample
 * by sample without the tables (render stage of a 512 px photo 3.8 → 3.4 ms); the borders
 * (clamped to the edge samples) and other scales use them.
 */
export function upsamplePlaneRow(
  data: Uint16Array,
  row: number,
  planeWidth: number,
  scale: number,
  index: Int32Array,
  weight: Int32Array,
  out: Int32Array,
  at: number,
  width: number,
): void {
  const next = planeWidth > 1 ? 1 : 0;
  const patterned = (scale === 2 || scale === 4) && planeWidth > 1;
  const interiorStart = patterned ? Math.min(width, scale >> 1) : width;
  const interiorEnd = patterned ? Math.max(interiorStart, Math.min(width, scale * (planeWidth - 1) + (scale >> 1))) : width;
  for (let x = 0; x < interiorStart; x++) out[at + x] = taps(data, row + index[x], next, weight[x]);
  if (scale === 2) upsampleByTwo(data, row, out, at + interiorStart, interiorEnd - interiorStart);
  else if (patterned) upsampleByFour(data, row, out, at + interiorStart, interiorEnd - interiorStart);
  for (let x = interiorEnd; x < width; x++) out[at + x] = taps(data, row + index[x], next, weight[x]);
}

/** One upsampled value from two samples and the second one's weight in 1/256ths (8.8 × 16). */
function taps(data: Uint16Array, i: number, next: number, weight: number): number {
  return (data[i] * (256 - weight) + data[i + next] * weight + 8) >> 4;
}

/**
 * `count` upsampled values from samples row, row + 1, ...: two per pair of samples, weights 64
 * and 192 (a × (256 - w) + b × w + 8 written a × 256 + 8 + (b - a) × w: the same integers).
 */
function upsampleByTwo(data: Uint16Array, row: number, out: Int32Array, at: number, count: number): void {
  const pairs = count >> 1;
  for (let i = 0; i < pairs; i++) {
    const a = (data[row + i] << 8) + 8;
    const difference = data[row + i + 1] - data[row + i];
    out[at + 2 * i] = (a + 64 * difference) >> 4;
    out[at + 2 * i + 1] = (a + 192 * difference) >> 4;
  }
  if (count & 1) out[at + count - 1] = ((data[row + pairs] << 8) + 8 + 64 * (data[row + pairs + 1] - data[row + pairs])) >> 4;
}

/** As upsampleByTwo for a scale of 4: four values per pair of samples, weights 32, 96, 160, 224. */
function upsampleByFour(data: Uint16Array, row: number, out: Int32Array, at: number, count: number): void {
  const quads = count >> 2;
  for (let i = 0; i < quads; i++) {
    const a = (data[row + i] << 8) + 8;
    const difference = data[row + i + 1] - data[row + i];
    const x = at + 4 * i;
    out[x] = (a + 32 * difference) >> 4;
    out[x + 1] = (a + 96 * difference) >> 4;
    out[x + 2] = (a + 160 * difference) >> 4;
    out[x + 3] = (a + 224 * difference) >> 4;
  }
  const a = (data[row + quads] << 8) + 8;
  const difference = count & 3 ? data[row + quads + 1] - data[row + quads] : 0;
  for (let k = 0, x = at + 4 * quads; k < (count & 3); k++, x++) out[x] = (a + (64 * k + 32) * difference) >> 4;
}

const BLURRED_ROWS = new PlaneRows();
const SURROUND_ROWS = new PlaneRows();

/**
 * The render pass's row buffer, kept for the isolate's life and grown as needed (no allocation
 * and zero-fill per photo): a pair of rows per reduced plane (blurred, surround).
 */
let renderRows = new Int32Array(0);

/** The render pass's constants, derived from the tuning once per page; one object, kept. */
class RenderSettings {
  offset = 0;
  dodgeScale = 0;
  blackScaled = 0;
  rawPerEdgeUnit = 0;
  gradientScale = 0;
  edgeLow = 0;
  edgeScale = 0;
  edgeMax = 0;
  paperLevel = 0;
  edgeSuppression = 0;
  dodgeSuppression = 0;

  set(tuning: SketchTuning, edgeSigma: number, gridScale: number): void {
    this.offset = tuning.dodgeOffset * 256;
    const levelsScale = 255 / (tuning.levelsWhite - tuning.levelsBlack);
    this.dodgeScale = 255 * levelsScale;
    this.blackScaled = tuning.levelsBlack * levelsScale;
    // Smoothing by sigma lowers a step edge's gradient by about 1/sigma; multiplying by sigma keeps
    // the thresholds meaning the same contrast at every scale. /256 undoes the 8.8 fixed point.
    // On a grid of gridScale working pixels per pixel the Sobel sum spans gridScale times as far.
    const gain = gridScale > 1 ? HALF_GRID_SOBEL_GAIN : 1;
    this.gradientScale = (Math.max(1, edgeSigma) * gain) / (256 * gridScale);
    this.rawPerEdgeUnit = 1 / this.gradientScale;
    this.edgeLow = tuning.edgeLow;
    this.edgeScale = tuning.edgeDarkening / (tuning.edgeHigh - tuning.edgeLow);
    this.edgeMax = tuning.edgeDarkening;
    this.paperLevel = tuning.weakLevel;
    this.edgeSuppression = tuning.surroundSuppression / SURROUND_FIXED;
    this.dodgeSuppression = tuning.dodgeSuppression / SURROUND_FIXED;
  }
}

const SETTINGS = new RenderSettings();

/**
 * The fused pass: the three planes a working row at a time; dodge, Sobel, levels, both lessened
 * by the surround (texture). Pixels as light as weakLevel or lighter are written as white paper
 * (what binarise would make them). The result is still grey: binarise decides what is a line.
 *
 * When the smoothed plane is at half size (photos of about 1100 px and more: edge sigma 1.3 and
 * up), the pass runs on its grid and the grey page is upsampled: every plane it reads is at that
 * size or smaller, so at full size it only interpolated them, at four times the pixels. The
 * pages are the same but for a fringe pixel here and there; the whole job of a 1600-2560 px photo
 * costs 10-18 % less (decision 004).
 */
export function renderPage(
  page: Uint8Array,
  width: number,
  height: number,
  smoothed: FixedPlane,
  blurred: FixedPlane,
  surround: FixedPlane,
  edgeSigma: number,
  tuning: SketchTuning,
): void {
  if (smoothed.scale !== 2) {
    renderGrid(page, width, height, { smoothed, blurred, surround }, edgeSigma, tuning, 1);
    return;
  }
  const { width: gridWidth, height: gridHeight } = smoothed;
  const grid = new Uint8Array(gridWidth * gridHeight);
  // Scales in pixels of the grid, not working pixels.
  const onGrid = { smoothed: { ...smoothed, scale: 1 }, blurred: { ...blurred, scale: blurred.scale / 2 }, surround: { ...surround, scale: surround.scale / 2 } };
  renderGrid(grid, gridWidth, gridHeight, onGrid, edgeSigma, tuning, 2);
  upsampleGrid(grid, gridWidth, gridHeight, page, width, height);
}

/** The three planes the fused pass reads. */
interface PassPlanes {
  smoothed: FixedPlane;
  blurred: FixedPlane;
  surround: FixedPlane;
}

/**
 * The fused pass on a grid of gridScale working pixels per pixel (1 or 2), width x height of it.
 * The smoothed plane is always at the grid's size (the base plane of a small photo, the half
 * grid of a large one), so the Sobel stencil reads it in place: its rows above, at and below
 * the current one, the border rows and columns repeating their edge.
 */
function renderGrid(page: Uint8Array, width: number, height: number, { smoothed, blurred, surround }: PassPlanes, edgeSigma: number, tuning: SketchTuning, gridScale: number): void {
  if (smoothed.width !== width || smoothed.height !== height) throw new RangeError("the smoothed plane is not at the render grid's size");
  if (renderRows.length < 4 * width) renderRows = new Int32Array(4 * width);
  BLURRED_ROWS.reset(blurred, width, height, renderRows, 0);
  SURROUND_ROWS.reset(surround, width, height, renderRows, 2 * width);
  SETTINGS.set(tuning, edgeSigma, gridScale);
  for (let y = 0; y < height; y++) {
    BLURRED_ROWS.select(y);
    SURROUND_ROWS.select(y);
    const middleAt = y * width;
    const aboveAt = y > 0 ? middleAt - width : middleAt;
    const belowAt = y + 1 < height ? middleAt + width : middleAt;
    pageRow(page, width, smoothed.data, aboveAt, middleAt, belowAt, renderRows, BLURRED_ROWS, SURROUND_ROWS, SETTINGS);
  }
  BLURRED_ROWS.release();
  SURROUND_ROWS.release();
}

/**
 * The grey page of the half grid, bilinearly upsampled to width x height: working pixel x sits at
 * (x + 0.5) / 2 - 0.5 on the grid, as for the planes the full-size pass upsamples.
 *
 * Each grid row is upsampled along x once, into one of a pair of rows kept (× 256, exact), and
 * every page row blends the pair it falls between, as PlaneRows.select does for the planes: a
 * grid row serves up to four page rows, which interpolated it along x each time over (render
 * stage of a 1600 px photo 18.6 → 16.3 ms; the same page).
 *
 * Most of a page is paper, and between paper cells the interpolation gives paper exactly (its
 * weights sum to one). So the page's columns go in chunks of PAPER_CHUNK pixels, and each grid
 * row notes which chunks read a cell that is not paper: a chunk that neither grid row of its
 * pair marks is written as paper without interpolating (upsampling a 1600 x 1000 page
 * 8.2 → 6.4 ms, a 12 MP photo's render stage 65 → 48 ms; the same pages).
 */
export function upsampleGrid(grid: Uint8Array, gridWidth: number, gridHeight: number, page: Uint8Array, width: number, height: number): void {
  const columns = upsampleTaps(width, gridWidth, 2);
  const rowTaps = upsampleTaps(height, gridHeight, 2);
  const next = gridWidth > 1 ? 1 : 0;
  const chunks = Math.ceil(width / PAPER_CHUNK);
  if (gridRows.length < 2 * width) gridRows = new Int32Array(2 * width);
  if (gridInk.length < 2 * chunks) gridInk = new Uint8Array(2 * chunks);
  const rows = gridRows;
  const ink = gridInk;
  // The pair in two slots (slot s: rows[s × width ..] and its chunk marks ink[s × chunks ..]):
  // the top grid row in topSlot, the bottom one in the other; which grid rows they hold (-1: none yet).
  let topSlot = 0;
  let topRow = -1;
  let bottomRow = -1;
  for (let y = 0; y < height; y++) {
    const top = rowTaps.index[y];
    const bottom = Math.min(top + 1, gridHeight - 1);
    if (topRow !== top) {
      if (bottomRow === top) {
        // Moving down a grid row: the bottom slot becomes the top one, not made again.
        topSlot = 1 - topSlot;
        bottomRow = -1;
      } else {
        upsampleGridRow(grid, top * gridWidth, columns, next, rows, ink, topSlot, width, chunks);
      }
      topRow = top;
    }
    if (bottomRow !== bottom) {
      upsampleGridRow(grid, bottom * gridWidth, columns, next, rows, ink, 1 - topSlot, width, chunks);
      bottomRow = bottom;
    }
    blendGridRows(rows, ink, topSlot, rowTaps.weight[y], page, y * width, width, chunks);
  }
}

/** Page columns per chunk that upsampleGrid writes as paper when no cell it reads is ink. */
const PAPER_CHUNK = 16;
/** Paper (255) × 256, as upsampleGridRow stores it. */
const PAPER_FIXED = 255 * 256;

/** upsampleGrid's two slots: grid rows upsampled along x, and their chunk marks (kept for the isolate's life, grown as needed). */
let gridRows = new Int32Array(0);
let gridInk = new Uint8Array(0);

/**
 * Grid row `from` upsampled along x to width pixels (× 256) into slot `slot` of `rows`, and per
 * chunk of PAPER_CHUNK pixels in the slot's `ink` whether any cell it reads is not paper.
 */
function upsampleGridRow(grid: Uint8Array, from: number, { index, weight }: Taps, next: number, rows: Int32Array, ink: Uint8Array, slot: number, width: number, chunks: number): void {
  const at = slot * width;
  for (let x0 = 0, chunk = slot * chunks; x0 < width; x0 += PAPER_CHUNK, chunk++) {
    const x1 = Math.min(width, x0 + PAPER_CHUNK);
    let reads = 0;
    for (let i = from + index[x0], last = from + index[x1 - 1] + next; i <= last; i++) reads |= grid[i] ^ 255;
    ink[chunk] = reads === 0 ? 0 : 1;
    if (reads === 0) {
      for (let x = x0; x < x1; x++) rows[at + x] = PAPER_FIXED;
      continue;
    }
    for (let x = x0; x < x1; x++) {
      const i = from + index[x];
      const wx = weight[x];
      rows[at + x] = grid[i] * (256 - wx) + grid[i + next] * wx;
    }
  }
}

/**
 * One page row: the grid rows in topSlot and the other slot blended by wy / 256, rounded; the
 * chunks neither slot marks are paper.
 */
function blendGridRows(rows: Int32Array, ink: Uint8Array, topSlot: number, wy: number, page: Uint8Array, at: number, width: number, chunks: number): void {
  const wTop = 256 - wy;
  const topAt = topSlot * width;
  const bottomAt = (1 - topSlot) * width;
  const topInk = topSlot * chunks;
  const bottomInk = (1 - topSlot) * chunks;
  for (let x0 = 0, chunk = 0; x0 < width; x0 += PAPER_CHUNK, chunk++) {
    const x1 = Math.min(width, x0 + PAPER_CHUNK);
    if ((ink[topInk + chunk] | ink[bottomInk + chunk]) === 0) {
      for (let x = x0; x < x1; x++) page[at + x] = 255;
      continue;
    }
    for (let x = x0; x < x1; x++) page[at + x] = (rows[topAt + x] * wTop + rows[bottomAt + x] * wy + 32768) >> 16;
  }
}

/**
 * One row of the page (a function of its own so the JIT optimises it as a whole). The Sobel
 * stencil is separable: per column c, V = above + 2 middle + below and D = below - above;
 * gx = V[c+1] - V[c-1], gy = D[c-1] + 2 D[c] + D[c+1]. Two columns are carried in locals, so each
 * pixel reads one new column (three values of the smoothed plane, read in place) and the blurred
 * and surround pairs. Those pairs are in the one `rows` buffer and the constants come from one
 * settings object: with eight row arrays and 23 parameters the same loop was about a sixth
 * slower (render stage of a 2560 x 1600 photo 108 → 90 ms, all planes reduced there). Indices
 * and the integer sums are truncated (`| 0`, Math.imul), which they never need (a row is at most
 * 3300 wide, a product at most 2^28): without it, V8 checks every addition and product for
 * overflow (the render stage of a 512 px photo 4.00 → 3.84 ms, the same page).
 */
function pageRow(
  page: Uint8Array,
  width: number,
  smoothed: Uint16Array,
  aboveAt: number,
  middleAt: number,
  belowAt: number,
  rows: Int32Array,
  blurred: PlaneRows,
  surrounds: PlaneRows,
  settings: RenderSettings,
): void {
  const { topAt: blurTopAt, bottomAt: blurBottomAt, topWeight: blurTopWeight, bottomWeight: blurBottomWeight } = blurred;
  const { topAt: surroundTopAt, bottomAt: surroundBottomAt, topWeight: surroundTopWeight, bottomWeight: surroundBottomWeight } = surrounds;
  const { offset, dodgeScale, blackScaled, rawPerEdgeUnit, gradientScale, edgeLow, edgeScale, edgeMax, paperLevel, edgeSuppression, dodgeSuppression } = settings;
  // Columns -1 and 0 (the left border repeats column 0).
  let v0 = smoothed[aboveAt] + 2 * smoothed[middleAt] + smoothed[belowAt];
  let d0 = smoothed[belowAt] - smoothed[aboveAt];
  let v1 = v0;
  let d1 = d0;
  let m1 = smoothed[middleAt];
  const last = width - 1;
  for (let x = 0; x < width; x++) {
    // Column x + 1 (the right border repeats the last column).
    const right = x < last ? (x + 1) | 0 : x;
    const a2 = smoothed[(aboveAt + right) | 0];
    const m2 = smoothed[(middleAt + right) | 0];
    const b2 = smoothed[(belowAt + right) | 0];
    const v2 = (a2 + 2 * m2 + b2) | 0;
    const d2 = (b2 - a2) | 0;
    const blur = (Math.imul(rows[(blurTopAt + x) | 0], blurTopWeight) + Math.imul(rows[(blurBottomAt + x) | 0], blurBottomWeight) + 2048) >> 12;
    const surround = (Math.imul(rows[(surroundTopAt + x) | 0], surroundTopWeight) + Math.imul(rows[(surroundBottomAt + x) | 0], surroundBottomWeight) + 2048) >> 12;
    const gx = (v2 - v0) | 0;
    const gy = (d0 + 2 * d1 + d2) | 0;
    const squared = gx * gx + gy * gy;
    // An edge adds ink only when it beats edgeLow plus its share of the surround: compared as raw
    // squared magnitudes, most pixels (flat or in a texture) skip the square root.
    const least = (edgeLow + surround * edgeSuppression) * rawPerEdgeUnit;
    const edge = squared > least * least;
    // Most of a page is paper: no edge, and a dodge at least paperLevel. That test multiplied out
    // (blur + offset > 0) spares those pixels the division; the rest take it below. Pixels just
    // under paperLevel take the long way and still round to paper there, so the page is the same.
    const lift = surround * dodgeSuppression - blackScaled;
    if (!edge && (m1 + offset) * dodgeScale >= (paperLevel - lift) * (blur + offset)) {
      page[middleAt + x] = 255;
    } else {
      // Dodge, then levels, in one step; lightened where the surroundings are busy (texture).
      let value = ((m1 + offset) * dodgeScale) / (blur + offset) - blackScaled + surround * dodgeSuppression;
      if (value > 255) value = 255;
      else if (value < 0) value = 0;
      if (edge) {
        let ink = (Math.sqrt(squared) * gradientScale - surround * edgeSuppression - edgeLow) * edgeScale;
        if (ink > edgeMax) ink = edgeMax;
        if (ink > 0) value *= 1 - ink;
      }
      const v = (value + 0.5) | 0;
      page[middleAt + x] = v >= paperLevel ? 255 : v;
    }
    v0 = v1;
    v1 = v2;
    d0 = d1;
    d1 = d2;
    m1 = m2;
  }
}
