import decodePng, { init as initPngDecoder } from "@jsquash/png/decode";
import { describe, expect, it } from "vitest";
import { crc32, encodeGrayPng } from "../../workers/sketch/encode";
import { pngCodecWasm } from "../../workers/sketch/decode/wasm-modules";

describe("encodeGrayPng", () => {
  it("writes an 8-bit greyscale PNG that decodes back to the same page", async () => {
    const width = 301;
    const height = 203; // more rows than one strip, odd sizes
    const data = new Uint8Array(width * height).fill(255);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if ((x * y) % 17 === 0 || x === y) data[y * width + x] = (x * 7 + y) & 255;
    const png = await encodeGrayPng({ data, width, height });

    expect(Array.from(png.subarray(0, 8))).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const ihdr = new DataView(png.buffer, png.byteOffset + 8);
    expect(String.fromCharCode(...png.subarray(12, 16))).toBe("IHDR");
    expect([ihdr.getUint32(8), ihdr.getUint32(12), png[24], png[25]]).toEqual([width, height, 8, 0]); // bit depth 8, colour type 0

    await initPngDecoder(pngCodecWasm);
    const decoded = await decodePng(png.slice().buffer);
    expect([decoded.width, decoded.height]).toEqual([width, height]);
    for (let i = 0; i < width * height; i++) {
      if (decoded.data[i * 4] !== data[i] || decoded.data[i * 4 + 3] !== 255) throw new Error(`pixel ${i} differs`);
    }
    // Same page, same bytes.
    expect(Array.from(await encodeGrayPng({ data, width, height }))).toEqual(Array.from(png));
  });

  it("writes a black-and-white page as a 1-bit greyscale PNG that decodes back to the same page", async () => {
    const width = 203; // not a multiple of 8: the last byte of each row is padded
    const height = 171;
    const data = new Uint8Array(width * height).fill(255);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if ((x + 2 * y) % 13 < 3 || x === width - 1) data[y * width + x] = 0;
    const png = await encodeGrayPng({ data, width, height });
    expect([png[24], png[25]]).toEqual([1, 0]); // bit depth 1, colour type 0
    await initPngDecoder(pngCodecWasm);
    const decoded = await decodePng(png.slice().buffer);
    expect([decoded.width, decoded.height]).toEqual([width, height]);
    for (let i = 0; i < width * height; i++) {
      if (decoded.data[i * 4] !== data[i] || decoded.data[i * 4 + 3] !== 255) throw new Error(`pixel ${i} differs`);
    }
  });

  it("falls back to 8 bits for a black-and-white page with one grey pixel in its last row", async () => {
    // The 1-bit packing checks the pixels as it goes: a grey found late must still give 8 bits,
    // and near-black or near-white greys (1, 254) must not pass for black or white.
    for (const grey of [1, 128, 254]) {
      const width = 37;
      const height = 29;
      const data = new Uint8Array(width * height).fill(255);
      for (let i = 0; i < data.length; i += 3) data[i] = 0;
      data[(height - 1) * width + 35] = grey;
      const png = await encodeGrayPng({ data, width, height });
      expect([png[24], png[25]]).toEqual([8, 0]);
      await initPngDecoder(pngCodecWasm);
      const decoded = await decodePng(png.slice().buffer);
      for (let i = 0; i < width * height; i++) {
        if (decoded.data[i * 4] !== data[i]) throw new Error(`grey ${grey}: pixel ${i} differs`);
      }
    }
  });

  it("computes the PNG CRC-32", () => {
    expect(crc32(new TextEncoder().encode("IEND"))).toBe(0xae426082);
  });
});
