/**
 * The colourability measure of a finished page (docs/decisions/010-colourability-measure.md):
 * what a child with a crayon meets on the paper, measured from the pixels.
 *
 *   grey share    pixels neither paper (>= 235) nor ink (<= 80): shading a crayon cannot follow
 *   ink share     pixels <= 80
 *   specks / MP   marks (8-connected pixels darker than paper, so grey dots count too) smaller
 *                 than 1 mm² at 300 dpi (139 print pixels), per megapixel of the page at print size
 *   outlines      share of the photo's strong outlines with ink within about 1 mm (see below)
 *   edges         the same for all of the photo's strong edges, texture included (reported beside it)
 *   continuity    share of the marked pixels (ink or grey) in marks of at least 10 mm² (lines,
 *                 not fragments)
 *
 * Strong edges: the photo's grey, area-reduced to a quarter of the page's size (one cell = 4 × 4
 * page pixels, 1/3 mm), Sobel magnitude per cell of at least STRONG_EDGE_MIN grey levels and in
 * the top STRONG_EDGE_SHARE of the photo's cells. An edge survives when a page cell within one
 * cell of it (so within 4-8 page pixels) holds ink.
 *
 * Strong outlines: the strong edges whose chain (8-connected strong cells) reaches at least
 * OUTLINE_MIN_EXTENT_MM on the printed page. A pebble, a blade of grass or a fleck of noise is a
 * strong edge too, but a short one: counting those would score a page higher for drawing the
 * texture a colouring page should leave out (the boats on pebbles lost most of their "missing"
 * edges in the pebbles). The all-edges figure is kept beside it so nothing is hidden.
 */
import { PRINT_LONG_EDGE_PX } from "../../../app/core/engine-limits";
import { areaResize, findMarks, type GrayPlane, type Marks } from "../kernel";

export const PAPER_LEVEL = 235;
export const INK_LEVEL = 80;
/** 1 mm² at 300 dpi: (300 / 25.4)² ≈ 139 print pixels. */
export const SPECK_PRINT_PIXELS = 139;
export const LINE_PRINT_PIXELS = 10 * SPECK_PRINT_PIXELS;
/** A cell of the outline measures: this many print pixels (300 dpi) a side, 1/3 mm. */
export const OUTLINE_CELL = 4;
export const STRONG_EDGE_MIN = 24;
export const STRONG_EDGE_SHARE = 0.08;
/** An edge chain shorter than this on the printed page (mm) is texture, not an outline. */
export const OUTLINE_MIN_EXTENT_MM = 5;
const PRINT_LONG_EDGE_MM = (PRINT_LONG_EDGE_PX / 300) * 25.4;

/** What the page's pixels say, without the photo: what the quality score reads of them. */
export interface InkFigures {
  greyShare: number;
  inkShare: number;
  specksPerMegapixel: number;
  continuity: number;
}

export interface Colourability extends InkFigures {
  outlineSurvival: number;
  /** Like outlineSurvival over every strong edge, short ones (texture) included. */
  edgeSurvival: number;
}

export interface Survival {
  /** Share of the strong outlines (chains of at least OUTLINE_MIN_EXTENT_MM) with ink near them. */
  outlines: number;
  /** Share of all strong edges with ink near them. */
  edges: number;
}

export function measureColourability(source: GrayPlane, page: GrayPlane): Colourability {
  const { figures, marks } = inkOf(page);
  // No grey on the page (every finished page): the runs are exactly the ink, so the outline
  // measure reads them instead of scanning the page again.
  const survival = outlineSurvival(source, page, figures.greyShare === 0 ? marks : undefined);
  return { ...figures, outlineSurvival: survival.outlines, edgeSurvival: survival.edges };
}

/**
 * The page's grey, ink, specks and continuity: one pass over its marks, no photo. The quality
 * score reads only these (the outline figures are the bench's), so scoring a level skips them.
 */
