import { afterEach, describe, expect, it, vi } from "vitest";
import * as bmp from "../../workers/sketch/decode/bmp";
import { decodeImage, decodeToGrayPlane, jpegIsComplete, MAX_JSQUASH_PIXELS } from "../../workers/sketch/decode";
import { isPermanent } from "../../workers/sketch/errors";
import * as gif from "../../workers/sketch/decode/gif";
import * as jpegDecoder from "../../workers/sketch/decode/jpeg/decode-luma";
import { rgbaToGray } from "../../workers/sketch/kernel";
import { makeBmp, makeGif, meanAbsoluteDifference } from "./exif-fixtures";
import { pngHeaderOnly, syntheticPhoto, toJpeg, toPng, toWebp } from "./helpers";

afterEach(() => vi.restoreAllMocks());

describe("decodeToGrayPlane", () => {
  it("decodes JPEG, PNG, WebP, GIF and BMP to a grey plane of the header's size", async () => {
    const photo = syntheticPhoto(64, 48, 1);
    const expected = rgbaToGray(photo.data, 64, 48);
    const palette = Array.from({ length: 256 }, (_, i) => [i, i, i] as [number, number, number]);
    const inputs = {
      jpeg: await toJpeg(photo),
      png: await toPng(photo),
      webp: await toWebp(photo),
      gif: makeGif(64, 48, (x, y) => expected.data[y * 64 + x], palette),
      bmp: makeBmp(64, 48, (x, y) => Array.from(photo.data.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 3)), { bits: 24 }),
    };
    for (const [format, bytes] of Object.entries(inputs)) {
      const plane = await decodeToGrayPlane(bytes);
      expect([plane.format, plane.width, plane.height, plane.data.length]).toEqual([format, 64, 48, 64 * 48]);
      expect([plane.sourceWidth, plane.sourceHeight]).toEqual([64, 48]);
      // Lossless formats give the exact grey; lossy ones stay close.
      const tolerance = format === "jpeg" || format === "webp" ? 6 : 0;
      expect(meanAbsoluteDifference(plane, expected)).toBeLessThanOrEqual(tolerance);
    }
  });

  it("reduces a big JPEG in the DCT domain, keeping the print long edge", async () => {
    const jpeg = await toJpeg(syntheticPhoto(4000, 600, 4, 10));
    const plane = await decodeToGrayPlane(jpeg, { minLongEdge: 1000 });
    expect([plane.width, plane.height]).toEqual([1000, 150]); // 2/8
    expect([plane.sourceWidth, plane.sourceHeight]).toEqual([4000, 600]);
  });

  it("refuses an oversized header with a clear reason before any decoder runs", async () => {
    const spies = [
      vi.spyOn(jpegDecoder, "decodeJpegPlanes"),
      vi.spyOn(gif, "decodeGifGray"),
      vi.spyOn(bmp, "decodeBmpGray"),
    ];
    // Header-only files: no pixel data follows, so a decoder that ran would fail differently.
    const sof0 = (w: number, h: number) => [0xff, 0xc0, 0, 11, 8, h >> 8, h & 255, w >> 8, w & 255, 1, 1, 0x11, 0];
    const oversized = {
      "30000 x 30000 pixels (900.00 megapixels)": pngHeaderOnly(30000, 30000),
      "6001 x 4000 pixels (24.01 megapixels)": new Uint8Array([0xff, 0xd8, ...sof0(6001, 4000), 0xff, 0xd9]),
      "65535 x 65535 pixels": new Uint8Array([..."GIF89a"].map((c) => c.charCodeAt(0)).concat([255, 255, 255, 255, 0, 0, 0])),
      "20000 x 2000 pixels": makeBmp(20000, 2000, () => [0], { bits: 8, palette: [[0, 0, 0]] }).slice(0, 60),
    };
    for (const [reason, bytes] of Object.entries(oversized)) {
      const refusal = await decodeToGrayPlane(bytes).catch((error) => error);
      expect(isPermanent(refusal)).toBe(true);
      expect(refusal.message).toContain(reason);
      expect(refusal.message).toContain("the limit is 24.00 megapixels");
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it("refuses a PNG or WebP above the jSquash budget before decoding, and says JPEG is fine", async () => {
    const side = Math.ceil(Math.sqrt(MAX_JSQUASH_PIXELS)) + 1;
    const refusal = await decodeToGrayPlane(pngHeaderOnly(side, side)).catch((error) => error);
    expect(isPermanent(refusal)).toBe(true);
    expect(refusal.message).toContain(`${side} x ${side} pixels`);
    expect(refusal.message).toContain("Please upload a JPEG or a smaller image");
  });

  it("names what it cannot read", async () => {
    const refusal = await decodeToGrayPlane(new TextEncoder().encode("%PDF-1.7 not a photo")).catch((e) => e);
    expect(isPermanent(refusal)).toBe(true);
    expect(refusal.message).toContain("JPEG, PNG, WebP, GIF or BMP");
  });
});

describe("decodeImage (RGBA, for tools and tests)", () => {
  it("decodes JPEG, PNG and WebP to RGBA of the header's size", async () => {
    const photo = syntheticPhoto(64, 48, 1);
    for (const bytes of [await toJpeg(photo), await toPng(photo), await toWebp(photo)]) {
      const decoded = await decodeImage(bytes);
      expect([decoded.width, decoded.height, decoded.rgba.length]).toEqual([64, 48, 64 * 48 * 4]);
    }
    // PNG is lossless: the pixels come back exactly.
    expect(Array.from((await decodeImage(await toPng(photo))).rgba)).toEqual(Array.from(photo.data));
  });

  it("refuses an oversized header as a permanent error naming the size", async () => {
    const refusal = await decodeImage(pngHeaderOnly(30000, 30000)).catch((error) => error);
    expect(isPermanent(refusal)).toBe(true);
    expect(refusal.message).toContain("30000 x 30000 pixels (900.00 megapixels)");
  });
});

describe("jpegIsComplete", () => {
  it("follows progressive scans to the end-of-image marker and ignores trailing bytes", async () => {
    const jpeg = await toJpeg(syntheticPhoto(120, 80, 2)); // mozjpeg writes progressive JPEGs
    expect(jpegIsComplete(jpeg)).toBe(true);
    expect(jpegIsComplete(new Uint8Array([...jpeg, 0, 0, 1, 2, 3]))).toBe(true);
  });

  it("notices a JPEG cut anywhere before its end", async () => {
    const jpeg = await toJpeg(syntheticPhoto(120, 80, 3));
    for (const fraction of [0.1, 0.3, 0.5, 0.9]) {
      expect(jpegIsComplete(jpeg.slice(0, Math.floor(jpeg.length * fraction)))).toBe(false);
    }
    expect(jpegIsComplete(jpeg.slice(0, jpeg.length - 2))).toBe(false);
  });
});
