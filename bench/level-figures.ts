/**
 * What the region engine's goals (decision 016) ask of each page, per photo and detail level, for bench/run.mjs
 * (bundled with bench/job.ts): the page read as lines (measure/lines/) and as pixels
 * (measure/pixels.ts), its regions, how much of it the next finer level keeps, and what a level change
 * costs the Worker once the photo's regions are stored.
 */
import { type DetailLevel } from "../app/core/engine-limits";
import { encodeGrayPng } from "../workers/sketch/encode";
import { drawLevel, regionCountAt, type GrayPlane } from "../workers/sketch/kernel";
import { edgePrecision, measureLines } from "../workers/sketch/measure/lines";
import { measureColourability } from "../workers/sketch/measure/pixels";
import { renderLevel } from "../workers/sketch/pipeline";
import { packRegions, unpackRegions, type StoredRegions } from "../workers/sketch/stored-regions";

export { nestingShare } from "../workers/sketch/measure/lines";
export { packRegions };

export interface LevelFigures {
  /** Of the region lines alone (the feature strokes are open by design: decision 033); null on a page without lines. */
  boundingShare: number | null;
  freeEndsPerMetre: number;
  /** The feature strokes' share of the page's ink. */
  strokeShare: number;
  colourableShare: number;
  /** Share of the page's lines within about 0.5 mm of an edge of the photo (its toned grey, as the score reads it). */
  edgePrecision: number;
  /** Share of the photo's strong outlines with ink near them. */
  outlineSurvival: number;
  greyShare: number;
  specksPerMegapixel: number;
  inkShare: number;
  lineWidthMm: number;
  lineMetres: number;
  /** White regions of at least 1 mm² on the page (measureLines). */
  regionCount: number;
  /** Regions of the level's cut of the hierarchy (regionCountAt). */
  hierarchyRegions: number;
}

/**
 * The figures of one level's page. The colourability figures are measured here rather than read
 * from the score's report, so they keep their meaning whatever the score's formula becomes.
 */
export function levelFigures({ hierarchy, photo }: StoredRegions, level: DetailLevel, page: GrayPlane): LevelFigures {
  const lines = measureLines(page);
  const colour = measureColourability(photo.grey, page);
  // Closure is a property of the region lines: measured on the page drawn without its strokes.
  const regionLines = measureLines(drawLevel(hierarchy, level, 1, { strokes: false }));
  return {
    // A blank page has no line to bound anything: no figure, rather than 0 (or 1).
    boundingShare: regionLines.lineMetres > 0 ? regionLines.boundingShare : null,
    freeEndsPerMetre: regionLines.freeEndsPerMetre,
    strokeShare: lines.inkShare > 0 ? Math.max(0, 1 - regionLines.inkShare / lines.inkShare) : 0,
    colourableShare: lines.colourableShare,
    edgePrecision: edgePrecision(photo.grey, page),
    outlineSurvival: colour.outlineSurvival,
    greyShare: colour.greyShare,
    specksPerMegapixel: colour.specksPerMegapixel,
    inkShare: lines.inkShare,
    lineWidthMm: lines.lineWidthMm,
    lineMetres: lines.lineMetres,
    regionCount: lines.regionCount,
    hierarchyRegions: regionCountAt(hierarchy, level),
  };
}

/**
 * A level change as the Worker makes it once it has read the photo's regions from R2 (the read
 * itself not counted): unpack, draw and score the level's page, encode the PNG. Wall ms.
 */
export async function levelChange(stored: Uint8Array, level: DetailLevel): Promise<{ ms: number; pngBytes: number }> {
  const start = performance.now();
  const regions = unpackRegions(stored);
  if (!regions) throw new Error("levelChange: the packed regions do not unpack");
  const { sketch } = renderLevel(regions, level);
  const png = await encodeGrayPng(sketch);
  return { ms: performance.now() - start, pngBytes: png.length };
}
