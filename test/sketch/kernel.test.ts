import { describe, expect, it } from "vitest";
import {
  boxWidthsForGaussian,
  cleanPage,
  downscaleToFit,
  estimateNoise,
  grayToSketch,
  photoToSketch,
  rgbaToGray,
  SKETCH_TUNING,
  toneCurve,
  type GrayPlane,
} from "../../workers/sketch/kernel";
import { syntheticPhoto } from "./helpers";
import { meanAbsoluteDifference, referenceDownscale, referenceGray, referenceSketch } from "./kernel-reference";

const flat = (width: number, height: number, value: number): GrayPlane => ({
  width,
  height,
  data: new Uint8Array(width * height).fill(value),
});

function compareWithReference(width: number, height: number, seed: number, maxLongEdge: number) {
  const photo = syntheticPhoto(width, height, seed);
  const { sketch } = photoToSketch(photo.data, width, height, maxLongEdge);
  const reference = referenceSketch(referenceGray(photo.data, width, height), maxLongEdge);
  expect([sketch.width, sketch.height]).toEqual([reference.width, reference.height]);
  return meanAbsoluteDifference(sketch.data, reference.values);
}

describe("sketch kernel", () => {
  it("matches the float reference within 2 grey levels (small photo, no reduced planes)", () => {
    expect(compareWithReference(480, 360, 11, 3300)).toBeLessThanOrEqual(2);
  });

  it("matches the float reference with a downscale (blur on a reduced plane)", () => {
    expect(compareWithReference(1500, 1100, 5, 1200)).toBeLessThanOrEqual(2);
  });

  it("matches the float reference at print size (both planes reduced, 3000 px long edge)", { timeout: 120_000 }, () => {
    expect(compareWithReference(3000, 900, 8, 3300)).toBeLessThanOrEqual(2);
  });

  it("converts RGBA to grey with Rec. 601 weights and paints transparency white", () => {
    const rgba = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 10, 10, 0, 0, 0, 0, 128]);
    const { data } = rgbaToGray(rgba, 5, 1);
    const reference = referenceGray(rgba, 5, 1).values;
    for (let i = 0; i < 5; i++) expect(Math.abs(data[i] - reference[i])).toBeLessThanOrEqual(1);
    expect(data[3]).toBe(255);
  });

  it("downscales by exact area average to a long edge of at most 3300 px, aspect kept", () => {
    expect(downscaleToFit(flat(4000, 3000, 77))).toMatchObject({ width: 3300, height: 2475 });
    expect(downscaleToFit(flat(3000, 4000, 77))).toMatchObject({ width: 2475, height: 3300 });
    const small = flat(800, 600, 10);
    expect(downscaleToFit(small)).toBe(small); // never enlarged
    expect(downscaleToFit(flat(4000, 3000, 77)).data.every((v) => v === 77)).toBe(true);

    const gray = rgbaToGray(syntheticPhoto(997, 601, 3).data, 997, 601);
    const fast = downscaleToFit(gray, 350);
    const reference = referenceDownscale({ width: 997, height: 601, values: Float64Array.from(gray.data) }, 350);
    expect([fast.width, fast.height]).toEqual([reference.width, reference.height]);
    let worst = 0;
    for (let i = 0; i < fast.data.length; i++) worst = Math.max(worst, Math.abs(fast.data[i] - reference.values[i]));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it("brings a 4000x3000 grey plane to a 3300x2475 page", () => {
    const photo = syntheticPhoto(4000, 3000, 9, 10);
    const { sketch } = grayToSketch(rgbaToGray(photo.data, 4000, 3000));
    expect([sketch.width, sketch.height, sketch.data.length]).toEqual([3300, 2475, 3300 * 2475]);
  });

  it("approximates a Gaussian with three boxes of the same variance", () => {
    for (const sigma of [1.5, 2.56, 6, 16.5]) {
      const widths = boxWidthsForGaussian(sigma);
      const variance = widths.reduce((sum, w) => sum + (w * w - 1) / 12, 0);
      expect(Math.abs(Math.sqrt(variance) - sigma) / sigma).toBeLessThan(0.1);
      expect(widths.every((w) => w % 2 === 1)).toBe(true);
    }
  });

  it("keeps flat areas white paper and draws a dark line along a contour", () => {
    const gray = flat(200, 120, 170);
    for (let y = 30; y < 90; y++) for (let x = 60; x < 140; x++) gray.data[y * 200 + x] = 110;
    const { data } = grayToSketch(gray).sketch;
    expect(data[10 * 200 + 10]).toBe(255);
    expect(data[60 * 200 + 100]).toBe(255);
    expect(data[60 * 200 + 60]).toBeLessThan(80);
  });

  it("gives a blank page for a blank photo, and for a flat photo with faint noise", () => {
    expect(photoToSketch(new Uint8Array(300 * 200 * 4).fill(255), 300, 200).sketch.data.every((v) => v === 255)).toBe(true);
    const noisy = flat(300, 200, 150);
    let state = 1;
    for (let i = 0; i < noisy.data.length; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      noisy.data[i] += (state >>> 29) - 4;
    }
    expect(grayToSketch(noisy).sketch.data.every((v) => v === 255)).toBe(true);
  });

  it("cleanup erases specks and grey smudges, keeps lines, and whitens the paper", () => {
    const page = flat(60, 40, 240);
    page.data[5 * 60 + 5] = 0; // a one-pixel speck
    for (let x = 10; x < 50; x++) page.data[20 * 60 + x] = 20; // a line
    for (let y = 30; y < 38; y++) for (let x = 30; x < 40; x++) page.data[y * 60 + x] = 200; // a smudge
    const stats = cleanPage(page, { ...SKETCH_TUNING, speckSidePrintPx: 3 * (3300 / 60) });
    expect(page.data[5 * 60 + 5]).toBe(255);
    expect(page.data[20 * 60 + 30]).toBe(20);
    expect(page.data[33 * 60 + 33]).toBe(255);
    expect(page.data[0]).toBe(255);
    expect(stats).toMatchObject({ specksRemoved: 1, smudgesRemoved: 1, marks: 1, inkPixels: 40 });
  });

  it("stretches a dull photo and lifts a dark one, but leaves a flat one alone", () => {
    const histogram = (values: number[]) => {
      const h = new Float64Array(256);
      for (const v of values) h[v] += 1000;
      return h;
    };
    const dull = toneCurve(histogram([100, 110, 120, 130, 140]));
    expect(dull[140] - dull[100]).toBeGreaterThan(100);
    const dark = toneCurve(histogram([0, 10, 20, 30, 40, 250]));
    expect(dark[30]).toBeGreaterThan(30);
    const blank = toneCurve(histogram([128]));
    expect(blank[128]).toBe(128);
  });

  it("estimates noise: none on a smooth ramp, about its sigma on added noise", () => {
    const ramp = flat(200, 100, 0);
    for (let i = 0; i < ramp.data.length; i++) ramp.data[i] = (i % 200) + 20;
    expect(estimateNoise(ramp)).toBeLessThan(0.5);
    const noisy = flat(400, 300, 128);
    let state = 7;
    for (let i = 0; i < noisy.data.length; i++) {
      let sum = 0;
      for (let k = 0; k < 12; k++) sum += (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
      noisy.data[i] = 128 + Math.round((sum - 6) * 10); // sigma 10
    }
    expect(estimateNoise(noisy)).toBeGreaterThan(8);
    expect(estimateNoise(noisy)).toBeLessThan(12);
  });
});
