import { describe, expect, it } from "vitest";
import {
  boxWidthsForGaussian,
  downscaleToFit,
  gaussianBlur,
  photoToSketch,
  rgbaToGray,
  SKETCH_TUNING,
  sketchFromGray,
  type GrayImage,
} from "../../workers/sketch/kernel";
import { syntheticPhoto } from "./helpers";
import {
  meanAbsoluteDifference,
  referenceDownscale,
  referenceGaussian,
  referenceGray,
  referenceSketch,
} from "./kernel-reference";

const flat = (width: number, height: number, value: number): GrayImage => ({
  width,
  height,
  pixels: new Uint8Array(width * height).fill(value),
});

describe("sketch kernel", () => {
  it("matches the float reference of the recipe within 2 grey levels (small image, no downscale)", () => {
    const photo = syntheticPhoto(480, 360, 11);
    const { sketch } = photoToSketch(photo.data, photo.width, photo.height);
    const reference = referenceSketch(referenceGray(photo.data, photo.width, photo.height));
    expect([sketch.width, sketch.height]).toEqual([480, 360]);
    expect(meanAbsoluteDifference(sketch.pixels, reference.values)).toBeLessThanOrEqual(2);
  });

  it("matches the float reference with a downscale and edge smoothing (sigma > 1)", () => {
    const photo = syntheticPhoto(1500, 1100, 5);
    const { sketch } = photoToSketch(photo.data, photo.width, photo.height, 1200);
    const reference = referenceSketch(
      referenceDownscale(referenceGray(photo.data, photo.width, photo.height), 1200),
    );
    expect([sketch.width, sketch.height]).toEqual([1200, 880]);
    expect(meanAbsoluteDifference(sketch.pixels, reference.values)).toBeLessThanOrEqual(2);
  });

  it("converts RGBA to grey with Rec. 601 weights and paints transparency white", () => {
    const rgba = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 10, 10, 0, 0, 0, 0, 128]);
    const { pixels } = rgbaToGray(rgba, 5, 1);
    const reference = referenceGray(rgba, 5, 1).values;
    for (let i = 0; i < 5; i++) expect(Math.abs(pixels[i] - reference[i])).toBeLessThanOrEqual(1);
    expect(pixels[3]).toBe(255);
  });

  it("downscales by exact area average to a long edge of at most 3300 px", () => {
    expect(downscaleToFit(flat(4000, 3000, 77))).toMatchObject({ width: 3300, height: 2475 });
    expect(downscaleToFit(flat(3000, 4000, 77))).toMatchObject({ width: 2475, height: 3300 });
    const small = flat(800, 600, 10);
    expect(downscaleToFit(small)).toBe(small); // never enlarged
    // A flat area stays exactly flat.
    expect(downscaleToFit(flat(4000, 3000, 77)).pixels.every((v) => v === 77)).toBe(true);

    const gray = rgbaToGray(syntheticPhoto(997, 601, 3).data, 997, 601);
    const fast = downscaleToFit(gray, 350);
    const reference = referenceDownscale({ width: 997, height: 601, values: Float64Array.from(gray.pixels) }, 350);
    expect([fast.width, fast.height]).toEqual([reference.width, reference.height]);
    let worst = 0;
    for (let i = 0; i < fast.pixels.length; i++) worst = Math.max(worst, Math.abs(fast.pixels[i] - reference.values[i]));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it("the whole kernel brings a 4000x3000 photo to print size", () => {
    const photo = syntheticPhoto(4000, 3000, 9, 10);
    const { source, sketch } = photoToSketch(photo.data, 4000, 3000);
    expect([source.width, source.height, sketch.width, sketch.height]).toEqual([3300, 2475, 3300, 2475]);
  });

  it("approximates a Gaussian with three boxes of the same variance", () => {
    for (const sigma of [1.5, 2.56, 6, 16.5]) {
      const widths = boxWidthsForGaussian(sigma);
      const variance = widths.reduce((sum, w) => sum + (w * w - 1) / 12, 0);
      expect(Math.abs(Math.sqrt(variance) - sigma) / sigma).toBeLessThan(0.1);
      expect(widths.every((w) => w % 2 === 1)).toBe(true);
    }
    const gray = rgbaToGray(syntheticPhoto(300, 200, 4).data, 300, 200);
    const fast = gaussianBlur(gray, 4);
    const reference = referenceGaussian({ width: 300, height: 200, values: Float64Array.from(gray.pixels) }, 4);
    expect(meanAbsoluteDifference(Array.from(fast, (v) => v / 256), reference.values)).toBeLessThan(0.75);
  });

  it("keeps flat areas white paper and draws a line along a contour", () => {
    const gray = flat(200, 120, 170);
    for (let y = 30; y < 90; y++) for (let x = 60; x < 140; x++) gray.pixels[y * 200 + x] = 110;
    const { pixels } = sketchFromGray(gray);
    expect(pixels[10 * 200 + 10]).toBe(255); // background far from the square
    expect(pixels[60 * 200 + 100]).toBe(255); // middle of the square
    expect(pixels[60 * 200 + 60]).toBeLessThan(128); // on its left edge: ink
  });

  it("Sobel darkens strong edges beyond what the dodge alone draws", () => {
    const gray = flat(200, 120, 200);
    for (let y = 0; y < 120; y++) for (let x = 100; x < 200; x++) gray.pixels[y * 200 + x] = 40;
    const withEdges = sketchFromGray(gray).pixels;
    const dodgeOnly = sketchFromGray(gray, { ...SKETCH_TUNING, edgeDarkening: 0 }).pixels;
    const edgeColumns = [99, 100];
    for (const x of edgeColumns) expect(withEdges[60 * 200 + x]).toBeLessThan(dodgeOnly[60 * 200 + x]);
    // Away from the edge the Sobel term changes nothing.
    expect(withEdges[60 * 200 + 20]).toBe(dodgeOnly[60 * 200 + 20]);
    expect(withEdges[60 * 200 + 180]).toBe(dodgeOnly[60 * 200 + 180]);
  });

  it("gives a blank page for a blank photo", () => {
    const white = new Uint8Array(300 * 200 * 4).fill(255);
    const { sketch } = photoToSketch(white, 300, 200);
    expect(sketch.pixels.every((v) => v === 255)).toBe(true);
  });
});
