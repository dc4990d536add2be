import { describe, expect, it } from "vitest";
import { decodeToGrayPlane } from "../../workers/sketch/decode";
import { PROCESSING_FAILURES } from "../../app/core/engine-messages";
import { PermanentSketchError } from "../../workers/sketch/errors";
import { decodeGifGray } from "../../workers/sketch/decode/gif";
import { makeGif, packLzwCodes } from "./exif-fixtures";

const palette: [number, number, number][] = Array.from({ length: 256 }, (_, i) => [i, (i * 3) % 256, 255 - i]);
const grey = (i: number) => (77 * palette[i][0] + 150 * palette[i][1] + 29 * palette[i][2] + 128) >> 8;
const index = (x: number, y: number) => (x * 7 + y * 13) % 250;

describe("GIF decoder (first frame)", () => {
  for (const interlaced of [false, true]) {
    it(`${interlaced ? "interlaced" : "progressive rows"}: every pixel through LZW with clear codes`, async () => {
      const gif = makeGif(37, 29, index, palette, { interlaced });
      const plane = await decodeToGrayPlane(gif);
      expect([plane.format, plane.width, plane.height]).toEqual(["gif", 37, 29]);
      for (let y = 0; y < 29; y++) for (let x = 0; x < 37; x++) expect(plane.data[y * 37 + x]).toBe(grey(index(x, y)));
    });
  }

  it("transparent pixels and the screen outside the frame are white paper", () => {
    const gif = makeGif(4, 3, (x) => (x === 0 ? 9 : 100), palette, {
      transparent: 9,
      frame: { left: 2, top: 1, width: 4, height: 3 },
      screen: { width: 8, height: 5 },
    });
    const plane = decodeGifGray(gif);
    expect([plane.width, plane.height]).toEqual([8, 5]);
    expect(plane.data[0]).toBe(255); // outside the frame
    expect(plane.data[1 * 8 + 2]).toBe(255); // transparent index
    expect(plane.data[1 * 8 + 3]).toBe(grey(100));
  });

  it("decodes a real encoder's LZW stream, whose codes grow from 3 to 4 bits", () => {
    // The 10x10 four-colour sample GIF taken apart byte by byte in "What's in a GIF" (M. Flickinger).
    const bytes = new Uint8Array([
      0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x0a, 0x00, 0x0a, 0x00, 0x91, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00,
      0x00, 0x00, 0x00, 0xff, 0x00, 0x00, 0x00, 0x21, 0xf9, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00,
      0x00, 0x00, 0x0a, 0x00, 0x0a, 0x00, 0x00, 0x02, 0x16, 0x8c, 0x2d, 0x99, 0x87, 0x2a, 0x1c, 0xdc, 0x33, 0xa0,
      0x02, 0x75, 0xec, 0x95, 0xfa, 0xa8, 0xde, 0x60, 0x8c, 0x04, 0x91, 0x4c, 0x01, 0x00, 0x3b,
    ]);
    const plane = decodeGifGray(bytes);
    expect([plane.width, plane.height]).toEqual([10, 10]);
    // The well-known 10x10 sample: rows of red (1) and blue (2) blocks with a white (0) middle.
    const red = (77 * 255 + 128) >> 8;
    const blue = (29 * 255 + 128) >> 8;
    const row = (y: number) => Array.from(plane.data.subarray(y * 10, y * 10 + 10));
    expect(row(0)).toEqual([red, red, red, red, red, blue, blue, blue, blue, blue]);
    expect(row(4)).toEqual([red, red, red, 255, 255, 255, 255, blue, blue, blue]);
    expect(row(9)).toEqual([blue, blue, blue, blue, blue, red, red, red, red, red]);
  });
});

describe("GIF decoder on hostile files", () => {
  const small = () => makeGif(8, 6, index, palette);
  /** Offset of the image descriptor (0x2c) of a makeGif file. */
  const descriptorAt = (gif: Uint8Array) => gif.indexOf(0x2c, 13 + 256 * 3);

  it("refuses a frame claiming 65535 x 65535 on an 8 x 6 screen before allocating for it", () => {
    const gif = small();
    const at = descriptorAt(gif);
    gif.set([0xff, 0xff, 0xff, 0xff], at + 5); // frame width and height
    expect(() => decodeGifGray(gif)).toThrow(PROCESSING_FAILURES.gifFrameOutsideScreen);
  });

  it("refuses a frame whose offset puts it past the screen", () => {
    const gif = small();
    gif.set([3, 0], descriptorAt(gif) + 1); // left = 3 with the full width
    expect(() => decodeGifGray(gif)).toThrow(PermanentSketchError);
  });

  it("refuses an LZW code size outside 2..8 and a code beyond the table", () => {
    const gif = small();
    const codeSizeAt = descriptorAt(gif) + 10;
    const badSize = gif.slice();
    badSize[codeSizeAt] = 12;
    expect(() => decodeGifGray(badSize)).toThrow(PROCESSING_FAILURES.gifDamaged);
    // A clear code, one literal, then code 300 while the table's next entry is 258.
    const packed = packLzwCodes([256, 5, 300, 257]);
    const badCode = new Uint8Array([...gif.subarray(0, codeSizeAt + 1), packed.length, ...packed, 0, 0x3b]);
    expect(() => decodeGifGray(badCode)).toThrow(PROCESSING_FAILURES.gifDamaged);
    // The same stream with a defined code (258 = the KwKwK case) decodes.
    const goodCode = new Uint8Array([...gif.subarray(0, codeSizeAt + 1), ...[packLzwCodes([256, 5, 258, 257])].flatMap((p) => [p.length, ...p]), 0, 0x3b]);
    expect(decodeGifGray(goodCode).data.subarray(0, 3)).toEqual(new Uint8Array([grey(5), grey(5), grey(5)]));
  });

  it("a file cut anywhere is refused as damaged, unless every pixel arrived before the cut", () => {
    const gif = small();
    const whole = decodeGifGray(gif).data;
    let refused = 0;
    for (let length = 13; length < gif.length - 2; length++) {
      let plane;
      try {
        plane = decodeGifGray(gif.subarray(0, length));
      } catch (error) {
        expect(error, `cut at ${length}`).toBeInstanceOf(PermanentSketchError);
        refused++;
        continue;
      }
      expect(plane.data, `cut at ${length}`).toEqual(whole);
    }
    expect(refused).toBeGreaterThan(gif.length - 20);
  });
});
