// The colourability table of bench/run.mjs: per photo and detail level, what the region engine's "Must
// show" asks of a page at print size (bench/level-figures.ts measures it), each figure against
// the issue's goal, a summary line over all pages, and the pages as a contact sheet and as 100 %
// crops.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const LEVELS = ["simple", "standard", "detailed"];

/** The region engine's goals for a page (decision 016); a figure that misses its goal is printed with a trailing "!". */
export const GOALS = {
  boundingShare: { min: 0.95 },
  freeEndsPerMetre: { max: 30 },
  edgePrecision: { min: 0.85 },
  outlineSurvival: { min: 0.45 },
  greyShare: { max: 0.02 },
  specksPerMegapixel: { max: 50 },
  inkShare: { max: 0.15 },
  nesting: { min: 0.9 },
};

/**
 * Runs per level, best taken: a single run of the job was now and then several times its usual
 * time (the astronaut's first level: 1.6 s against 0.3 s, after the timing tables); the first
 * level change meets the cold code of unpack and draw.
 */
export const JOB_RUNS = 2;
const LEVEL_CHANGE_RUNS = 3;
/** The 100 % crops: page pixels from the page's centre (3300 px long edge, 300 dpi: 85 x 59 mm). */
const CROP_WIDTH = 1000;
const CROP_HEIGHT = 700;
/** Around each face's crop, this share of the face's box on every side, so that its outline and hair show. */
const FACE_CROP_MARGIN = 0.25;
/** Pages are kept for the contact sheet reduced by this (its cells are smaller still). */
const SHEET_REDUCTION = 4;

/**
 * One photo's three levels. `runLevel(level)` runs the whole job at that level (bench/job.ts
 * runJob's result); the level changes start from the photo's regions as stored in R2, packed
 * once (every level's job builds the same hierarchy).
 */
export async function measureLevels(job, runLevel) {
  const runs = [];
  for (const level of LEVELS) runs.push(await runLevel(level));
  const stored = job.packRegions(runs[0].regions);
  const levels = [];
  for (let k = 0; k < LEVELS.length; k++) {
    const level = LEVELS[k];
    const run = runs[k];
    let levelChangeMs = Infinity;
    for (let i = 0; i < LEVEL_CHANGE_RUNS; i++) levelChangeMs = Math.min(levelChangeMs, (await job.levelChange(stored, level)).ms);
    levels.push({
      level,
      ...job.levelFigures(run.regions, level, run.page),
      // How much of this level's drawing the next finer level keeps.
      nesting: k + 1 < LEVELS.length ? job.nestingShare(run.page, runs[k + 1].page) : null,
      score: run.report.score,
      jobMs: run.timing.total_ms,
      levelChangeMs,
      page: run.page,
    });
  }
  return { levels, storedBytes: stored.length, sourceWidth: runs[0].timing.sourceWidth, sourceHeight: runs[0].timing.sourceHeight };
}

/** A level's figures without its page, for --json: snake_case keys as the rest of that file, ms to 0.1, shares to 1e-4. */
export function levelJson({ page, ...figures }) {
  return Object.fromEntries(
    Object.entries(figures).map(([key, value]) => {
      const name = key.replace(/Ms$/, "_ms").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      const places = name.endsWith("_ms") ? 10 : 1e4;
      return [name, typeof value === "number" ? Math.round(value * places) / places : value];
    }),
  );
}

/** The table's figures: title, the level's field (null: no single figure), how it is printed. */
const COLUMNS = [
  ["bound", "boundingShare", (v) => (v === null ? "no line" : v.toFixed(3))],
  ["ends/m", "freeEndsPerMetre", (v) => v.toFixed(1)],
  ["strokes", "strokeShare", (v) => `${(v * 100).toFixed(0)} %`],
  ["colourable", "colourableShare", (v) => v.toFixed(3)],
  ["edges", "edgePrecision", (v) => v.toFixed(3)],
  ["outlines", "outlineSurvival", (v) => v.toFixed(3)],
  ["grey", "greyShare", (v) => `${(v * 100).toFixed(1)} %`],
  ["specks/MP", "specksPerMegapixel", (v) => v.toFixed(0)],
  ["ink", "inkShare", (v) => `${(v * 100).toFixed(1)} %`],
  ["width mm", "lineWidthMm", (v) => v.toFixed(2)],
  ["regions", null, (level) => `${level.regionCount}/${level.hierarchyRegions}`],
  ["nesting", "nesting", (v) => (v === null ? "-" : v.toFixed(3))],
  ["score", "score", (v) => String(v)],
  ["job ms", "jobMs", (v) => v.toFixed(0)],
  ["level ms", "levelChangeMs", (v) => v.toFixed(0)],
].map(([title, key, format]) => ({ title, key, format }));
const LABEL_WIDTH = 40;
const CELL_WIDTH = 11;

function misses(key, value) {
  const goal = GOALS[key];
  return goal !== undefined && value !== null && ((goal.min !== undefined && value < goal.min) || (goal.max !== undefined && value > goal.max));
}

