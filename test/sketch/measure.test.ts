import { describe, expect, it } from "vitest";
import type { GrayPlane } from "../../workers/sketch/kernel";
import { measureColourability, outlineSurvival } from "../../workers/sketch/measure/pixels";

const plane = (width: number, height: number, value: number): GrayPlane => ({ width, height, data: new Uint8Array(width * height).fill(value) });

describe("colourability measure", () => {
  it("counts grey, ink and specks per megapixel at print size", () => {
    const page = plane(3300, 1000, 255);
    for (let i = 0; i < 3300 * 100; i++) page.data[i] = 150; // 10 % grey
    for (let x = 100; x < 3000; x++) for (let y = 500; y < 504; y++) page.data[y * 3300 + x] = 0; // a long line
    for (let n = 0; n < 33; n++) page.data[800 * 3300 + 50 + n * 90] = 0; // 33 one-pixel specks
    const measure = measureColourability(plane(3300, 1000, 128), page);
    expect(measure.greyShare).toBeCloseTo(0.1, 5);
    expect(measure.inkShare).toBeCloseTo((2900 * 4 + 33) / 3.3e6, 6);
    expect(measure.specksPerMegapixel).toBeCloseTo(33 / 3.3, 5);
    expect(measure.continuity).toBeGreaterThan(0.99);
  });

  it("sees a photo's outline survive only where the page has ink near it", () => {
    const photo = plane(800, 800, 220);
    for (let y = 200; y < 600; y++) for (let x = 200; x < 600; x++) photo.data[y * 800 + x] = 30;
    const blank = plane(800, 800, 255);
    expect(outlineSurvival(photo, blank)).toEqual({ outlines: 0, edges: 0 });
    const drawn = plane(800, 800, 255);
    for (let i = 200; i < 600; i++) {
      drawn.data[200 * 800 + i] = drawn.data[599 * 800 + i] = 0;
      drawn.data[i * 800 + 200] = drawn.data[i * 800 + 599] = 0;
    }
    expect(outlineSurvival(photo, drawn).outlines).toBeGreaterThan(0.95);
    const half = plane(800, 800, 255);
    for (let i = 200; i < 600; i++) half.data[200 * 800 + i] = half.data[599 * 800 + i] = 0; // top and bottom only
    const survived = outlineSurvival(photo, half).outlines;
    expect(survived).toBeGreaterThan(0.3);
    expect(survived).toBeLessThan(0.7);
  });

  it("counts a square's outline but not a field of pebbles as outlines; all edges count both", () => {
    // An 800 px page prints 279 mm wide: a 20 px square is 7 mm, a 6 px pebble 2 mm.
    const photo = plane(800, 800, 220);
    for (let y = 100; y < 400; y++) for (let x = 100; x < 700; x++) photo.data[y * 800 + x] = 30; // the subject
    for (let py = 500; py < 760; py += 16) for (let px = 40; px < 760; px += 16) {
      for (let y = py; y < py + 6; y++) for (let x = px; x < px + 6; x++) photo.data[y * 800 + x] = 40; // pebbles
    }
    const subjectOnly = plane(800, 800, 255);
    for (let i = 100; i < 700; i++) subjectOnly.data[100 * 800 + i] = subjectOnly.data[399 * 800 + i] = 0;
    for (let i = 100; i < 400; i++) subjectOnly.data[i * 800 + 100] = subjectOnly.data[i * 800 + 699] = 0;
    const survival = outlineSurvival(photo, subjectOnly);
    expect(survival.outlines).toBeGreaterThan(0.95);
    // The pebbles are strong edges too (most of them, by count), left undrawn.
    expect(survival.edges).toBeLessThan(0.5);
  });
});
