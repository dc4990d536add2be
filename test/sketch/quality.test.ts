import { describe, expect, it } from "vitest";
import { grayToSketch, rgbaToGray, type GrayPlane } from "../../workers/sketch/kernel";
import { faceFeatureShare } from "../../workers/sketch/measure/faces";
import { FACELESS_PENALTY, lineAmount, measureQuality, varianceOfLaplacian } from "../../workers/sketch/measure/quality";
import { boxBlurRgba, syntheticPhoto, type Rgba } from "./helpers";

/** A white page with a face's outline (the engine's oval around a 200 px box at 100, 100) and what `draw` adds inside. */
function facePage(draw: (ink: (x0: number, y0: number, x1: number, y1: number) => void) => void): { page: GrayPlane; face: { x: number; y: number; size: number } } {
  const width = 400;
  const page = { width, height: 400, data: new Uint8Array(width * 400).fill(255) };
  const face = { x: 100, y: 100, size: 200 };
  const ink = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) page.data.fill(0, y * width + x0, y * width + x1);
  };
  // The outline: an oval from the forehead (above the box) to the chin (below it), 3 px wide.
  for (let t = 0; t < 2000; t++) {
    const angle = (t / 2000) * 2 * Math.PI;
    const x = Math.round(200 + 100 * Math.cos(angle));
    const y = Math.round(210 + 130 * Math.sin(angle));
    ink(Math.max(0, x - 1), Math.max(0, y - 1), Math.min(width, x + 2), Math.min(400, y + 2));
  }
  draw(ink);
  return { page, face };
}

function quality(photo: Rgba) {
  const gray: GrayPlane = rgbaToGray(photo.data, photo.width, photo.height);
  const { sketch, grey } = grayToSketch(gray);
  return measureQuality({ sourceWidth: photo.width, sourceHeight: photo.height, laplacianVariance: varianceOfLaplacian(gray), grey, sketch });
}

