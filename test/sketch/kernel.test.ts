import { describe, expect, it } from "vitest";
import { DETAIL_LEVELS } from "../../app/lib/constants";
import {
  boxWidthsForGaussian,
  downscaleToFit,
  estimateNoise,
  grayToSketch,
  photoToSketch,
  rgbaToGray,
  toneCurve,
  tuningFor,
  type GrayPlane,
} from "../../workers/sketch/kernel";
import { baseReductionFor, blockMeans, gaussianInPlace, smallGaussianInPlace } from "../../workers/sketch/kernel/blur";
import { renderPage } from "../../workers/sketch/kernel/render";
import { surroundPlane } from "../../workers/sketch/kernel/surround";
import { tonedFixed } from "../../workers/sketch/kernel/tone";
import { syntheticPhoto } from "./helpers";
import { referenceDownscale, referenceGray } from "./kernel-reference";

const flat = (width: number, height: number, value: number): GrayPlane => ({
  width,
  height,
  data: new Uint8Array(width * height).fill(value),
});

/** A page is binary: only black ink and white paper, nothing a crayon cannot follow. */
function isBinary(page: GrayPlane): boolean {
  return page.data.every((v) => v === 0 || v === 255);
}

/** The share of ink pixels that sit inside a 3 x 3 square of ink: 1 when every line is >= 3 px wide. */
function shareInThreeByThree(page: GrayPlane): number {
  const { width, height, data } = page;
  let ink = 0;
  let covered = 0;
  // Two pixels at the page's edge are left out: a line cut by the edge of the page is cut short.
  for (let y = 2; y < height - 2; y++) {
    for (let x = 2; x < width - 2; x++) {
      if (data[y * width + x] !== 0) continue;
      ink++;
      let found = false;
      for (let cy = Math.max(1, y - 1); cy <= Math.min(height - 2, y + 1) && !found; cy++) {
        for (let cx = Math.max(1, x - 1); cx <= Math.min(width - 2, x + 1) && !found; cx++) {
          let all = true;
          for (let dy = -1; dy <= 1 && all; dy++) for (let dx = -1; dx <= 1 && all; dx++) all = data[(cy + dy) * width + cx + dx] === 0;
          found = all;
        }
      }
      if (found) covered++;
    }
  }
  return ink ? covered / ink : 1;
}

