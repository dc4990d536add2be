import { describe, expect, it } from "vitest";
import { photoToSketch, rgbaToGray } from "../../workers/sketch/kernel";
import { countSpeckles, measureQuality, varianceOfLaplacian } from "../../workers/sketch/quality";
import { boxBlurRgba, syntheticPhoto, type Rgba } from "./helpers";

function quality(photo: Rgba) {
  const { source, sketch } = photoToSketch(photo.data, photo.width, photo.height);
  return measureQuality({ sourceWidth: photo.width, sourceHeight: photo.height, source, sketch });
}

describe("quality score", () => {
  it("scores a blurred copy below the sharp photo", () => {
    const sharp = syntheticPhoto(640, 480, 21);
    const blurred = boxBlurRgba(sharp, 2);
    const sharpReport = quality(sharp);
    const blurredReport = quality(blurred);
    expect(blurredReport.laplacianVariance).toBeLessThan(sharpReport.laplacianVariance);
    expect(blurredReport.score).toBeLessThan(sharpReport.score);
  });

  it("scores a blank image low", () => {
    const blank = { width: 3300, height: 2550, data: new Uint8ClampedArray(3300 * 2550 * 4).fill(255) };
    const report = quality(blank);
    expect(report.inkCoverage).toBe(0);
    expect(report.score).toBeLessThanOrEqual(10);
  });

  it("lets a sharp, clean, full-size photo reach 'print it as is' (>= 90)", () => {
    const report = quality(syntheticPhoto(3300, 2550, 7, 60));
    expect(report.resolution).toBe(1);
    expect(report.score).toBeGreaterThanOrEqual(90);
    expect(report.score).toBeLessThanOrEqual(100);
  });

  it("marks the same photo lower when it is small for the page", () => {
    const big = quality(syntheticPhoto(3300, 2550, 7, 60));
    const small = quality(syntheticPhoto(825, 638, 7, 60));
    expect(small.resolution).toBeCloseTo(0.25, 2);
    expect(small.score).toBeLessThan(big.score);
  });

  it("is deterministic", () => {
    const photo = syntheticPhoto(400, 300, 3);
    expect(quality(photo)).toEqual(quality(photo));
  });

  it("measures no Laplacian variance on a flat image", () => {
    expect(varianceOfLaplacian(rgbaToGray(new Uint8Array(50 * 40 * 4).fill(128), 50, 40))).toBe(0);
  });

  it("counts small 8-connected ink blobs as speckles and leaves lines alone", () => {
    const width = 40;
    const pixels = new Uint8Array(width * 30).fill(255);
    const ink = (x: number, y: number) => (pixels[y * width + x] = 0);
    ink(2, 2); // a dot
    ink(10, 10), ink(11, 11); // a diagonal pair: one blob
    for (let x = 5; x < 35; x++) ink(x, 20); // a line of 30 pixels
    for (let y = 0; y < 8; y++) ink(30, y); // a short vertical bar of 8
    expect(countSpeckles({ width, height: 30, pixels }, 128, 4)).toBe(2);
    expect(countSpeckles({ width, height: 30, pixels }, 128, 10)).toBe(3);
  });
});
