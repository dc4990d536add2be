import { describe, expect, it } from "vitest";
import { decodeToGrayPlane } from "../../workers/sketch/decode";
import { applyOrientation } from "../../workers/sketch/decode/exif";
import { readJpegOrientation } from "../../app/core/images/exif-orientation";
import { exifSegment, insertAfterSoi, storedPixelFor } from "./exif-fixtures";
import { syntheticPhoto, toJpeg } from "./helpers";

describe("EXIF orientation", () => {
  it("reads the tag among other fields, big- and little-endian", () => {
    const jpegStart = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);
    for (let orientation = 1; orientation <= 8; orientation++) {
      const tagged = insertAfterSoi(jpegStart, exifSegment({ make: "Phone", orientation, gps: true }));
      expect(readJpegOrientation(tagged)).toBe(orientation);
    }
    // Little-endian ("II") TIFF with Orientation 6 as the only entry.
    const tiff = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0];
    const app1 = new Uint8Array([0xff, 0xe1, 0, 8 + tiff.length, 0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff]);
    expect(readJpegOrientation(insertAfterSoi(jpegStart, app1))).toBe(6);
    expect(readJpegOrientation(jpegStart)).toBe(1);
  });

  it("applies orientations 1-8 to a decoded JPEG: size, corners and every pixel", async () => {
    // Landscape 48 x 32, as a phone stores a portrait photo, with a dark top-left corner.
    const photo = syntheticPhoto(48, 32, 5);
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) photo.data.set([0, 0, 0], (y * 48 + x) * 4);
    const jpeg = await toJpeg(photo);
    const stored = await decodeToGrayPlane(jpeg);
    expect([stored.width, stored.height]).toEqual([48, 32]);
    for (let orientation = 1; orientation <= 8; orientation++) {
      const shown = await decodeToGrayPlane(insertAfterSoi(jpeg, exifSegment({ orientation, model: "X" })));
      const turned = orientation >= 5;
      expect([shown.width, shown.height]).toEqual(turned ? [32, 48] : [48, 32]);
      expect([shown.sourceWidth, shown.sourceHeight]).toEqual(turned ? [32, 48] : [48, 32]);
      for (let y = 0; y < shown.height; y++) {
        for (let x = 0; x < shown.width; x++) {
          const [sx, sy] = storedPixelFor(orientation, x, y, 48, 32);
          if (shown.data[y * shown.width + x] !== stored.data[sy * 48 + sx]) {
            throw new Error(`orientation ${orientation}: pixel (${x}, ${y}) should be stored (${sx}, ${sy})`);
          }
        }
      }
    }
    // A portrait phone photo (orientation 6: turn clockwise) has the dark corner at the top right.
    const portrait = await decodeToGrayPlane(insertAfterSoi(jpeg, exifSegment({ orientation: 6 })));
    expect(portrait.data[2 * portrait.width + portrait.width - 3]).toBeLessThan(40);
    expect(portrait.data[2 * portrait.width + 2]).toBeGreaterThan(40);
  });

  it("leaves a plane alone for orientation 1 and unknown values", () => {
    const plane = { data: new Uint8Array([1, 2, 3, 4, 5, 6]), width: 3, height: 2 };
    expect(applyOrientation(plane, 1)).toBe(plane);
    expect(applyOrientation(plane, 9)).toBe(plane);
    expect(Array.from(applyOrientation(plane, 6).data)).toEqual([4, 1, 5, 2, 6, 3]);
  });
});
