import { describe, expect, it } from "vitest";
import type { GrayPlane } from "../../workers/sketch/kernel";
import { measureColourability, outlineSurvival } from "../../workers/sketch/measure";

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
    expect(outlineSurvival(photo, blank)).toBe(0);
    const drawn = plane(800, 800, 255);
    for (let i = 200; i < 600; i++) {
      drawn.data[200 * 800 + i] = drawn.data[599 * 800 + i] = 0;
      drawn.data[i * 800 + 200] = drawn.data[i * 800 + 599] = 0;
    }
    expect(outlineSurvival(photo, drawn)).toBeGreaterThan(0.95);
    const half = plane(800, 800, 255);
    for (let i = 200; i < 600; i++) half.data[200 * 800 + i] = half.data[599 * 800 + i] = 0; // top and bottom only
    const survived = outlineSurvival(photo, half);
    expect(survived).toBeGreaterThan(0.3);
    expect(survived).toBeLessThan(0.7);
  });
});
