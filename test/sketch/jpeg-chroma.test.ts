import encodeJpeg from "@jsquash/jpeg/encode";
import { describe, expect, it } from "vitest";
import { decodeImage, decodeToGrayPlane } from "../../workers/sketch/decode";
import { chromaScaleFor, decodeJpegPlanes } from "../../workers/sketch/decode/jpeg/decode-luma";
import { regionCountAt, rgbaToChroma, type ChromaPlanes, type GrayPlane } from "../../workers/sketch/kernel";
import { decodeToGray, photoRegions } from "../../workers/sketch/pipeline";
import { bytesOfDataUrl, exifSegment, insertAfterSoi, meanAbsoluteDifference } from "./exif-fixtures";
import { syntheticPhoto, toJpeg, toPng, type Rgba } from "./helpers";

// The fixtures of jpeg-decoder.test.ts: real photos in libjpeg-turbo's layouts (its progressive
// script refines the chroma's AC bits in scans of their own).
const fixtures = import.meta.glob("../fixtures/images/*.jpg", { query: "?inline", eager: true, import: "default" }) as Record<string, string>;
const fixture = (name: string) => bytesOfDataUrl(fixtures[`../fixtures/images/${name}`]);

/** mozjpeg (jSquash's encoder, initialised by toJpeg) with its chroma subsampling chosen here. */
async function jpegOf(image: Rgba, { progressive, subsample }: { progressive: boolean; subsample: 1 | 2 }): Promise<Uint8Array> {
  await toJpeg({ width: 8, height: 8, data: new Uint8ClampedArray(256) });
  const options = { quality: 90, baseline: !progressive, progressive, auto_subsample: false, chroma_subsample: subsample };
  return new Uint8Array(await encodeJpeg({ ...image, colorSpace: "srgb" } as ImageData, options));
}

/** Each output pixel is the mean of the factor x factor source pixels it covers (fewer at the edges). */
function blockAverage({ data, width, height }: GrayPlane, factor: number): GrayPlane {
  const outWidth = Math.ceil(width / factor);
  const outHeight = Math.ceil(height / factor);
  const out = new Uint8Array(outWidth * outHeight);
  for (let oy = 0; oy < outHeight; oy++) {
    for (let ox = 0; ox < outWidth; ox++) {
      let sum = 0;
      let count = 0;
      for (let y = oy * factor; y < Math.min(height, (oy + 1) * factor); y++) {
        for (let x = ox * factor; x < Math.min(width, (ox + 1) * factor); x++, count++) sum += data[y * width + x];
      }
      out[oy * outWidth + ox] = Math.round(sum / count);
    }
  }
  return { data: out, width: outWidth, height: outHeight };
}

/** jSquash's full RGBA decode, converted to Cb and Cr: the reference our DCT-domain chroma is held to. */
async function referenceChroma(bytes: Uint8Array): Promise<ChromaPlanes> {
  const { rgba, width, height } = await decodeImage(bytes);
  return rgbaToChroma(rgba, width, height);
}

/** Our chroma against the reference averaged over the source pixels each of ours covers. */
async function expectChromaLikeReference(bytes: Uint8Array, subsample: 1 | 2, tolerance: number): Promise<void> {
  const reference = await referenceChroma(bytes);
  for (const lumaScale of [8, 4, 2, 1]) {
    const { chroma, width, height } = decodeJpegPlanes(bytes, lumaScale);
    expect(chroma, `luma at ${lumaScale}/8`).toBeDefined();
    const chromaScale = chromaScaleFor(lumaScale, subsample, subsample, 1, 1);
    // Source pixels per chroma pixel: a whole number at every scale these layouts use.
    const factor = (8 * subsample) / chromaScale;
    for (const axis of ["cb", "cr"] as const) {
      const averaged = blockAverage(reference[axis], factor);
      expect([chroma![axis].width, chroma![axis].height], `${axis} at ${lumaScale}/8`).toEqual([averaged.width, averaged.height]);
      // At least half the luma plane's resolution, as the region stage expects.
      expect(chroma![axis].width * 2).toBeGreaterThanOrEqual(width);
      expect(chroma![axis].height * 2).toBeGreaterThanOrEqual(height);
      expect(meanAbsoluteDifference(chroma![axis], averaged), `${axis} at ${lumaScale}/8`).toBeLessThan(tolerance);
    }
  }
}

