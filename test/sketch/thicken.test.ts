import { describe, expect, it } from "vitest";
import { thickenLines, type GrayPlane } from "../../workers/sketch/kernel";

describe("thicken stage (line weight)", () => {
  // 40 px rows are whole 32-bit words; 41 px rows are copied into a word-aligned row padded with
  // paper. Both must give the same page.
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

describe("thicken stage, radius 2", () => {
  it("is the same square dilation whether rows are whole words or padded", () => {
    const make = (width: number) => {
      const page: GrayPlane = { width, height: 30, data: new Uint8Array(width * 30).fill(255) };
      page.data[15 * width + 3] = 0;
      page.data[0 * width + 17] = 0;
      page.data[29 * width + 30] = 0;
      thickenLines(page, 2);
      return page;
    };
    const words = make(36);
    const padded = make(37);
    for (let y = 0; y < 30; y++) for (let x = 0; x < 36; x++) expect([y, x, words.data[y * 36 + x]]).toEqual([y, x, padded.data[y * 37 + x]]);
    // The lone pixel became a 5 x 5 square.
    let ink = 0;
    for (let y = 13; y <= 17; y++) for (let x = 1; x <= 5; x++) if (words.data[y * 36 + x] === 0) ink++;
    expect(ink).toBe(25);
    expect(words.data[15 * 36 + 6]).toBe(255);
  });
});