describe("sketch kernel", () => {
  it("makes a binary page at every detail level, with more ink the more detail is asked for", () => {
    const photo = syntheticPhoto(900, 600, 11);
    const ink = DETAIL_LEVELS.map((detail) => {
      const { sketch } = photoToSketch(photo.data, 900, 600, { detail });
      expect(isBinary(sketch)).toBe(true);
      return sketch.data.filter((v) => v === 0).length;
    });
    expect(ink[0]).toBeGreaterThan(0);
    expect(ink[0]).toBeLessThan(ink[2]);
  });

  it("draws lines of a printable weight (every ink pixel in a 3 x 3 square of ink)", () => {
    const { sketch } = photoToSketch(syntheticPhoto(1200, 800, 5).data, 1200, 800);
    expect(sketch.data.some((v) => v === 0)).toBe(true);
    expect(shareInThreeByThree(sketch)).toBe(1);
  });

  it("keeps the outline of a shape and drops a field of pebbles around it", () => {
    // A dark square on light paper, surrounded by a dense field of small dark dots (texture).
    const size = 1200;
    const gray = flat(size, size, 200);
    let state = 3;
    const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let n = 0; n < 3000; n++) {
      const cx = Math.floor(random() * size);
      const cy = Math.floor(random() * size);
      if (cx > 300 && cx < 900 && cy > 300 && cy < 900) continue; // the square stays clean
      for (let y = cy - 3; y <= cy + 3; y++) for (let x = cx - 3; x <= cx + 3; x++) if (x >= 0 && y >= 0 && x < size && y < size) gray.data[y * size + x] = 150;
    }
    for (let y = 450; y < 750; y++) for (let x = 450; x < 750; x++) gray.data[y * size + x] = 40;
    const { sketch } = grayToSketch(gray);
    // The square's outline: ink within a few pixels of each side's middle.
    const inkNear = (x0: number, y0: number) => {
      for (let y = y0 - 6; y <= y0 + 6; y++) for (let x = x0 - 6; x <= x0 + 6; x++) if (sketch.data[y * size + x] === 0) return true;
      return false;
    };
    expect([inkNear(450, 600), inkNear(750, 600), inkNear(600, 450), inkNear(600, 750)]).toEqual([true, true, true, true]);
    // The pebble field (outside the clean frame around the square) is mostly paper.
    let fieldInk = 0;
    let field = 0;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (x > 250 && x < 950 && y > 250 && y < 950) continue;
        field++;
        if (sketch.data[y * size + x] === 0) fieldInk++;
      }
    }
    expect(fieldInk / field).toBeLessThan(0.05);
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

  it("makes the small Gaussians the boxes cannot (a five-tap pass, up to σ 1.2) with the variance asked for", () => {
    // An impulse of 256 × 64 in 8.8 grey: after the blur, the variance of its spread along a row.
    const spreadVariance = (sigma: number): number => {
      const size = 21;
      const data = new Uint16Array(size * size);
      data[10 * size + 10] = 256 * 64;
      smallGaussianInPlace({ data, width: size, height: size, scale: 2 }, sigma);
      let total = 0;
      let moment = 0;
      for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
        total += data[y * size + x];
        moment += data[y * size + x] * (x - 10) ** 2;
      }
      expect(Math.abs(total - 256 * 64)).toBeLessThan(20); // nothing lost at the borders, little by rounding
      return moment / total;
    };
    expect(spreadVariance(0.2)).toBe(0); // too small to make: left alone
    // Up to 1.2 by five taps: three boxes (widths 1, 3, 3) made 1.155 for anything from 1 to 1.15.
    for (const sigma of [0.5, 0.7, 0.82, 0.95, 1.05, 1.15]) expect(Math.abs(spreadVariance(sigma) / sigma ** 2 - 1)).toBeLessThan(0.01);
    expect(Math.sqrt(spreadVariance(2))).toBeCloseTo(2, 0); // the stacked boxes
  });

  it("smooths at half size once the block mean blurs no more than the smoothing asks", () => {
    expect(baseReductionFor(0.9)).toBe(1); // a small photo: every pixel of its lines counts
    expect(baseReductionFor(1.9)).toBe(2); // a 1600 px photo
    expect(baseReductionFor(3)).toBe(2); // print size
  });

  it("renders on the half grid of a half-size smoothed plane what the full-size pass renders", () => {
    // The planes of a 1200 x 800 page: the toned grey at half size, smoothed, its dodge blur and
    // surround, as grayToSketch makes them.
    const width = 1200;
    const height = 800;
    const photo = syntheticPhoto(width, height, 5, 50);
    const gray = rgbaToGray(photo.data, width, height);
    const halfWidth = width / 2;
    const halfHeight = height / 2;
    const half = { data: new Uint16Array(halfWidth * halfHeight), width: halfWidth, height: halfHeight, scale: 2 };
    for (let y = 0; y < halfHeight; y++) {
      for (let x = 0; x < halfWidth; x++) {
        const i = 2 * y * width + 2 * x;
        half.data[y * halfWidth + x] = (gray.data[i] + gray.data[i + 1] + gray.data[i + width] + gray.data[i + width + 1]) << 6;
      }
    }
    const edgeSigma = 2;
    const tuning = tuningFor("standard");
    smallGaussianInPlace(half, 0.8);
    const blurred = blockMeans(half, 4);
    gaussianInPlace(blurred, 1.2);
    const surround = surroundPlane(half, edgeSigma, 8);
    // The full-size pass, from the smoothed plane upsampled to working size the way the pass
    // upsamples it (pixel x at (x + 0.5) / 2 - 0.5), against the pass on the half grid.
    const full = { data: new Uint16Array(width * height), width, height, scale: 1 };
    const at = (size: number, x: number) => Math.min(size - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
    for (let y = 0; y < height; y++) {
      const fy = at(halfHeight, y);
      const y0 = Math.min(halfHeight - 2, Math.floor(fy));
      for (let x = 0; x < width; x++) {
        const fx = at(halfWidth, x);
        const x0 = Math.min(halfWidth - 2, Math.floor(fx));
        const v = (dy: number, dx: number) => half.data[(y0 + dy) * halfWidth + x0 + dx];
        const top = v(0, 0) + (v(0, 1) - v(0, 0)) * (fx - x0);
        const bottom = v(1, 0) + (v(1, 1) - v(1, 0)) * (fx - x0);
        full.data[y * width + x] = Math.round(top + (bottom - top) * (fy - y0));
      }
    }
    const onFullGrid = new Uint8Array(width * height);
    renderPage(onFullGrid, width, height, full, blurred, surround, edgeSigma, tuning);
    const onHalfGrid = new Uint8Array(width * height);
    renderPage(onHalfGrid, width, height, half, blurred, surround, edgeSigma, tuning);
    // Lines (pixels binarise would mark) as many (47 293 against 47 382; without the half grid's
    // gradient gain 42 481) and in the same places, but for a fringe pixel along their sides.
    const marked = (page: Uint8Array) => page.reduce((count, v) => count + (v < tuning.weakLevel ? 1 : 0), 0);
    let differ = 0;
    for (let i = 0; i < width * height; i++) differ += +((onFullGrid[i] < tuning.weakLevel) !== (onHalfGrid[i] < tuning.weakLevel));
    expect(marked(onFullGrid)).toBeGreaterThan(0.03 * width * height);
    expect(Math.abs(marked(onHalfGrid) - marked(onFullGrid)) / marked(onFullGrid)).toBeLessThan(0.05);
    expect(differ / marked(onFullGrid)).toBeLessThan(0.2);
  });

  it("draws a photo of odd width (a portrait fitted to 2475 x 3300) as it draws its even-width twin", () => {
    // The same picture 801 and 800 px wide: the half-size planes' scale must stay a whole 2, or
    // every later reduction is a fraction and the surround and outlines read fractional indices.
    const wide = syntheticPhoto(801, 1400, 11, 60);
    const gray801 = rgbaToGray(wide.data, 801, 1400);
    const gray800: GrayPlane = { width: 800, height: 1400, data: new Uint8Array(800 * 1400) };
    for (let y = 0; y < 1400; y++) gray800.data.set(gray801.data.subarray(y * 801, y * 801 + 800), y * 800);
    const odd = grayToSketch(gray801).sketch;
    const even = grayToSketch(gray800).sketch;
    let inkOdd = 0;
    let inkEven = 0;
    let differ = 0;
    for (let y = 0; y < 1400; y++) {
      for (let x = 0; x < 780; x++) {
        const a = odd.data[y * 801 + x] === 0;
        const b = even.data[y * 800 + x] === 0;
        inkOdd += +a;
        inkEven += +b;
        differ += +(a !== b);
      }
    }
    expect(inkOdd).toBeGreaterThan(0.02 * 780 * 1400);
    expect(Math.abs(inkOdd - inkEven) / inkEven).toBeLessThan(0.03);
    expect(differ / (780 * 1400)).toBeLessThan(0.01);
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

  it("tones every grey, four at a time where aligned and one by one elsewhere, as 8.8", () => {
    const curve = new Uint8Array(256).map((_, v) => 255 - ((v * 7) % 256));
    const backing = new Uint8Array(1 + 4099).map((_, i) => (i * 37 + 11) % 256);
    // Aligned (a decoded plane) and not (a view one byte in), lengths that four does not divide.
    for (const grey of [backing.subarray(0, 4099), backing.subarray(1, 4100), backing.subarray(0, 3), backing.subarray(1, 9)]) {
      const toned = tonedFixed(grey, curve);
      expect(toned.length).toBe(grey.length);
      let differ = 0;
      for (let i = 0; i < grey.length; i++) differ += +(toned[i] !== curve[grey[i]] << 8);
      expect(differ, `${grey.length} greys at byte ${grey.byteOffset}`).toBe(0);
    }
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
