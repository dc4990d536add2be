/**
 * The face stage (workers/sketch/kernel/faces/, decision 034) on real photos: it finds the
 * astronaut's face and no face on a cat or a cup of coffee, and inside the face it found the page
 * draws features, not shading: fewer region lines across the face at Standard, more strokes on
 * it at Simple, than the same photo drawn without looking for faces. The scan, which runs a stage
 * at a time over all of a level's windows for speed, finds exactly what the plain scan finds.
 */
import { describe, expect, it } from "vitest";
import astronautJpeg from "../fixtures/photos/astronaut.jpg?inline";
import chelseaJpeg from "../fixtures/photos/chelsea.jpg?inline";
import coffeeJpeg from "../fixtures/photos/coffee.jpg?inline";
import { decodeToGrayPlane } from "../../workers/sketch/decode";
import { estimateNoise, histogramOf, toneCurve } from "../../workers/sketch/kernel";
import { FACE_TUNING, faceWeights, findFaces, type FaceBox } from "../../workers/sketch/kernel/faces";
import { frontalFaceCascade, type FaceCascade } from "../../workers/sketch/kernel/faces/cascade";
import { candidateWindows, windowStepAt } from "../../workers/sketch/kernel/faces/detect";
import { integrate } from "../../workers/sketch/kernel/summed-area";
import { areaResize, fitWithin } from "../../workers/sketch/kernel/resize";
import type { GrayPlane } from "../../workers/sketch/kernel/plane";
import { buildHierarchy, drawLevel, type HierarchyOptions } from "../../workers/sketch/kernel/regions";
import { strokeDrawnAt } from "../../workers/sketch/kernel/strokes";
import { faceFeatureShare, facesOnPage } from "../../workers/sketch/measure/faces";

const dataUrlBytes = (dataUrl: string) => Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(",") + 1)), (c) => c.charCodeAt(0));

async function hierarchyOf(dataUrl: string, options: HierarchyOptions = {}) {
  const photo = await decodeToGrayPlane(dataUrlBytes(dataUrl));
  return { photo, ...buildHierarchy(photo, toneCurve(histogramOf(photo)), estimateNoise(photo), photo.chroma, options) };
}

/** Whether a grid point lies in the middle of a face's box: eyes, nose and mouth, not its outline. */
const inFaceMiddle = ({ x, y, size }: FaceBox) => (px: number, py: number) =>
  px > x + 0.15 * size && px < x + 0.85 * size && py > y + 0.2 * size && py < y + 0.95 * size;

describe("faces", () => {
  it("finds the astronaut's face where it is, and none on a cat or a cup of coffee", async () => {
    const { faces } = await hierarchyOf(astronautJpeg);
    expect(faces).toHaveLength(1);
    const [{ x, y, size }] = faces;
    // Her face runs from about (180, 70) to (270, 190) in the 512 px photo.
    expect(x + size / 2).toBeGreaterThan(200);
    expect(x + size / 2).toBeLessThan(250);
    expect(y + size / 2).toBeGreaterThan(95);
    expect(y + size / 2).toBeLessThan(145);
    expect(size).toBeGreaterThan(70);
    expect(size).toBeLessThan(130);

    for (const other of [chelseaJpeg, coffeeJpeg]) expect(findFaces(await decodeToGrayPlane(dataUrlBytes(other)))).toEqual([]);
  });

  it("weighs a face's oval: whole in its middle, nothing outside, fading at its edge", () => {
    const weights = faceWeights([{ x: 40, y: 40, size: 100 }], 200, 200)!;
    const at = (x: number, y: number) => weights[y * 200 + x];
    expect(at(90, 95)).toBe(1);
    expect(at(10, 10)).toBe(0);
    expect(at(190, 95)).toBe(0);
    const nearEdge = at(137, 95);
    expect(nearEdge).toBeGreaterThan(0);
    expect(nearEdge).toBeLessThan(1);
    expect(faceWeights([], 200, 200)).toBeNull();
  });

  it("keeps a face one shape with its features as strokes: few lines across it at Standard, more strokes at Simple", async () => {
    const withFaces = await hierarchyOf(astronautJpeg);
    const without = await hierarchyOf(astronautJpeg, { faces: false });
    const middle = inFaceMiddle(withFaces.faces[0]);
    const scale = 0.25;
    const photoToPage = (withFaces.hierarchy.pageWidth * scale) / withFaces.photo.width;
    const regionInkInFace = (hierarchy: typeof without.hierarchy) => {
      const page = drawLevel(hierarchy, "standard", scale, { strokes: false });
      let ink = 0;
      for (let y = 0; y < page.height; y++) for (let x = 0; x < page.width; x++) if (page.data[y * page.width + x] === 0 && middle(x / photoToPage, y / photoToPage)) ink++;
      return ink;
    };
    const strokesInFace = (hierarchy: typeof without.hierarchy) => {
      const { strokes } = hierarchy;
      let count = 0;
      for (let k = 0; k < strokes.count; k++) {
        const p = strokes.pointStart[k] + ((strokes.pointStart[k + 1] - strokes.pointStart[k]) >> 1);
        if (strokeDrawnAt(strokes, k, "simple") && middle(strokes.points[2 * p], strokes.points[2 * p + 1])) count++;
      }
      return count;
    };
    // Region lines across the middle of her face: the shading drawn as shapes inked 5 % of it (622
    // pixels at this scale); her face as one shape leaves a lock of her fringe, under 2 %.
    let middlePixels = 0;
    const page = drawLevel(withFaces.hierarchy, "standard", scale, { strokes: false });
    for (let y = 0; y < page.height; y++) for (let x = 0; x < page.width; x++) if (middle(x / photoToPage, y / photoToPage)) middlePixels++;
    expect(regionInkInFace(withFaces.hierarchy)).toBeLessThan(0.02 * middlePixels);
    expect(strokesInFace(withFaces.hierarchy)).toBeGreaterThanOrEqual(5);
    expect(strokesInFace(withFaces.hierarchy)).toBeGreaterThan(strokesInFace(without.hierarchy));
  });

  it("lets the score see the astronaut's eyes and mouth at every level, and miss them on her page without strokes", async () => {
    const { hierarchy, faces } = await hierarchyOf(astronautJpeg);
    for (const level of ["simple", "standard", "detailed"] as const) {
      const page = drawLevel(hierarchy, level, 0.5);
      const boxes = facesOnPage(faces, page.width / hierarchy.gridWidth);
      expect(faceFeatureShare(page, boxes), level).toBe(1);
      if (level === "simple") expect(faceFeatureShare(drawLevel(hierarchy, level, 0.5, { strokes: false }), boxes)).toBeLessThan(1);
    }
  });

  it("scans stage by stage over all of a level's windows and finds exactly the windows a window-by-window scan finds", async () => {
    const photo = await decodeToGrayPlane(dataUrlBytes(astronautJpeg));
    const size = fitWithin(photo.width, photo.height, FACE_TUNING.searchLongEdge);
    const grey = areaResize(photo, size.width, size.height);
    const smallestFace = FACE_TUNING.smallestFaceShare * Math.max(grey.width, grey.height);
    const found = candidateWindows(grey, frontalFaceCascade(), smallestFace);
    expect(found.length).toBeGreaterThan(3);
    expect(found).toEqual(windowByWindow(grey, frontalFaceCascade(), smallestFace));
  });
});

