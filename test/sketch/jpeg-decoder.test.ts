import { describe, expect, it } from "vitest";
import { decodeImage, decodeToGrayPlane } from "../../workers/sketch/decode";
import { isPermanent } from "../../workers/sketch/errors";
import { decodeJpegLuma, jpegScaleFor, UnsupportedJpegError } from "../../workers/sketch/decode/jpeg/decode-luma";
import { rgbaToGray, type GrayPlane } from "../../workers/sketch/kernel";
import { bytesOfDataUrl, meanAbsoluteDifference } from "./exif-fixtures";

// Real photos (skimage's coffee and chelsea) re-encoded with libjpeg-turbo's cjpeg/jpegtran in
// the layouts phones and editors write; see test/fixtures/images/README.md.
const fixtures = import.meta.glob("../fixtures/images/*.jpg", { query: "?inline", eager: true, import: "default" }) as Record<string, string>;
const jpeg = (name: string) => bytesOfDataUrl(fixtures[`../fixtures/images/${name}`]);
const layouts = [
  "coffee-420-baseline.jpg",
  "chelsea-444-baseline.jpg",
  "coffee-422-restart.jpg",
  "chelsea-420-progressive.jpg",
  "coffee-422-progressive-restart.jpg",
  "coffee-gray.jpg",
  "chelsea-gray-progressive.jpg",
];

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

async function jsquashGray(bytes: Uint8Array): Promise<GrayPlane> {
  const { rgba, width, height } = await decodeImage(bytes);
  return rgbaToGray(rgba, width, height);
}

describe("our luma JPEG decoder against jSquash (mozjpeg)", () => {
  for (const name of layouts) {
    it(`${name}: the same grey at full size, and close at 1/2, 1/4, 1/8`, async () => {
      const bytes = jpeg(name);
      const reference = await jsquashGray(bytes);
      const full = decodeJpegLuma(bytes, 8);
      expect([full.width, full.height]).toEqual([reference.width, reference.height]);
      // Only rounding differs (RGB round trip of the luma, chroma upsampling): well under one level.
      expect(meanAbsoluteDifference(full, reference)).toBeLessThan(0.5);
      for (const scale of [4, 2, 1]) {
        const reduced = decodeJpegLuma(bytes, scale);
        expect([reduced.width, reduced.height]).toEqual([Math.ceil((reference.width * scale) / 8), Math.ceil((reference.height * scale) / 8)]);
        // DCT-domain reduction versus the mean of the same source pixels: a few levels at most.
        const averaged = blockAverage(reference, 8 / scale);
        expect(meanAbsoluteDifference(reduced, averaged)).toBeLessThan(3);
      }
    });
  }

  it("a progressive JPEG gives the same grey as its baseline twin at every scale (only the coefficients read are kept)", () => {
    // jpegtran made the progressive file from the baseline one: the same coefficients, so any
    // coefficient lost or misplaced by the progressive store shows as a different pixel.
    const baseline = jpeg("coffee-422-restart.jpg");
    const progressive = jpeg("coffee-422-progressive-restart.jpg");
    for (let scale = 1; scale <= 8; scale++) {
      const expected = decodeJpegLuma(baseline, scale);
      const got = decodeJpegLuma(progressive, scale);
      expect([got.width, got.height]).toEqual([expected.width, expected.height]);
      let differing = 0;
      for (let i = 0; i < expected.data.length; i++) if (got.data[i] !== expected.data[i]) differing++;
      expect(differing, `pixels differing at ${scale}/8`).toBe(0);
    }
  });

  it("picks the smallest eighth that keeps the print long edge", () => {
    expect(jpegScaleFor(5120, 2880, 3300)).toBe(6); // 3840
    expect(jpegScaleFor(6000, 4000, 3300)).toBe(5); // 3750
    expect(jpegScaleFor(4032, 3024, 3300)).toBe(7); // 3528
    expect(jpegScaleFor(3000, 2000, 3300)).toBe(8);
    expect(jpegScaleFor(26400, 100, 3300)).toBe(1);
  });

  it("hands an RGB-coded JPEG to jSquash (it fits), and the grey is the same", async () => {
    const bytes = jpeg("chelsea-rgb.jpg");
    expect(() => decodeJpegLuma(bytes)).toThrow(UnsupportedJpegError);
    const plane = await decodeToGrayPlane(bytes);
    expect([plane.width, plane.height]).toEqual([451, 300]);
    expect(meanAbsoluteDifference(plane, decodeJpegLuma(jpeg("chelsea-444-baseline.jpg")))).toBeLessThan(3);
  });

  it("refuses an arithmetic-coded JPEG (neither decoder reads it) with the reason", async () => {
    const error = await decodeToGrayPlane(jpeg("chelsea-arithmetic.jpg")).catch((e) => e);
    expect(isPermanent(error)).toBe(true);
    expect(error.message).toContain("arithmetic-coded");
    expect(error.message).toContain("Please save it as an ordinary JPEG");
  });

  it("refuses a 12-bit JPEG clearly when it is too large for the fallback", async () => {
    // SOF1 with 12-bit precision, 4000 x 3000: a header is all it takes.
    const sof = [0xff, 0xc1, 0, 11, 12, 0x0b, 0xb8, 0x0f, 0xa0, 1, 1, 0x11, 0];
    const bytes = new Uint8Array([0xff, 0xd8, ...sof, 0xff, 0xd9]);
    const error = await decodeToGrayPlane(bytes).catch((e) => e);
    expect(isPermanent(error)).toBe(true);
    expect(error.message).toContain("12-bit");
    expect(error.message).toContain("4000 x 3000");
  });

  it("turns damaged entropy data into a permanent error or a picture, never a crash", async () => {
    const bytes = jpeg("coffee-420-baseline.jpg").slice();
    for (let i = 2000; i < bytes.length - 2; i += 997) bytes[i] ^= 0x5a;
    const outcome = await decodeToGrayPlane(bytes).then(
      (plane) => plane.width,
      (error) => (isPermanent(error) ? "permanent" : error),
    );
    expect([600, "permanent"]).toContain(outcome);
  });
});
