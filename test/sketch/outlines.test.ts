import { describe, expect, it } from "vitest";
import { grayToSketch, tuningFor, type GrayPlane } from "../../workers/sketch/kernel";
import { coarseOutlines, drawOutlines, type OutlinePlane } from "../../workers/sketch/kernel/outlines";
import type { FixedPlane } from "../../workers/sketch/kernel/plane";
import { seededRandom } from "./helpers";

const standard = tuningFor("standard");

function fixed(width: number, height: number, value: (x: number, y: number) => number): FixedPlane {
  const data = new Uint16Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = Math.max(0, Math.min(255, value(x, y))) << 8;
  return { data, width, height, scale: 1 };
}

/** Working-pixel columns that hold an outline cell in row y (working pixels). */
function outlineColumns(outline: OutlinePlane, y: number): number[] {
  const row = Math.floor(y / outline.scale) * outline.width;
  const columns: number[] = [];
  for (let x = 0; x < outline.width; x++) if (outline.data[row + x]) columns.push(x * outline.scale);
  return columns;
}

function count(outline: OutlinePlane): number {
  return outline.data.reduce((sum, v) => sum + v, 0);
}

/** A forest, reduced to its problem: a dark trunk (columns 180-239) in fine, strong texture. */
function trunkInTexture(seed = 3, strength = 90, trunk = 40): (x: number, y: number) => number {
  const random = seededRandom(seed);
  const noise = new Float64Array(600 * 400).map(() => (random() - 0.5) * strength);
  return (x, y) => (x >= 180 && x < 240 ? trunk : 110) + noise[y * 600 + x];
}

describe("coarse outlines stage", () => {
  it("finds both sides of a trunk standing in texture, and little else", () => {
    const outline = coarseOutlines(fixed(600, 400, trunkInTexture()), 0, standard);
    const columns = outlineColumns(outline, 200);
    expect(columns.some((x) => Math.abs(x - 180) <= 4)).toBe(true);
    expect(columns.some((x) => Math.abs(x - 240) <= 4)).toBe(true);
    // The two sides are lines the height of the trunk; the texture adds little beyond them.
    const sides = 2 * (400 / outline.scale);
    expect(count(outline)).toBeLessThan(1.5 * sides);
  });

  it("draws a soft boundary (a wide ramp) as one line at its middle", () => {
    // 60 → 200 over 40 px of a 2400 px page: the render pass's fine edges never see it as fast enough.
    const outline = coarseOutlines(fixed(2400, 120, (x) => 60 + 140 * Math.min(1, Math.max(0, (x - 1180) / 40))), 0, standard);
    const columns = outlineColumns(outline, 60);
    expect(columns.length).toBe(1);
    expect(Math.abs(columns[0] - 1200)).toBeLessThanOrEqual(outline.scale + 2);
  });

  it("leaves gentle shading and weak steps alone", () => {
    // A face's shading: 100 grey levels across the whole width; and a 15-level step.
    expect(count(coarseOutlines(fixed(400, 200, (x) => 80 + x / 4), 0, standard))).toBe(0);
    expect(count(coarseOutlines(fixed(400, 200, (x) => (x < 200 ? 120 : 135)), 0, standard))).toBe(0);
  });

  it("is switched off by an outlineSigmaDivisor of 0", () => {
    const tuning = { ...standard, outlineSigmaDivisor: 0 };
    expect(count(coarseOutlines(fixed(400, 200, (x) => (x < 200 ? 40 : 220)), 0, tuning))).toBe(0);
  });

  it("inks every page pixel an outline cell covers, and only those", () => {
    const page: GrayPlane = { data: new Uint8Array(10 * 6).fill(255), width: 10, height: 6 };
    // A 4 x 2 grid of cells, 3 page pixels each (the last column and row are cut by the page).
    const outline: OutlinePlane = { data: Uint8Array.from([0, 1, 0, 0, 0, 0, 0, 1]), width: 4, height: 2, scale: 3 };
    drawOutlines(page, outline);
    const inked = [...page.data.keys()].filter((i) => page.data[i] === 0).map((i) => [i % 10, Math.floor(i / 10)].join(","));
    expect(inked).toEqual(["3,0", "4,0", "5,0", "3,1", "4,1", "5,1", "3,2", "4,2", "5,2", "9,3", "9,4", "9,5"]);
  });

  it("puts the trunk on the finished page, where surround suppression alone lost it", () => {
    // A trunk 40 levels darker than texture that swings by ±80: the render pass's own edges keep
    // about a third of its sides (a trunk 70 levels darker they kept whole, on the half grid).
    const value = trunkInTexture(11, 160, 70);
    const gray: GrayPlane = { data: new Uint8Array(600 * 400), width: 600, height: 400 };
    for (let y = 0; y < 400; y++) for (let x = 0; x < 600; x++) gray.data[y * 600 + x] = Math.max(0, Math.min(255, value(x, y)));
    const inkNear = (page: GrayPlane, column: number) => {
      let ink = 0;
      for (let y = 20; y < 380; y++) for (let x = column - 4; x <= column + 4; x++) if (page.data[y * 600 + x] === 0) ink++;
      return ink;
    };
    const withOutlines = grayToSketch(gray, { tuning: standard }).sketch;
    const without = grayToSketch(gray, { tuning: { ...standard, outlineSigmaDivisor: 0 } }).sketch;
    // Both sides of the trunk are drawn along most of their height...
    expect(inkNear(withOutlines, 180)).toBeGreaterThan(300);
    expect(inkNear(withOutlines, 240)).toBeGreaterThan(300);
    expect(inkNear(without, 180) + inkNear(without, 240)).toBeLessThan(inkNear(withOutlines, 180) + inkNear(withOutlines, 240));
    // ...and the texture does not become a dot field: the rest of the page stays mostly paper.
    let inkElsewhere = 0;
    for (let y = 0; y < 400; y++) for (let x = 0; x < 600; x++) if ((x < 160 || x > 260) && withOutlines.data[y * 600 + x] === 0) inkElsewhere++;
    expect(inkElsewhere / (500 * 400)).toBeLessThan(0.05);
  });
});
