import { describe, expect, it } from "vitest";
import { decodeImage, decodeToGrayPlane } from "../../workers/sketch/decode";
import { readJpegOrientation } from "../../app/core/images/exif-orientation";
import { stripMetadata } from "../../app/core/images/strip-metadata";
import { exifSegment, insertAfterSoi, makeGif, segment, tiffWith } from "./exif-fixtures";
import { syntheticPhoto, toJpeg, toPng, toWebp } from "./helpers";

const text = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);
const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u32le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];

describe("stripMetadata", () => {
  it("JPEG: EXIF (camera, GPS), XMP, IPTC, comments and trailing data go; orientation and the scans stay exact", async () => {
    const clean = await toJpeg(syntheticPhoto(80, 60, 9));
    const tagged = new Uint8Array([
      ...insertAfterSoi(
        clean,
        exifSegment({ make: "PhoneMaker", model: "Phone 15", orientation: 6, gps: true }),
        segment(0xe1, "http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>GPSLatitude</x:xmpmeta>"),
        segment(0xed, "Photoshop 3.0\0IPTC city London"),
        segment(0xfe, "shot at home"),
      ),
      ...new TextEncoder().encode("trailing secret"),
    ]);
    const stripped = stripMetadata(tagged, "jpeg");
    for (const secret of ["PhoneMaker", "Phone 15", "GPS", "xmpmeta", "London", "shot at home", "trailing secret"]) {
      expect(text(stripped)).not.toContain(secret);
    }
    expect(text(tagged)).toContain("PhoneMaker"); // the fixture really had them
    expect(readJpegOrientation(stripped)).toBe(6);
    // Everything from the frame header to the end of image is the original's, byte for byte.
    const firstSof = (b: Uint8Array) => b.findIndex((v, i) => v === 0xff && (b[i + 1] === 0xc0 || b[i + 1] === 0xc2));
    expect(stripped.subarray(firstSof(stripped))).toEqual(clean.subarray(firstSof(clean)));
    const [before, after] = [await decodeToGrayPlane(tagged), await decodeToGrayPlane(stripped)];
    expect([after.width, after.height]).toEqual([60, 80]); // still upright
    expect(after.data).toEqual(before.data);
  });

  it("fails closed: stray bytes between segments or a metadata segment cut off by the end never pass through", async () => {
    const clean = await toJpeg(syntheticPhoto(40, 30, 3));
    const stray = new Uint8Array([...clean.subarray(0, 2), 0x00, 0x13, 0x37, ...exifSegment({ make: "StrayCam", gps: true }), ...clean.subarray(2)]);
    expect(text(stripMetadata(stray, "jpeg"))).not.toContain("StrayCam");
    const cutOff = new Uint8Array([...clean.subarray(0, 2), ...exifSegment({ make: "CutCam", gps: true })]).subarray(0, 30);
    expect(text(cutOff)).toContain("Exif");
    expect(text(stripMetadata(cutOff, "jpeg"))).not.toContain("Exif");
  });

  it("JPEG without orientation gets no EXIF at all", async () => {
    const clean = await toJpeg(syntheticPhoto(40, 30, 2));
    const stripped = stripMetadata(insertAfterSoi(clean, exifSegment({ make: "Cam", gps: true })), "jpeg");
    expect(text(stripped)).not.toContain("Exif");
    expect(stripped).toEqual(stripMetadata(clean, "jpeg")); // the EXIF segment is all that went
  });

  it("PNG: text, eXIf and tIME chunks go; the pixels stay exact", async () => {
    const png = await toPng(syntheticPhoto(30, 20, 4));
    const chunk = (type: string, data: Uint8Array) => [...u32be(data.length), ...new TextEncoder().encode(type), ...data, 0, 0, 0, 0];
    const afterIhdr = 8 + 25;
    const tagged = new Uint8Array([
      ...png.subarray(0, afterIhdr),
      ...chunk("tEXt", new TextEncoder().encode("Comment\0GPS 51.5N home")),
      ...chunk("eXIf", tiffWith({ make: "PhoneMaker", gps: true })),
      ...chunk("tIME", new Uint8Array([7, 232, 1, 2, 3, 4, 5])),
      ...png.subarray(afterIhdr),
    ]);
    const stripped = stripMetadata(tagged, "png");
    for (const secret of ["tEXt", "eXIf", "tIME", "PhoneMaker", "GPS"]) expect(text(stripped)).not.toContain(secret);
    expect(stripped).toEqual(png);
    expect((await decodeImage(stripped)).rgba).toEqual((await decodeImage(png)).rgba);
  });

  it("WebP: EXIF and XMP chunks go and the VP8X flags say so; the picture stays exact", async () => {
    const lossy = await toWebp(syntheticPhoto(32, 24, 6));
    const vp8 = lossy.subarray(12); // the "VP8 " chunk
    const exif = tiffWith({ model: "Phone 15", gps: true });
    const xmp = new TextEncoder().encode("<x:xmpmeta>GPSLatitude</x:xmpmeta>");
    const chunk = (type: string, data: Uint8Array) => [...new TextEncoder().encode(type), ...u32le(data.length), ...data, ...(data.length % 2 ? [0] : [])];
    const vp8x = chunk("VP8X", new Uint8Array([0x08 | 0x04, 0, 0, 0, 31, 0, 0, 23, 0, 0]));
    const body = [...new TextEncoder().encode("WEBP"), ...vp8x, ...vp8, ...chunk("EXIF", exif), ...chunk("XMP ", xmp)];
    const tagged = new Uint8Array([...new TextEncoder().encode("RIFF"), ...u32le(body.length), ...body]);
    expect((await decodeImage(tagged)).width).toBe(32); // a valid extended WebP to start with
    const stripped = stripMetadata(tagged, "webp");
    for (const secret of ["EXIF", "XMP ", "Phone 15", "GPS"]) expect(text(stripped)).not.toContain(secret);
    expect(stripped[20] & 0x0c).toBe(0);
    expect(new DataView(stripped.buffer).getUint32(4, true)).toBe(stripped.length - 8);
    expect((await decodeImage(stripped)).rgba).toEqual((await decodeImage(tagged)).rgba);
  });

  it("GIF: comments go, the frame stays exact", async () => {
    const palette = Array.from({ length: 256 }, (_, i) => [i, i, i] as [number, number, number]);
    const gif = makeGif(9, 7, (x, y) => x * 9 + y, palette);
    expect(text(gif)).toContain("hello");
    const stripped = stripMetadata(gif, "gif");
    expect(text(stripped)).not.toContain("hello");
    expect((await decodeToGrayPlane(stripped)).data).toEqual((await decodeToGrayPlane(gif)).data);
  });
});
