/**
 * The regions' insides and the border model (workers/sketch/kernel/regions/region-features.ts,
 * decision 031) on small synthetic photos: a border is judged by both of its sides.
 */
import { describe, expect, it } from "vitest";
import type { GrayPlane } from "../../workers/sketch/kernel";
import { buildHierarchy, regionCountAt } from "../../workers/sketch/kernel/regions";
import { HistogramJudge, pixelFeatures } from "../../workers/sketch/kernel/regions/region-features";
import { BORDER_MODEL } from "../../workers/sketch/kernel/regions/tuning";
import { FACE_TUNING } from "../../workers/sketch/kernel/faces";
import { seededRandom } from "./helpers";

const IDENTITY = Uint8Array.from({ length: 256 }, (_, v) => v);
const SIZE = 400;

function plane(grey: (x: number, y: number) => number): GrayPlane {
  const data = new Uint8Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) data[y * SIZE + x] = Math.min(255, Math.max(0, Math.round(grey(x, y))));
  return { data, width: SIZE, height: SIZE };
}

const inDisc = (x: number, y: number) => Math.hypot(x - SIZE / 2, y - SIZE / 2) < SIZE / 4;

describe("the border model", () => {
  /** Two regions side by side (of 100 pixels each, or the right one `rightColumns` of the 20 columns wide), with these greys; the judge over them. */
  function judgeOf(left: number, right: number, cb = 128, cr = 128, { inColour = true, rightColumns = 10, faceWeight = null as ((column: number) => number) | null, edgeMagnitude = 0 } = {}): HistogramJudge {
    const width = 20;
    const height = 10;
    const label = new Int32Array(width * height);
    const grey = new Float32Array(width * height);
    const colour = { cb: new Uint8Array(width * height), cr: new Uint8Array(width * height) };
    for (let i = 0; i < label.length; i++) {
      const right_ = i % width >= width - rightColumns;
      label[i] = right_ ? 1 : 0;
      grey[i] = right_ ? right : left;
      colour.cb[i] = right_ ? cb : 128;
      colour.cr[i] = right_ ? cr : 128;
    }
    // Both sides' edge magnitude (grey levels): 0 is flat, 40 as grainy as a pixel's bin goes.
    const magnitude = new Float32Array(width * height).fill(edgeMagnitude);
    const features = pixelFeatures({ data: grey, width, height }, { data: magnitude, width, height }, 1, inColour ? colour : undefined);
    const faces = faceWeight && Float32Array.from({ length: width * height }, (_, i) => faceWeight(i % width));
    return new HistogramJudge(features, label, 2, BORDER_MODEL, faces, FACE_TUNING.insideOdds);
  }

  it("rates the same edge likelier between two regions unlike in colour than between two alike", () => {
    const alike = judgeOf(120, 120).chance(20, 20, 0, 1, 100, 100, 20);
    const colourful = judgeOf(120, 120, 90, 180).chance(20, 20, 0, 1, 100, 100, 20);
    expect(colourful).toBeGreaterThan(alike);
  });

  it("rates a stronger edge likelier, whatever the regions", () => {
    const judge = judgeOf(80, 160);
    expect(judge.chance(40, 40, 0, 1, 100, 100, 20)).toBeGreaterThan(judge.chance(5, 5, 0, 1, 100, 100, 20));
  });

  it("rates a border the boundary model finds likelier, the rest alike (where the border is in focus: boundary.test.ts)", () => {
    const judge = judgeOf(80, 160);
    expect(judge.chance(20, 20, 0, 1, 100, 100, 20, 0.3)).toBeGreaterThan(judge.chance(20, 20, 0, 1, 100, 100, 20, 0.01));
    expect(judge.chance(20, 20, 0, 1, 100, 100, 20, 0.01)).toBeGreaterThan(judge.chance(20, 20, 0, 1, 100, 100, 20, 0));
  });

  it("rates a border between two large regions likelier than the same border round a small cell, and a long ragged one less likely", () => {
    // The same two insides and the same edge: a cell of a texture is small and its border long for its size.
    const judge = judgeOf(80, 160);
    const smallCell = judgeOf(80, 160, 128, 128, { rightColumns: 1 });
    expect(judge.chance(20, 20, 0, 1, 100, 100, 20)).toBeGreaterThan(smallCell.chance(20, 20, 0, 1, 190, 10, 20));
    expect(judge.chance(20, 20, 0, 1, 100, 100, 20)).toBeGreaterThan(judge.chance(20, 20, 0, 1, 100, 100, 80));
  });

  it("rates a black-and-white photo's border likelier than the same border in a colour photo whose two sides are alike in colour", () => {
    // A grey photo has no colour to tell its borders by; the model learned how much likelier its borders are for that.
    const grey = judgeOf(80, 160, 128, 128, { inColour: false }).chance(20, 20, 0, 1, 100, 100, 20);
    const alikeInColour = judgeOf(80, 160).chance(20, 20, 0, 1, 100, 100, 20);
    expect(grey).toBeGreaterThan(alikeInColour);
  });

  it("rates a border between two grainy regions (cells of one fur) less likely than the same border between two flat ones", () => {
    const flat = judgeOf(80, 160).chance(20, 20, 0, 1, 100, 100, 20);
    const grainy = judgeOf(80, 160, 128, 128, { edgeMagnitude: 40 }).chance(20, 20, 0, 1, 100, 100, 20);
    expect(grainy).toBeLessThan(flat / 2);
  });

  it("rates a border inside a face less likely, and the face's outline as any other border", () => {
    const plain = judgeOf(80, 160).chance(20, 20, 0, 1, 100, 100, 20);
    const acrossTheFace = judgeOf(80, 160, 128, 128, { faceWeight: () => 1 }).chance(20, 20, 0, 1, 100, 100, 20);
    const faceAgainstHair = judgeOf(80, 160, 128, 128, { faceWeight: (column) => (column < 10 ? 1 : 0) }).chance(20, 20, 0, 1, 100, 100, 20);
    expect(acrossTheFace).toBeLessThan(plain);
    expect(faceAgainstHair).toBeCloseTo(plain, 10);
    // A region of hair that only reaches a little into the face's oval keeps nearly all of its border's odds.
    const hairInTheOval = judgeOf(80, 160, 128, 128, { faceWeight: (column) => (column < 10 ? 1 : 0.2) }).chance(20, 20, 0, 1, 100, 100, 20);
    expect(plain - hairInTheOval).toBeLessThan((plain - acrossTheFace) / 10);
  });

  it("forgets nothing of a region's inside when regions merge: the merged one is judged by both", () => {
    const judge = judgeOf(80, 160);
    const before = judge.insideDistances(0, 1, 100, 100);
    expect(before.lightness).toBeGreaterThan(0.9);
    judge.merged(0, 1);
    // Region 0 now holds both halves: against region 1 (unchanged) it is half alike.
    const after = judge.insideDistances(0, 1, 200, 100);
    expect(after.lightness).toBeLessThan(before.lightness);
    expect(after.lightness).toBeGreaterThan(0);
  });
});

