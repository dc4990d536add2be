import { describe, expect, it } from "vitest";
import { grayToSketch, rgbaToGray, type GrayPlane } from "../../workers/sketch/kernel";
import { coverageInBand, measureQuality, varianceOfLaplacian } from "../../workers/sketch/quality";
import { boxBlurRgba, syntheticPhoto, type Rgba } from "./helpers";

function quality(photo: Rgba) {
  const gray: GrayPlane = rgbaToGray(photo.data, photo.width, photo.height);
  const { sketch, grey } = grayToSketch(gray);
  return measureQuality({ sourceWidth: photo.width, sourceHeight: photo.height, laplacianVariance: varianceOfLaplacian(gray), grey, sketch });
}

describe("quality score", () => {
  it("scores a blurred copy below the sharp photo", () => {
    const sharp = syntheticPhoto(640, 480, 21);
    const sharpReport = quality(sharp);
    const blurredReport = quality(boxBlurRgba(sharp, 2));
    expect(blurredReport.laplacianVariance).toBeLessThan(sharpReport.laplacianVariance);
    expect(blurredReport.score).toBeLessThan(sharpReport.score);
  });

  it("scores a blank image low", () => {
    const report = quality({ width: 3300, height: 2550, data: new Uint8ClampedArray(3300 * 2550 * 4).fill(255) });
    expect(report.inkShare).toBe(0);
    expect(report.score).toBeLessThanOrEqual(10);
  });

  it("lets a sharp, clean, full-size photo reach 'print it as is' (>= 90)", () => {
    const report = quality(syntheticPhoto(3300, 2550, 7, 60));
    expect(report.resolution).toBe(1);
    expect(report.score).toBeGreaterThanOrEqual(90);
    expect(report.score).toBeLessThanOrEqual(100);
  });

  it("counts a page that is mostly blank paper as too little to colour", () => {
    // A page of closed regions drawn in 0.4-0.7 mm lines carries 2-3 % ink; 1 % is a few lines
    // on blank paper.
    expect(coverageInBand(0.01)).toBeCloseTo(0.5);
    expect(coverageInBand(0.005)).toBeLessThan(0.3);
    expect(coverageInBand(0.02)).toBe(1);
    expect(coverageInBand(0.15)).toBe(1);
    expect(coverageInBand(0.35)).toBeCloseTo(0.5);
    expect(coverageInBand(0)).toBe(0);
  });

  it("scores a thumbnail of the photo below the full-size photo", () => {
    const big = quality(syntheticPhoto(3300, 2550, 7, 60));
    const thumbnail = quality(syntheticPhoto(400, 309, 7, 60));
    expect(thumbnail.resolution).toBeLessThan(0.15);
    expect(thumbnail.score).toBeLessThan(big.score);
  });

  it("is deterministic", () => {
    const photo = syntheticPhoto(400, 300, 3);
    expect(quality(photo)).toEqual(quality(photo));
  });

  it("measures no Laplacian variance on a flat image", () => {
    expect(varianceOfLaplacian(rgbaToGray(new Uint8Array(50 * 40 * 4).fill(128), 50, 40))).toBe(0);
  });
});
