import { describe, expect, it } from "vitest";
import { decodeBmpGray } from "../../workers/sketch/decode/bmp";
import { decodeToGrayPlane } from "../../workers/sketch/decode";
import { isPermanent, PermanentSketchError } from "../../workers/sketch/errors";
import { makeBmp } from "./exif-fixtures";

const grey = ([r, g, b]: number[]) => (77 * r + 150 * g + 29 * b + 128) >> 8;
// A picture that is different in every row and column, so a flipped or shifted read shows.
const colour = (x: number, y: number) => [(x * 37 + y * 11) % 256, (x * 5 + y * 53) % 256, (x * 71 + y * 3) % 256];

describe("BMP decoder", () => {
  for (const bits of [24, 32] as const) {
    for (const topDown of [false, true]) {
      it(`${bits}-bit ${topDown ? "top-down" : "bottom-up"}, odd width (row padding)`, async () => {
        const bmp = makeBmp(13, 7, colour, { bits, topDown });
        const plane = await decodeToGrayPlane(bmp);
        expect([plane.format, plane.width, plane.height]).toEqual(["bmp", 13, 7]);
        for (let y = 0; y < 7; y++) for (let x = 0; x < 13; x++) expect(plane.data[y * 13 + x]).toBe(grey(colour(x, y)));
      });
    }
  }

  it("8-bit and 4-bit palettes, and 1-bit", () => {
    const palette: [number, number, number][] = Array.from({ length: 256 }, (_, i) => [i, 255 - i, (i * 7) % 256]);
    const indices = (x: number, y: number) => [(x * 3 + y * 17) % 256];
    const eight = decodeBmpGray(makeBmp(11, 5, indices, { bits: 8, palette }));
    for (let y = 0; y < 5; y++) for (let x = 0; x < 11; x++) expect(eight.data[y * 11 + x]).toBe(grey(palette[indices(x, y)[0]]));
    const four = decodeBmpGray(makeBmp(9, 4, (x, y) => [(x + y) % 16], { bits: 4, palette: palette.slice(0, 16), topDown: true }));
    expect(four.data[1 * 9 + 3]).toBe(grey(palette[4]));
    const one = decodeBmpGray(makeBmp(10, 3, (x) => [x % 2], { bits: 1, palette: [[0, 0, 0], [255, 255, 255]] }));
    expect(Array.from(one.data.subarray(0, 4))).toEqual([0, 255, 0, 255]);
  });

  it("refuses RLE and truncated bitmaps with a reason", () => {
    const rle = makeBmp(4, 4, () => [0], { bits: 8, palette: [[0, 0, 0]] });
    new DataView(rle.buffer).setUint32(30, 1, true);
    expect(() => decodeBmpGray(rle)).toThrow(/RLE-compressed/);
    const cut = makeBmp(40, 40, colour, { bits: 24 }).slice(0, 500);
    const error = (() => {
      try {
        decodeBmpGray(cut);
      } catch (e) {
        return e;
      }
    })();
    expect(isPermanent(error)).toBe(true);
  });
});

describe("BMP decoder on hostile headers", () => {
  const bmp = () => makeBmp(13, 7, colour, { bits: 24 });

  it("refuses pixel data that the file is too short to hold, at every length", () => {
    const whole = bmp();
    for (let length = 0; length < whole.length; length += 7) {
      const refusal = (() => {
        try {
          decodeBmpGray(whole.subarray(0, length));
        } catch (error) {
          return error;
        }
      })();
      expect(isPermanent(refusal), `cut at ${length}`).toBe(true);
    }
  });

  it("refuses a pixel offset pointing past the end and a header size bigger than the file", () => {
    const offset = bmp();
    new DataView(offset.buffer).setUint32(10, 0xfffffff0, true);
    expect(() => decodeBmpGray(offset)).toThrow(/damaged or incomplete/);
    const header = makeBmp(4, 4, () => [1], { bits: 8, palette: [[0, 0, 0], [255, 255, 255]] });
    new DataView(header.buffer).setUint32(14, 0x7ffffff0, true);
    expect(() => decodeBmpGray(header)).toThrow(/damaged or incomplete/);
  });

  it("refuses a width times height over the pixel budget without allocating it", () => {
    const huge = bmp();
    new DataView(huge.buffer).setInt32(18, 100_000, true);
    new DataView(huge.buffer).setInt32(22, -100_000, true);
    expect(() => decodeBmpGray(huge)).toThrow(PermanentSketchError);
  });
});
