/**
 * The feature strokes (workers/sketch/kernel/strokes/, decision 033) on small synthetic photos: a
 * thin dark line is one stroke, a spot is a dot, a step or a grain is none, and a stroke never
 * doubles a region line.
 */
import { describe, expect, it } from "vitest";
import { deserialiseHierarchy, estimateNoise, serialiseHierarchy, type GrayPlane } from "../../workers/sketch/kernel";
import { buildHierarchy, drawLevel } from "../../workers/sketch/kernel/regions";
import { darkLineDepth } from "../../workers/sketch/kernel/strokes/dark-lines";
import { thin, traceChains } from "../../workers/sketch/kernel/strokes/skeleton";
import { findStrokes, NO_STROKES, strokeDrawnAt, type Strokes } from "../../workers/sketch/kernel/strokes";
import { seededRandom } from "./helpers";

const IDENTITY = Uint8Array.from({ length: 256 }, (_, v) => v);
const SIZE = 400;
/** The grid is the photo here (never enlarged): mm of the printed page per pixel. */
const MM_PER_PIXEL = (11 * 25.4) / SIZE;

function plane(grey: (x: number, y: number) => number): GrayPlane {
  const data = new Uint8Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) data[y * SIZE + x] = Math.min(255, Math.max(0, Math.round(grey(x, y))));
  return { data, width: SIZE, height: SIZE };
}

/** Share of the pixels that differ between two pages of one size (pages are compared by count: a diff of 10 million pixels is no help). */
function differingShare(a: GrayPlane, b: GrayPlane): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let differ = 0;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) differ++;
  return differ / a.data.length;
}

const asFloat = ({ data, width, height }: GrayPlane) => ({ data: Float32Array.from(data), width, height });
const drawnAt = (strokes: Strokes, level: "simple" | "standard" | "detailed") => Array.from({ length: strokes.count }, (_, k) => k).filter((k) => strokeDrawnAt(strokes, k, level));

describe("dark lines", () => {
  it("answers a thin dark line with its depth and a step between light and dark with nothing", () => {
    const line = asFloat(plane((x) => (x === 100 || x === 101 ? 60 : 200)));
    const step = asFloat(plane((x) => (x < 100 ? 60 : 200)));
    const onLine = darkLineDepth(line, 3, 10, 0).data;
    const onStep = darkLineDepth(step, 3, 10, 0).data;
    expect(onLine[200 * SIZE + 100]).toBeCloseTo(140, 0);
    expect(onStep.reduce((a, b) => Math.max(a, b), 0)).toBe(0);
  });

  it("is the closing (max, then min, over the square, clipped to the plane) minus the grey, at every size and radius", () => {
    const random = seededRandom(11);
    for (const [width, height] of [[1, 1], [1, 7], [9, 1], [5, 6], [23, 17], [40, 31]]) {
      for (const radius of [0, 1, 2, 3, 7, 25]) {
        const data = Float32Array.from({ length: width * height }, () => Math.floor(random() * 256));
        const extreme = (plane: Float32Array, pick: (a: number, b: number) => number) =>
          plane.map((_, i) => {
            const x = i % width, y = Math.floor(i / width);
            let result = plane[i];
            for (let v = Math.max(0, y - radius); v <= Math.min(height - 1, y + radius); v++)
              for (let u = Math.max(0, x - radius); u <= Math.min(width - 1, x + radius); u++) result = pick(result, plane[v * width + u]);
            return result;
          });
        const closed = extreme(extreme(data, Math.max), Math.min);
        // A surround sigma under half a pixel is no blur, and no suppression: the depth is the top-hat itself.
        const depth = darkLineDepth({ data: data.slice(), width, height }, radius, 0.4, 0).data;
        expect(Array.from(depth), `${width} x ${height}, radius ${radius}`).toEqual(Array.from(closed, (c, i) => c - data[i]));
      }
    }
  });
});

describe("skeleton", () => {
  it("thins a bar five pixels thick to a line one pixel thick", () => {
    const width = 40;
    const height = 15;
    const mask = new Uint8Array(width * height);
    for (let y = 5; y < 10; y++) for (let x = 5; x < 35; x++) mask[y * width + x] = 1;
    thin(mask, width, height);
    for (let x = 10; x < 30; x++) {
      let column = 0;
      for (let y = 0; y < height; y++) column += mask[y * width + x];
      expect(column).toBe(1);
    }
  });

  it("follows a Y as three chains from its junction, a ring as one, a lone pixel as one", () => {
    const width = 30;
    const height = 30;
    const mask = new Uint8Array(width * height);
    for (let y = 2; y <= 12; y++) mask[y * width + 10] = 1; // the stem, down to the junction at (10, 12)
    for (let k = 1; k <= 6; k++) mask[(12 + k) * width + 10 - k] = mask[(12 + k) * width + 10 + k] = 1; // two arms
    mask[25 * width + 25] = 1;
    const y = traceChains(mask, width, height);
    expect(y.count).toBe(4);
    const ring = new Uint8Array(width * height);
    for (let x = 5; x <= 15; x++) ring[5 * width + x] = ring[15 * width + x] = 1;
    for (let yy = 5; yy <= 15; yy++) ring[yy * width + 5] = ring[yy * width + 15] = 1;
    // Corners of a square ring have two neighbours only once the corner's diagonal is counted: keep it 4-connected.
    expect(traceChains(ring, width, height).count).toBe(1);
  });
});

