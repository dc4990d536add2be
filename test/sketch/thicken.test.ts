import { describe, expect, it } from "vitest";
import { thickenLines, type GrayPlane } from "../../workers/sketch/kernel";

describe("thicken stage (line weight)", () => {
  for (const width of [40, 41]) {
    it(`grows a one-pixel line to 2r + 1 pixels and closes a gap of 2r (width ${width})`, () => {
      const page: GrayPlane = { width, height: 20, data: new Uint8Array(width * 20).fill(255) };
      for (let x = 5; x < 35; x++) if (x !== 20 && x !== 21) page.data[10 * width + x] = 0; // a line with a 2 px gap
      thickenLines(page, 1);
      const column = (x: number) => [8, 9, 10, 11, 12].map((y) => page.data[y * width + x]);
      expect(column(10)).toEqual([255, 0, 0, 0, 255]);
      expect(column(20)).toEqual([255, 0, 0, 0, 255]); // the gap closed
      expect(page.data[10 * width + 3]).toBe(255);
      expect(page.data[10 * width + 4]).toBe(0);
      expect(page.data.every((v) => v === 0 || v === 255)).toBe(true);
    });
  }
});
