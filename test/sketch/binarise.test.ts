import { describe, expect, it } from "vitest";
import { binarise, SKETCH_TUNING, type GrayPlane } from "../../workers/sketch/kernel";

const page = (width: number, height: number, value = 255): GrayPlane => ({ width, height, data: new Uint8Array(width * height).fill(value) });

describe("binarise stage", () => {
  // At 300 px long edge a print pixel is 1/11 of a page pixel: speck and stroke sizes scale down.
  const tuning = { ...SKETCH_TUNING, speckSidePrintPx: 44, minStrokeExtentPrintPx: 220 }; // 4² px specks, 20 px strokes

  it("keeps a long dark line with its faint ends (hysteresis), as pure black", () => {
    const p = page(300, 100);
    for (let x = 20; x < 120; x++) p.data[50 * 300 + x] = x < 40 || x >= 100 ? 170 : 30;
    const stats = binarise(p, tuning);
    expect(p.data[50 * 300 + 25]).toBe(0); // faint end, joined to the dark middle
    expect(p.data[50 * 300 + 70]).toBe(0);
    expect(stats.marks).toBe(1);
    expect(p.data.every((v) => v === 0 || v === 255)).toBe(true);
  });

  it("drops faint shading, specks and short strokes", () => {
    const p = page(300, 100);
    for (let y = 10; y < 30; y++) for (let x = 10; x < 60; x++) p.data[y * 300 + x] = 170; // shading, no dark pixel
    p.data[80 * 300 + 200] = 0; // a speck
    for (let x = 100; x < 110; x++) p.data[60 * 300 + x] = p.data[61 * 300 + x] = 0; // a dark stroke only 10 px long
    const stats = binarise(p, tuning);
    expect(p.data.every((v) => v === 255)).toBe(true);
    expect(stats).toMatchObject({ fadedRemoved: 1, specksRemoved: 1, shortStrokesRemoved: 1, marks: 0 });
  });
});