describe("feature strokes", () => {
  it("draws a thin dark line on a flat field as one stroke along it, at every level", () => {
    const photo = plane((x, y) => ((y === 200 || y === 201) && x > 80 && x < 320 ? 70 : 210));
    const strokes = findStrokes(asFloat(photo), MM_PER_PIXEL, 1);
    for (const level of ["simple", "standard", "detailed"] as const) expect(drawnAt(strokes, level)).toHaveLength(1);
    const [k] = drawnAt(strokes, "simple");
    for (let p = strokes.pointStart[k]; p < strokes.pointStart[k + 1]; p++) {
      expect(Math.abs(strokes.points[2 * p + 1] - 201)).toBeLessThan(1.5);
      expect(strokes.points[2 * p]).toBeGreaterThan(78);
      expect(strokes.points[2 * p]).toBeLessThan(322);
    }
    expect(strokes.lengthMm[k]).toBeGreaterThan(0.9 * 240 * MM_PER_PIXEL);
  });

  it("draws a small dark spot (a pupil) at every level, however short", () => {
    const photo = plane((x, y) => (x >= 200 && x < 202 && y >= 200 && y < 202 ? 40 : 210));
    const strokes = findStrokes(asFloat(photo), MM_PER_PIXEL, 1);
    for (const level of ["simple", "standard", "detailed"] as const) expect(drawnAt(strokes, level).length).toBeGreaterThanOrEqual(1);
  });

  it("draws no stroke along a step between light and dark, nor across a smooth gradient", () => {
    expect(findStrokes(asFloat(plane((x) => (x < 200 ? 60 : 200))), MM_PER_PIXEL, 1).count).toBe(0);
    expect(findStrokes(asFloat(plane((x) => 40 + (180 * x) / SIZE)), MM_PER_PIXEL, 1).count).toBe(0);
  });

  it("draws a lone dark strand 5 mm long at every level", () => {
    const photo = plane(() => 170);
    for (let t = -4; t <= 4; t += 0.25) {
      for (const side of [-0.5, 0.5]) {
        const x = Math.round(200 + t * Math.cos(0.3) - side * Math.sin(0.3));
        const y = Math.round(200 + t * Math.sin(0.3) + side * Math.cos(0.3));
        photo.data[y * SIZE + x] = 90;
      }
    }
    const strokes = findStrokes(asFloat(photo), MM_PER_PIXEL, 1);
    for (const level of ["simple", "standard", "detailed"] as const) expect(drawnAt(strokes, level)).toHaveLength(1);
  });

  it("draws no stroke in a photo's fine grain: the grey is smoothed by its noise first", () => {
    const random = seededRandom(7);
    const photo = plane(() => 140 + (random() - 0.5) * 90);
    const { hierarchy } = buildHierarchy(photo, IDENTITY, estimateNoise(photo));
    for (const level of ["simple", "standard", "detailed"] as const) expect(drawnAt(hierarchy.strokes, level)).toHaveLength(0);
  });

  it("never doubles a region line: a dark outline round a shape is drawn once", () => {
    // A light disc outlined by a dark ring 2 px wide on a mid field: the regions' border and the ring coincide.
    const photo = plane((x, y) => {
      const r = Math.hypot(x - 200, y - 200);
      return r >= 99 && r < 101 ? 30 : r < 100 ? 230 : 150;
    });
    const { hierarchy } = buildHierarchy(photo, IDENTITY, 0);
    const withStrokes = drawLevel(hierarchy, "standard");
    const without = drawLevel(hierarchy, "standard", 1, { strokes: false });
    const ink = (page: GrayPlane) => page.data.reduce((sum, v) => sum + (v === 0 ? 1 : 0), 0);
    expect(ink(without)).toBeGreaterThan(0);
    // The strokes add at most a trace where the ring leaves the line's clearance (none here).
    expect(ink(withStrokes)).toBeLessThan(1.05 * ink(without));
  });

  it("keeps its strokes when the hierarchy is stored and read back, and reads a hierarchy stored before strokes as one without", () => {
    const photo = plane((x, y) => ((y === 200 || y === 201) && x > 80 && x < 320 ? 70 : x < 60 ? 90 : 210));
    const { hierarchy } = buildHierarchy(photo, IDENTITY, 0);
    expect(hierarchy.strokes.count).toBeGreaterThan(0);
    const back = deserialiseHierarchy(serialiseHierarchy(hierarchy));
    expect(back.strokes.count).toBe(hierarchy.strokes.count);
    expect(Array.from(back.strokes.depth)).toEqual(Array.from(hierarchy.strokes.depth));
    // Points are stored to a twentieth of a page pixel: the page drawn from the stored strokes is the same page, give or take a pixel's edge.
    expect(differingShare(drawLevel(back, "simple"), drawLevel(hierarchy, "simple"))).toBeLessThan(0.0005);
    // Version 1: the same bytes up to the merges, no strokes after them.
    const noStrokes = serialiseHierarchy({ ...hierarchy, strokes: NO_STROKES });
    const version1 = noStrokes.slice(0, noStrokes.length - 12);
    new DataView(version1.buffer).setUint32(0, 1, true);
    const old = deserialiseHierarchy(version1);
    expect(old.strokes.count).toBe(0);
    expect(differingShare(drawLevel(old, "simple"), drawLevel(hierarchy, "simple", 1, { strokes: false }))).toBeLessThan(0.0005);
    expect(differingShare(drawLevel(old, "simple"), drawLevel(hierarchy, "simple"))).toBeGreaterThan(0.001);
  });
});