export function measureInk(page: GrayPlane): InkFigures {
  return inkOf(page).figures;
}

function inkOf(page: GrayPlane): { figures: InkFigures; marks: Marks } {
  const { width, height } = page;
  const pixels = width * height;
  // One pass over the page: the marks (everything darker than paper), counting the ink among them.
  const marks = findMarks(page, PAPER_LEVEL, INK_LEVEL);
  const ink = marks.inkPixels;
  const grey = marks.markedPixels - ink;
  // Sizes at print size: a smaller page (a small photo) is printed larger, so its pixels count more.
  const printScale = PRINT_LONG_EDGE_PX / Math.max(width, height);
  const printPixelsPerPixel = printScale * printScale;
  let specks = 0;
  let lineInk = 0;
  for (let r = 0; r < marks.runCount; r++) {
    if (marks.parent[r] !== r) continue;
    const printSize = marks.size[r] * printPixelsPerPixel;
    if (printSize < SPECK_PRINT_PIXELS) specks++;
    else if (printSize >= LINE_PRINT_PIXELS) lineInk += marks.size[r]; // all non-paper pixels of long marks
  }
  const printMegapixels = (pixels * printPixelsPerPixel) / 1e6;
  const figures = {
    greyShare: pixels ? grey / pixels : 0,
    inkShare: pixels ? ink / pixels : 0,
    specksPerMegapixel: printMegapixels ? specks / printMegapixels : 0,
    continuity: ink + grey ? Math.min(1, lineInk / (ink + grey)) : 0,
  };
  return { figures, marks };
}

/**
 * See the module comment. 1 when the photo has no strong edge (nothing to lose). `inkRuns`: the
 * page's marks when every marked pixel is ink (then the ink is read from the runs, not the page).
 */
export function outlineSurvival(source: GrayPlane, page: GrayPlane, inkRuns?: Marks): Survival {
  const { cellsWide, cellsHigh } = outlineCells(source, page);
  const photo = areaResize(source, cellsWide, cellsHigh);
  let inked: Uint8Array;
  if (inkRuns) {
    inked = new Uint8Array(cellsWide * cellsHigh);
    const cellOfRow = new Int32Array(page.height);
    for (let y = 0; y < page.height; y++) cellOfRow[y] = Math.min(cellsHigh - 1, Math.floor((y * cellsHigh) / page.height)) * cellsWide;
    markInkedCellsFromRuns(inkRuns, inked, cellOfRow, cellsOfColumns(page, cellsWide));
  } else {
    inked = inkedCells(page, cellsWide, cellsHigh);
  }
  // Sobel magnitude / 4 (grey levels per cell) of the interior cells, and its histogram.
  const magnitude = new Uint16Array(cellsWide * cellsHigh);
  const histogram = new Float64Array(1024);
  for (let y = 1; y < cellsHigh - 1; y++) cellMagnitudeRow(photo.data, y, cellsWide, magnitude, histogram);
  const interior = (cellsWide - 2) * (cellsHigh - 2);
  let threshold = 1023;
  for (let seen = 0; threshold > 0; threshold--) {
    seen += histogram[threshold];
    if (seen >= STRONG_EDGE_SHARE * interior) break;
  }
  threshold = Math.max(STRONG_EDGE_MIN, threshold);
  const strongCells = new Uint8Array(cellsWide * cellsHigh);
  for (let y = 1; y < cellsHigh - 1; y++) markStrongRow(magnitude, strongCells, y, cellsWide, threshold);
  const minExtentCells = (OUTLINE_MIN_EXTENT_MM * Math.max(cellsWide, cellsHigh)) / PRINT_LONG_EDGE_MM;
  markLongChains(strongCells, cellsWide, minExtentCells);
  survivalTotals.fill(0);
  for (let y = 1; y < cellsHigh - 1; y++) survivalRow(strongCells, inked, y, cellsWide, survivalTotals);
  const [edges, edgesSurvived, outlines, outlinesSurvived] = survivalTotals;
  return { outlines: outlines ? outlinesSurvived / outlines : 1, edges: edges ? edgesSurvived / edges : 1 };
}