describe("quality score", () => {
  it("scores a blurred copy no higher than the sharp photo, and a blur that melts its shapes lower", () => {
    // Region pages are drawn from smoothed borders: a slight blur (2 px on a 640 px photo) leaves
    // the same shapes and may score the same; one that melts neighbouring shapes together cannot.
    const sharp = syntheticPhoto(640, 480, 21);
    const sharpReport = quality(sharp);
    const slightly = quality(boxBlurRgba(sharp, 2));
    const melted = quality(boxBlurRgba(sharp, 12));
    expect(slightly.laplacianVariance).toBeLessThan(sharpReport.laplacianVariance);
    expect(slightly.score).toBeLessThanOrEqual(sharpReport.score);
    expect(melted.score).toBeLessThan(sharpReport.score);
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

  it("counts a page with little line as too little to colour, and a very busy one as a puzzle", () => {
    // Metres of line on the printed page: one mist line (0.3 m) is nothing, a flower (2 m) is a page,
    // a room of small parts (9 m) is work rather than fun.
    expect(lineAmount(0.3)).toBe(0);
    expect(lineAmount(1.05)).toBeCloseTo(0.5);
    expect(lineAmount(2)).toBe(1);
    expect(lineAmount(5)).toBe(1);
    expect(lineAmount(9.5)).toBeCloseTo(0.6);
    expect(lineAmount(20)).toBeCloseTo(0.2);
  });

  it("scores a few shapes floating on an empty page down for the page it leaves empty", () => {
    // Three discs on a plain wall: clean, closed, on the photo's edges, but 9/10 of the page is one
    // white area. The same discs among many shapes fill the page.
    const width = 1100;
    const height = 800;
    const data = new Uint8ClampedArray(width * height * 4).fill(235);
    for (const [cx, cy, r] of [[300, 300, 60], [520, 420, 70], [760, 330, 55]]) {
      for (let y = cy - r; y <= cy + r; y++) for (let x = cx - r; x <= cx + r; x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) data.fill(60, (y * width + x) * 4, (y * width + x) * 4 + 3);
      }
    }
    const floating = quality({ width, height, data });
    const full = quality(syntheticPhoto(width, height, 7, 60));
    expect(floating.backgroundShare).toBeGreaterThan(0.9);
    expect(floating.factors.filled).toBeLessThan(0.75);
    expect(full.factors.filled).toBe(1);
  });

  it("scores a thumbnail of the photo below the full-size photo", () => {
    const big = quality(syntheticPhoto(3300, 2550, 7, 60));
    const thumbnail = quality(syntheticPhoto(400, 309, 7, 60));
    expect(thumbnail.resolution).toBeLessThan(0.4); // 400 px of the 1100 px analysis grid
    expect(thumbnail.score).toBeLessThan(big.score);
  });

  it("sees whether a face's eyes and mouth are drawn, not the lines that only pass through them", () => {
    const eyes = (ink: (x0: number, y0: number, x1: number, y1: number) => void) => {
      ink(140, 160, 185, 164);
      ink(215, 160, 260, 164);
    };
    const mouth = (ink: (x0: number, y0: number, x1: number, y1: number) => void) => ink(165, 260, 235, 264);
    const portrait = facePage((ink) => (eyes(ink), mouth(ink)));
    expect(faceFeatureShare(portrait.page, [portrait.face])).toBe(1);
    const blank = facePage(() => {});
    expect(faceFeatureShare(blank.page, [blank.face])).toBe(0);
    const eyesOnly = facePage(eyes);
    expect(faceFeatureShare(eyesOnly.page, [eyesOnly.face])).toBeCloseTo(2 / 3);
    // A lock of hair across the forehead and down one cheek: through the zones, across none.
    const hair = facePage((ink) => ink(150, 100, 154, 300));
    expect(faceFeatureShare(hair.page, [hair.face])).toBe(0);
    // A large face counts for more than a small one; no face, no figure.
    expect(faceFeatureShare(portrait.page, [portrait.face, { x: 0, y: 0, size: 50 }])).toBeGreaterThan(0.9);
    expect(faceFeatureShare(portrait.page, [])).toBeNull();
  });

  it("scores a portrait whose face lost its features down, and one that shows them as before", () => {
    const photo = syntheticPhoto(1100, 800, 7, 60);
    const gray = rgbaToGray(photo.data, photo.width, photo.height);
    const { sketch, grey } = grayToSketch(gray);
    const base = { sourceWidth: photo.width, sourceHeight: photo.height, laplacianVariance: varianceOfLaplacian(gray), grey, sketch };
    const without = measureQuality(base);
    const portrait = facePage((ink) => (ink(140, 160, 185, 164), ink(215, 160, 260, 164), ink(165, 260, 235, 264)));
    const blank = facePage(() => {});
    const shown = measureQuality({ ...base, faces: { boxes: [portrait.face], featurePage: portrait.page } });
    const lost = measureQuality({ ...base, faces: { boxes: [blank.face], featurePage: blank.page } });
    expect(without.factors.faces).toBe(1);
    expect(shown.factors.faces).toBe(1);
    expect(shown.score).toBe(without.score);
    expect(lost.factors.faces).toBe(1 - FACELESS_PENALTY);
    expect(lost.score).toBeLessThan(without.score);
  });

  it("scores a page that lost half its subject's outlines down for the likeness it lost", () => {
    const photo = syntheticPhoto(1100, 800, 7, 60);
    const gray = rgbaToGray(photo.data, photo.width, photo.height);
    const { sketch, grey } = grayToSketch(gray);
    const base = { sourceWidth: photo.width, sourceHeight: photo.height, laplacianVariance: varianceOfLaplacian(gray), grey };
    const whole = measureQuality({ ...base, sketch });
    // The same page with its left half's lines erased: what is left is as clean, but half the photo is missing.
    const halved = { ...sketch, data: sketch.data.slice() };
    for (let y = 0; y < halved.height; y++) halved.data.fill(255, y * halved.width, y * halved.width + (halved.width >> 1));
    const half = measureQuality({ ...base, sketch: halved });
    expect(whole.edgeRecall).toBeGreaterThan(0.8);
    expect(whole.factors.likeness).toBe(1);
    expect(half.edgeRecall).toBeLessThan(0.6 * whole.edgeRecall);
    expect(half.factors.likeness).toBeLessThan(0.75);
    expect(half.score).toBeLessThan(whole.score);
  });

  it("is deterministic", () => {
    const photo = syntheticPhoto(400, 300, 3);
    expect(quality(photo)).toEqual(quality(photo));
  });

  it("measures no Laplacian variance on a flat image", () => {
    expect(varianceOfLaplacian(rgbaToGray(new Uint8Array(50 * 40 * 4).fill(128), 50, 40))).toBe(0);
  });
});