describe("our JPEG decoder's chroma against jSquash's RGBA", () => {
  // An odd size, so the last blocks and MCUs are cut by the image's edge.
  const photo = syntheticPhoto(203, 141, 5, 30);
  for (const progressive of [false, true]) {
    for (const subsample of [2, 1] as const) {
      const layout = `${subsample === 2 ? "4:2:0" : "4:4:4"} ${progressive ? "progressive" : "baseline"}`;
      it(`${layout} (mozjpeg): Cb and Cr close to the reference at every luma scale`, async () => {
        const bytes = await jpegOf(photo, { progressive, subsample });
        expect(bytes[bytes.indexOf(0xc0 + (progressive ? 2 : 0), 2) - 1]).toBe(0xff);
        await expectChromaLikeReference(bytes, subsample, 2.5);
      });
    }
  }

  const layouts: [string, 1 | 2][] = [
    ["coffee-420-baseline.jpg", 2],
    ["chelsea-444-baseline.jpg", 1],
    ["chelsea-420-progressive.jpg", 2],
  ];
  for (const [name, subsample] of layouts) {
    it(`${name} (libjpeg-turbo): Cb and Cr close to the reference at every luma scale`, async () => {
      await expectChromaLikeReference(fixture(name), subsample, 1);
    });
  }

  it("4:2:2 with restarts, baseline and progressive: the same chroma as each other, at half the luma's width", () => {
    for (const lumaScale of [8, 3, 1]) {
      const baseline = decodeJpegPlanes(fixture("coffee-422-restart.jpg"), lumaScale);
      const progressive = decodeJpegPlanes(fixture("coffee-422-progressive-restart.jpg"), lumaScale);
      // jpegtran made the progressive file from the baseline one: the same coefficients.
      expect(progressive.chroma!.cb.data).toEqual(baseline.chroma!.cb.data);
      expect(progressive.chroma!.cr.data).toEqual(baseline.chroma!.cr.data);
      expect(baseline.chroma!.cb.width).toBe(Math.ceil(Math.ceil(600 / 2) * chromaScaleFor(lumaScale, 2, 1, 1, 1) / 8));
    }
  });

  it("a grey JPEG, baseline or progressive, has no chroma", async () => {
    for (const name of ["coffee-gray.jpg", "chelsea-gray-progressive.jpg"]) {
      expect(decodeJpegPlanes(fixture(name), 4).chroma).toBeUndefined();
      expect((await decodeToGrayPlane(fixture(name))).chroma).toBeUndefined();
    }
  });

  it("the chroma is turned by the EXIF orientation, as the grey is", async () => {
    const bytes = fixture("coffee-420-baseline.jpg");
    const stored = await decodeToGrayPlane(bytes);
    const turned = await decodeToGrayPlane(insertAfterSoi(bytes, exifSegment({ orientation: 6 })));
    const { cb } = stored.chroma!;
    expect([turned.chroma!.cb.width, turned.chroma!.cb.height]).toEqual([cb.height, cb.width]);
    // Orientation 6 (turned 90° clockwise): displayed (x, y) is stored (y, H - 1 - x).
    for (const [x, y] of [[0, 0], [10, 3], [cb.height - 1, cb.width - 1]]) {
      expect(turned.chroma!.cb.data[y * cb.height + x]).toBe(cb.data[(cb.height - 1 - x) * cb.width + y]);
    }
  });
});

describe("colour reaches the region hierarchy through the Worker's decode", () => {
  /** A red square on a green field of the same lightness (Rec. 601 luma 102 both). */
  function redOnGreen(): Rgba {
    const width = 320;
    const height = 240;
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const inside = x >= 100 && x < 220 && y >= 60 && y < 180;
        data.set(inside ? [200, 60, 60, 255] : [38, 147, 38, 255], (y * width + x) * 4);
      }
    }
    return { width, height, data };
  }

  it("a red square on a green field of equal lightness gets a border (JPEG, 4:2:0 and 4:4:4)", async () => {
    for (const subsample of [2, 1] as const) {
      const photo = await decodeToGray(await jpegOf(redOnGreen(), { progressive: true, subsample }));
      expect(photo.chroma).toBeDefined();
      const { hierarchy } = photoRegions(photo);
      expect(regionCountAt(hierarchy, "simple")).toBeGreaterThan(1);
      // The grey alone cannot tell them apart: the border is the colour's.
      const { hierarchy: greyOnly } = photoRegions({ ...photo, chroma: undefined });
      expect(regionCountAt(greyOnly, "detailed")).toBe(1);
    }
  });

  /** Red and green squares of equal lightness, 6 x 4 of them: enough line for a page to score. */
  function redGreenChequer(): Rgba {
    const width = 480;
    const height = 320;
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const red = (Math.floor(x / 80) + Math.floor(y / 80)) % 2 === 0;
        data.set(red ? [200, 60, 60, 255] : [38, 147, 38, 255], (y * width + x) * 4);
      }
    }
    return { width, height, data };
  }

  it("a page whose borders are all colour borders still scores (the score reads the chroma too)", async () => {
    const photo = await decodeToGray(await jpegOf(redGreenChequer(), { progressive: false, subsample: 2 }));
    const { hierarchy, scores } = photoRegions(photo);
    expect(regionCountAt(hierarchy, "simple")).toBeGreaterThan(1);
    expect(scores.simple).toBeGreaterThan(0);
  });

  it("a red square on a green field of equal lightness gets a border (PNG)", async () => {
    const photo = await decodeToGray(await toPng(redOnGreen()));
    expect(photo.chroma).toBeDefined();
    expect(regionCountAt(photoRegions(photo).hierarchy, "simple")).toBeGreaterThan(1);
  });
});