/**
 * The cells the outline measures compare photo and page on: OUTLINE_CELL print pixels a side
 * whatever the page's size (a page drawn at half print size for the score has cells of 2 of its
 * pixels), or one photo pixel where the photo is smaller: the photo is only ever reduced to them.
 */
export function outlineCells(source: GrayPlane, page: GrayPlane): { cellsWide: number; cellsHigh: number } {
  const pagePixelsPerCell = Math.max(1, Math.round((OUTLINE_CELL * Math.max(page.width, page.height)) / PRINT_LONG_EDGE_PX));
  return {
    cellsWide: Math.max(3, Math.min(source.width, Math.ceil(page.width / pagePixelsPerCell))),
    cellsHigh: Math.max(3, Math.min(source.height, Math.ceil(page.height / pagePixelsPerCell))),
  };
}

/**
 * The loops over cells are functions called per row of cells (compiled once, early), not loops in
 * outlineSurvival, which runs once per photo: there they were compiled on the spot (on-stack
 * replacement) and again over the first photos, at more CPU than the loops themselves.
 */
export function cellMagnitudeRow(d: Uint8Array, y: number, cellsWide: number, magnitude: Uint16Array, histogram: Float64Array): void {
  for (let x = 1; x < cellsWide - 1; x++) {
    const i = y * cellsWide + x;
    const up = i - cellsWide;
    const down = i + cellsWide;
    const gx = d[up + 1] + 2 * d[i + 1] + d[down + 1] - d[up - 1] - 2 * d[i - 1] - d[down - 1];
    const gy = d[down - 1] + 2 * d[down] + d[down + 1] - d[up - 1] - 2 * d[up] - d[up + 1];
    const m = Math.min(1023, Math.round(Math.sqrt(gx * gx + gy * gy) / 4));
    magnitude[i] = m;
    histogram[m]++;
  }
}

/** Cell values of the strong-edge grid. */
const NOT_STRONG = 0;
/** Strong, chain not yet looked at. */
const STRONG_UNSEEN = 1;
const IN_OUTLINE = 2;
/** Being gathered into its chain (before the chain's extent is known). */
const GATHERING = 3;
const IN_SHORT_CHAIN = 4;

/** Row y's cells at or above the threshold become STRONG_UNSEEN. */
function markStrongRow(magnitude: Uint16Array, strongCells: Uint8Array, y: number, cellsWide: number, threshold: number): void {
  for (let i = y * cellsWide + 1, end = (y + 1) * cellsWide - 1; i < end; i++) if (magnitude[i] >= threshold) strongCells[i] = STRONG_UNSEEN;
}

/**
 * Each chain of 8-connected strong cells becomes IN_OUTLINE when its bounding box reaches
 * minExtentCells (across or down), IN_SHORT_CHAIN otherwise. The grid's border cells are never strong, so no bounds checks.
 */
function markLongChains(strongCells: Uint8Array, cellsWide: number, minExtentCells: number): void {
  const chain = new Int32Array(strongCells.length);
  for (let seed = 0; seed < strongCells.length; seed++) {
    if (strongCells[seed] !== STRONG_UNSEEN) continue;
    strongCells[seed] = GATHERING;
    chain[0] = seed;
    let length = 1;
    let minX = seed % cellsWide, maxX = minX, minY = (seed / cellsWide) | 0, maxY = minY;
    for (let next = 0; next < length; next++) {
      const i = chain[next];
      const x = i % cellsWide;
      const y = (i / cellsWide) | 0;
      if (x < minX) minX = x; else if (x > maxX) maxX = x;
      if (y < minY) minY = y; else if (y > maxY) maxY = y;
      for (let dy = -cellsWide; dy <= cellsWide; dy += cellsWide) {
        for (let j = i + dy - 1; j <= i + dy + 1; j++) {
          if (strongCells[j] !== STRONG_UNSEEN) continue;
          strongCells[j] = GATHERING;
          chain[length++] = j;
        }
      }
    }
    const value = Math.max(maxX - minX, maxY - minY) + 1 >= minExtentCells ? IN_OUTLINE : IN_SHORT_CHAIN;
    for (let k = 0; k < length; k++) strongCells[chain[k]] = value;
  }
}