describe("regions judged by both sides", () => {
  it("draws a textured disc on a flat field as one region, not a mosaic of its grain", () => {
    const random = seededRandom(5);
    const photo = plane((x, y) => (inDisc(x, y) ? 90 + (random() - 0.5) * 70 : 200));
    const { hierarchy } = buildHierarchy(photo, IDENTITY, 0);
    expect(regionCountAt(hierarchy, "simple")).toBe(2);
    expect(regionCountAt(hierarchy, "standard")).toBeLessThanOrEqual(3);
  });

  it("draws no border across a smooth gradient", () => {
    const photo = plane((x) => 40 + (180 * x) / SIZE);
    const { hierarchy } = buildHierarchy(photo, IDENTITY, 0);
    for (const level of ["simple", "standard", "detailed"] as const) expect(regionCountAt(hierarchy, level)).toBe(1);
  });

  it("gives a red square on a green field of the same lightness its border", () => {
    const square = (x: number, y: number) => x >= 120 && x < 280 && y >= 120 && y < 280;
    const photo = plane(() => 102);
    const chroma = {
      cb: plane((x, y) => (square(x, y) ? 100 : 104)),
      cr: plane((x, y) => (square(x, y) ? 190 : 80)),
    };
    expect(regionCountAt(buildHierarchy(photo, IDENTITY, 0).hierarchy, "detailed")).toBe(1);
    expect(regionCountAt(buildHierarchy(photo, IDENTITY, 0, chroma).hierarchy, "simple")).toBe(2);
  });
});