/** The plain Viola-Jones scan, each window through the cascade on its own (decision 034), as the reference. */
function windowByWindow(grey: GrayPlane, cascade: FaceCascade, smallestFace: number): number[][] {
  const { windowWidth, windowHeight, stageEnd, stageThreshold, threshold, votes: stumpVotes, rects, weights } = cascade;
  const found: number[][] = [];
  for (let scale = Math.max(1, smallestFace / windowWidth); ; scale *= FACE_TUNING.scaleStep) {
    const width = Math.round(grey.width / scale);
    const height = Math.round(grey.height / scale);
    if (width < windowWidth + 2 || height < windowHeight + 2) break;
    const stride = width + 1;
    const sums = new Int32Array(stride * (height + 1));
    const squares = new Float64Array(sums.length);
    integrate(areaResize(grey, width, height), sums, squares);
    const box = (base: number, x: number, y: number, w: number, h: number, table: ArrayLike<number>) =>
      table[base + y * stride + x] - table[base + y * stride + x + w] - table[base + (y + h) * stride + x] + table[base + (y + h) * stride + x + w];
    const area = (windowWidth - 2) * (windowHeight - 2);
    const step = windowStepAt(scale);
    for (let y = 0; y + windowHeight < height; y += step) {
      for (let x = 0; x + windowWidth < width; x += step) {
        const base = y * stride + x;
        const spread = area * box(base, 1, 1, windowWidth - 2, windowHeight - 2, squares) - box(base, 1, 1, windowWidth - 2, windowHeight - 2, sums) ** 2;
        if (spread < (area * FACE_TUNING.flattestFaceSpread) ** 2) continue;
        const norm = 1 / Math.sqrt(spread);
        let stage = 0;
        for (let stump = 0; stage < stageEnd.length; stage++) {
          let votes = 0;
          for (; stump < stageEnd[stage]; stump++) {
            let value = 0;
            for (let r = 0; r < 3; r++) {
              const [rx, ry, rw, rh] = rects.subarray(stump * 12 + r * 4, stump * 12 + r * 4 + 4);
              if (weights[stump * 3 + r] !== 0) value += weights[stump * 3 + r] * box(base, rx, ry, rw, rh, sums);
            }
            votes += value * norm < threshold[stump] ? stumpVotes[2 * stump] : stumpVotes[2 * stump + 1];
          }
          if (votes < stageThreshold[stage]) break;
        }
        if (stage === stageEnd.length) found.push([x * scale, y * scale, windowWidth * scale]);
        else if (stage === 0) x += step;
      }
    }
  }
  return found;
}