/** Strong edges [0] and those with ink within one cell [1]; the same for outline edges [2], [3]. */
const survivalTotals = new Int32Array(4);

/** Adds row y's strong cells (all, and those in outlines), and those with ink within one cell, to totals. */
function survivalRow(strongCells: Uint8Array, inked: Uint8Array, y: number, cellsWide: number, totals: Int32Array): void {
  let strong = 0;
  let survived = 0;
  let outline = 0;
  let outlineSurvived = 0;
  for (let x = 1; x < cellsWide - 1; x++) {
    const i = y * cellsWide + x;
    const cell = strongCells[i];
    if (cell === NOT_STRONG) continue;
    strong++;
    if (cell === IN_OUTLINE) outline++;
    const up = i - cellsWide;
    const down = i + cellsWide;
    if (inked[up - 1] | inked[up] | inked[up + 1] | inked[i - 1] | inked[i] | inked[i + 1] | inked[down - 1] | inked[down] | inked[down + 1]) {
      survived++;
      if (cell === IN_OUTLINE) outlineSurvived++;
    }
  }
  totals[0] += strong;
  totals[1] += survived;
  totals[2] += outline;
  totals[3] += outlineSurvived;
}

/** Each page column's cell, when the page is cut into `cellsWide` columns of cells (looked up, not divided, per pixel). */
function cellsOfColumns(page: GrayPlane, cellsWide: number): Int32Array {
  const cellOfColumn = new Int32Array(page.width);
  for (let x = 0; x < page.width; x++) cellOfColumn[x] = Math.min(cellsWide - 1, Math.floor((x * cellsWide) / page.width));
  return cellOfColumn;
}

/**
 * The page cut into cellsWide × cellsHigh cells: 1 where any page pixel of the cell holds ink.
 * Paper is skipped four pixels at a time where the bytes are aligned.
 */
export function inkedCells(page: GrayPlane, cellsWide: number, cellsHigh: number): Uint8Array {
  const inked = new Uint8Array(cellsWide * cellsHigh);
  const cellOfColumn = cellsOfColumns(page, cellsWide);
  const aligned = page.data.byteOffset % 4 === 0;
  const words = new Uint32Array(page.data.buffer, page.data.byteOffset, aligned ? page.data.length >> 2 : 0);
  for (let y = 0; y < page.height; y++) {
    const row = y * page.width;
    const cellRow = Math.min(cellsHigh - 1, Math.floor((y * cellsHigh) / page.height)) * cellsWide;
    for (let x = 0; x < page.width; x++) {
      const i = row + x;
      if (aligned && (i & 3) === 0 && x + 4 <= page.width && words[i >> 2] === 0xffffffff) {
        x += 3;
        continue;
      }
      if (page.data[i] <= INK_LEVEL) inked[cellRow + cellOfColumn[x]] = 1;
    }
  }
  return inked;
}

/** Ink per cell from the runs of a page whose marks are all ink (per run, not per page pixel). */
function markInkedCellsFromRuns({ runCount, runRow, runStart, runEnd }: Marks, inked: Uint8Array, cellOfRow: Int32Array, cellOfColumn: Int32Array): void {
  for (let r = 0; r < runCount; r++) {
    // The cells of a run's columns are consecutive: mark the range, not each pixel's cell.
    const cellRow = cellOfRow[runRow[r]];
    for (let c = cellRow + cellOfColumn[runStart[r]], last = cellRow + cellOfColumn[runEnd[r] - 1]; c <= last; c++) inked[c] = 1;
  }
}
