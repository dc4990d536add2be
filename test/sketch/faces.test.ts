/**
 * The face stage (workers/sketch/kernel/faces/, decision 034) on real photos: it finds the
 * astronaut's face and no face on a cat or a cup of coffee, and inside the face it found the page
 * draws features, not shading: fewer region lines across the face at Standard, more strokes on
 * it at Simple, than the same photo drawn without looking for faces.
 */
import { describe, expect, it } from "vitest";
import astronautJpeg from "../fixtures/photos/astronaut.jpg?inline";
import chelseaJpeg from "../fixtures/photos/chelsea.jpg?inline";
import coffeeJpeg from "../fixtures/photos/coffee.jpg?inline";
import { decodeToGrayPlane } from "../../workers/sketch/decode";
import { estimateNoise, histogramOf, toneCurve } from "../../workers/sketch/kernel";
import { faceWeights, findFaces, type FaceBox } from "../../workers/sketch/kernel/faces";
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

  it("keeps a face one shape with its features as strokes: fewer lines across it at Standard, more strokes at Simple", async () => {
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
    expect(regionInkInFace(withFaces.hierarchy)).toBeLessThan(0.5 * regionInkInFace(without.hierarchy));
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
});