export function printLevelHeader() {
  console.log("Per photo and level, each page measured at print size (3300 px long edge, 300 dpi); ! = misses its goal");
  console.log("  bound = share of the region lines with different regions on their two sides (>= 0.95; 'no line' on a blank page); ends/m = free ends per metre of");
  console.log("  region line (<= 30); both without the feature strokes, open by design (decision 033); strokes = the feature strokes' share of the ink;");
  console.log("  colourable = share of the page in regions of 0.25 cm² to 15 % of the page; edges = share of the line within ~0.5 mm of a photo edge");
  console.log("  (the toned analysis grey, as the score reads it; >= 0.85); outlines = share of the photo's strong outlines with ink within ~1 mm (>= 0.45);");
  console.log("  grey (<= 2 %), specks/MP (marks under 1 mm², <= 50), ink (<= 15 %); width = the line's width, 99th percentile over its length;");
  console.log("  regions = white regions of >= 1 mm² on the page / regions of the level's cut of the hierarchy; nesting = share of this level's line");
  console.log("  within 0.5 mm of the next finer level's ink (simple in standard, standard in detailed; >= 0.9); job ms = the whole job at this");
  console.log(`  level (decode, regions, draw, the three levels' scores, PNG; best of ${JOB_RUNS} after a warm-up); level ms = a level change once the`);
  console.log(`  photo's regions are read from R2: unpack + draw + PNG, the score being stored with the regions (best of ${LEVEL_CHANGE_RUNS}).`);
  console.log("photo".padEnd(LABEL_WIDTH) + "level".padStart(9) + COLUMNS.map(({ title }) => title.padStart(CELL_WIDTH)).join(""));
}

export function printLevelRows(photo, { levels, storedBytes }) {
  for (const level of levels) {
    const cells = COLUMNS.map(({ key, format }) => (key ? format(level[key]) + (misses(key, level[key]) ? "!" : " ") : format(level) + " ").padStart(CELL_WIDTH));
    const label = level === levels[0] ? photo.label.slice(0, LABEL_WIDTH - 1) : level === levels[1] ? `  (stored ${(storedBytes / 1024).toFixed(0)} KB)` : "";
    console.log(label.padEnd(LABEL_WIDTH) + level.level.padStart(9) + cells.join(""));
  }
}

/**
 * Under the table: each figure's least and greatest over all pages and its misses, and whether
 * the regions grow strictly from simple to standard to detailed on every photo.
 */
export function printLevelSummary(rows) {
  const pages = rows.flatMap((row) => row.levels);
  const ranges = COLUMNS.filter(({ key }) => key).map(({ title, key, format }) => {
    const values = pages.map((level) => level[key]).filter((v) => v !== null);
    const missed = values.filter((v) => misses(key, v)).length;
    return `${title} ${format(Math.min(...values))}..${format(Math.max(...values))}${missed ? ` (${missed} miss)` : ""}`;
  });
  const regions = pages.map((level) => level.regionCount);
  ranges.splice(ranges.findIndex((r) => r.startsWith("nesting")), 0, `regions ${Math.min(...regions)}..${Math.max(...regions)}`);
  const lines = [`Over all ${pages.length} pages (least..greatest):`];
  ranges.forEach((range, k) => {
    if (lines.at(-1).length + range.length > 140) lines.push(" ");
    lines[lines.length - 1] += ` ${range}${k < ranges.length - 1 ? ";" : ""}`;
  });
  console.log(`\n${lines.join("\n")}`);
  const regionCounts = ["hierarchyRegions", "regionCount"].map((key) => {
    const notGrowing = rows.filter(({ levels }) => !(levels[0][key] < levels[1][key] && levels[1][key] < levels[2][key]));
    return `${notGrowing.length ? `NOT on ${notGrowing.length} of ${rows.length} photos (${notGrowing.map((r) => r.photo.name).join(", ")})` : `on all ${rows.length} photos`}`;
  });
  console.log(`Regions grow strictly simple < standard < detailed: the hierarchy's cuts ${regionCounts[0]}; the pages' regions ${regionCounts[1]}`);
}

/**
 * The 100 % crops of one photo's pages, bench/out/crops/<photo>-<level>.png, and of each of its
 * faces (photo.faces, in the photo's pixels; `source` is the photo's size),
 * bench/out/crops/<photo>-face<n>-<level>.png; answers the pages reduced for the contact sheet.
 */
export async function cropsAndSheetPages(job, out, photo, levels, source) {
  const folder = join(out, "crops");
  mkdirSync(folder, { recursive: true });
  const sheetPages = [];
  for (const { level, page } of levels) {
    const width = Math.min(CROP_WIDTH, page.width);
    const height = Math.min(CROP_HEIGHT, page.height);
    const left = (page.width - width) >> 1;
    const top = (page.height - height) >> 1;
    const crop = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) crop.set(page.data.subarray((top + y) * page.width + left, (top + y) * page.width + left + width), y * width);
    writeFileSync(join(folder, `${photo.name}-${level}.png`), await job.encodeGrayPng({ data: crop, width, height }));
    for (const [k, box] of (photo.faces ?? []).entries()) {
      const number = String(k + 1).padStart(String(photo.faces.length).length, "0");
      const face = pageCrop(page, box, page.width / source.width, page.height / source.height);
      writeFileSync(join(folder, `${photo.name}-face${number}-${level}.png`), await job.encodeGrayPng(face));
    }
    sheetPages.push(job.areaResize(page, Math.ceil(page.width / SHEET_REDUCTION), Math.ceil(page.height / SHEET_REDUCTION)));
  }
  return sheetPages;
}

/** The page's pixels under a box of the photo (scaled by sx, sy to the page), with FACE_CROP_MARGIN around it. */
function pageCrop(page, [x, y, w, h], sx, sy) {
  const left = Math.max(0, Math.floor((x - w * FACE_CROP_MARGIN) * sx));
  const top = Math.max(0, Math.floor((y - h * FACE_CROP_MARGIN) * sy));
  const right = Math.min(page.width, Math.ceil((x + w * (1 + FACE_CROP_MARGIN)) * sx));
  const bottom = Math.min(page.height, Math.ceil((y + h * (1 + FACE_CROP_MARGIN)) * sy));
  const width = right - left;
  const height = bottom - top;
  const data = new Uint8Array(width * height);
  for (let row = 0; row < height; row++) data.set(page.data.subarray((top + row) * page.width + left, (top + row) * page.width + right), row * width);
  return { data, width, height };
}
