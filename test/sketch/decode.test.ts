import { describe, expect, it } from "vitest";
import { decodeImage, jpegIsComplete } from "../../workers/sketch/decode";
import { isPermanent } from "../../workers/sketch/errors";
import { pngHeaderOnly, syntheticPhoto, toJpeg, toPng, toWebp } from "./helpers";

describe("decodeImage", () => {
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
    expect(refusal.message).toContain("30000 x 30000 pixels (900 megapixels)");
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
