/**
 * Binarise: the grey page from the render pass becomes black ink on white paper, keeping only
 * marks that are lines. Hysteresis like Canny's (a mark of pixels darker than weakLevel is kept
 * only if it holds a pixel as dark as strongLevel, so a strong line keeps its faint ends while
 * faint shading goes), then strokes are judged by size and reach: a mark smaller than a speck or
 * shorter than minStrokeExtentPrintPx is texture (a pebble, a tuft of grass, a dot of noise).
 */
import { PRINT_LONG_EDGE_PX } from "../../../app/lib/constants";
import { extentOf, findMarks } from "./components";
import type { GrayPlane } from "./plane";
import { speckPixelsFor } from "./scale";
import type { SketchTuning } from "./tuning";

/** What binarising kept and dropped; the quality report reads it. */
export interface PageStats {
  /** Ink pixels left on the page (before the lines are thickened). */
  inkPixels: number;
  /** Of those, in marks at least 10 specks big: lines, not fragments. */
  lineInkPixels: number;
  /** Marks dropped for being smaller than a speck. */
  specksRemoved: number;
  /** Marks dropped for being short strokes (texture). */
  shortStrokesRemoved: number;
  /** Marks dropped for having no pixel as dark as strongLevel (shading, fog). */
  fadedRemoved: number;
  /** Marks kept. */
  marks: number;
}

/** In place: every pixel becomes 0 (a kept line) or 255 (paper). */
export function binarise(page: GrayPlane, tuning: SketchTuning): PageStats {
  const { width, height, data } = page;
  const marks = findMarks(page, tuning.weakLevel);
  const { runCount, parent, size, darkest, runRow, runStart, runEnd } = marks;
  const speck = speckPixelsFor(width, height, tuning);
  const minExtent = Math.max(3, (tuning.minStrokeExtentPrintPx * Math.max(width, height)) / PRINT_LONG_EDGE_PX);
  const lineSize = 10 * speck;
  const stats: PageStats = { inkPixels: 0, lineInkPixels: 0, specksRemoved: 0, shortStrokesRemoved: 0, fadedRemoved: 0, marks: 0 };
  // Per root: 1 = keep. Roots are runs, so one byte per run.
  const keep = new Uint8Array(runCount);
  for (let r = 0; r < runCount; r++) {
    if (parent[r] !== r) continue;
    if (size[r] < speck) stats.specksRemoved++;
    else if (darkest[r] > tuning.strongLevel) stats.fadedRemoved++;
    else if (extentOf(marks, r) < minExtent) stats.shortStrokesRemoved++;
    else {
      keep[r] = 1;
      stats.marks++;
      stats.inkPixels += size[r];
      if (size[r] >= lineSize) stats.lineInkPixels += size[r];
    }
  }
  // Paper everywhere, then the kept runs as ink.
  data.fill(255);
  // A loop, not data.fill per run: runs are a few pixels long, and each fill is a call into the
  // runtime that costs more than the pixels it writes.
  for (let r = 0; r < runCount; r++) {
    if (!keep[parent[r]]) continue;
    const row = runRow[r] * width;
    for (let i = row + runStart[r], end = row + runEnd[r]; i < end; i++) data[i] = 0;
  }
  return stats;
}
