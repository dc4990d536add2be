/**
 * Draws the arcs of one cut (and the feature strokes) on the page at print resolution: each line
 * a smooth curve of round discs, so it has the same weight everywhere and no staircase whatever
 * the photo's size.
 */
import type { GrayPlane } from "../plane";
import type { Arcs, Polylines } from "./arcs";

/** Discs are stamped at most this far apart along a curve (page pixels): the line's edge ripples by under 0.1 px. */
const STAMP_SPACING_PX = 0.8;

/**
 * A white page of pageWidth x pageHeight with the arcs for which `drawn(arc)` is true, arcs'
 * points scaled from the grid (gridWidth x gridHeight corners) to the page; the line is
 * 2 × radius page pixels wide.
 */
export function drawArcs(arcs: Arcs, drawn: (arc: number) => boolean, gridWidth: number, gridHeight: number, pageWidth: number, pageHeight: number, radius: number): GrayPlane {
  const page = { data: new Uint8Array(pageWidth * pageHeight).fill(255), width: pageWidth, height: pageHeight };
  inkLines(page, arcs, drawn, gridWidth, gridHeight, radius);
  return page;
}

/** Inks the lines for which `drawn(line)` is true onto the page, scaled from the grid; a line of one point is a dot. */
export function inkLines(page: GrayPlane, lines: Polylines, drawn: (line: number) => boolean, gridWidth: number, gridHeight: number, radius: number): void {
  const { data, width: pageWidth, height: pageHeight } = page;
  const scaleX = pageWidth / gridWidth;
  const scaleY = pageHeight / gridHeight;
  const { points, pointStart } = lines;
  for (let arc = 0; arc < lines.count; arc++) {
    if (!drawn(arc)) continue;
    const first = pointStart[arc];
    const last = pointStart[arc + 1] - 1;
    let px = points[2 * first] * scaleX;
    let py = points[2 * first + 1] * scaleY;
    stampDisc(data, pageWidth, pageHeight, px, py, radius);
    for (let i = first + 1; i <= last; i++) {
      const qx = points[2 * i] * scaleX;
      const qy = points[2 * i + 1] * scaleY;
      const steps = Math.max(1, Math.ceil(Math.hypot(qx - px, qy - py) / STAMP_SPACING_PX));
      for (let s = 1; s <= steps; s++) stampDisc(data, pageWidth, pageHeight, px + ((qx - px) * s) / steps, py + ((qy - py) * s) / steps, radius);
      px = qx;
      py = qy;
    }
  }
}

/** Ink on every pixel whose centre lies within radius of (cx, cy). */
function stampDisc(data: Uint8Array, width: number, height: number, cx: number, cy: number, radius: number): void {
  const top = Math.max(0, Math.ceil(cy - radius - 0.5));
  const bottom = Math.min(height - 1, Math.floor(cy + radius - 0.5));
  for (let y = top; y <= bottom; y++) {
    const dy = y + 0.5 - cy;
    const half = Math.sqrt(radius * radius - dy * dy);
    const left = Math.max(0, Math.ceil(cx - half - 0.5));
    const right = Math.min(width - 1, Math.floor(cx + half - 0.5));
    for (let x = left, i = y * width + left; x <= right; x++, i++) data[i] = 0;
  }
}
