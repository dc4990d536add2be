/**
 * Faces: where a photo has them (docs/decisions/034-faces.md). A face is what a parent checks
 * first on a page, and inside one the engine draws otherwise: its eyes, brows and mouth are
 * features, drawn as strokes even where they are faint, and its shading is no shape to colour.
 *
 *   the analysis grid's toned grey, reduced to FACE_TUNING.searchLongEdge     (here)
 *   → the frontal-face cascade slid over its pyramid, windows grouped         detect.ts
 *   → each face as an ellipse on the grid: a mask the strokes and regions read
 */
import type { GrayPlane } from "../plane";
import { areaResize, fitWithin } from "../resize";
import { frontalFaceCascade } from "./cascade";
import { detectFaces, type FaceBox } from "./detect";
import { FACE_TUNING } from "./tuning";

export { FACE_TUNING } from "./tuning";
export type { FaceBox } from "./detect";

/**
 * How much each pixel of a width × height plane belongs to a face: 1 in the core of a face's
 * oval, falling to 0 at its edge, 0 elsewhere (null when there is no face).
 */
export function faceWeights(faces: readonly FaceBox[], width: number, height: number): Float32Array | null {
  if (faces.length === 0) return null;
  const weights = new Float32Array(width * height);
  const { ovalCentreDown, ovalHalfWidth, ovalHalfHeight, ovalCore } = FACE_TUNING;
  for (const { x, y, size } of faces) {
    const centreX = x + size / 2;
    const centreY = y + ovalCentreDown * size;
    const halfWidth = ovalHalfWidth * size;
    const halfHeight = ovalHalfHeight * size;
    const top = Math.max(0, Math.floor(centreY - halfHeight));
    const bottom = Math.min(height - 1, Math.ceil(centreY + halfHeight));
    const left = Math.max(0, Math.floor(centreX - halfWidth));
    const right = Math.min(width - 1, Math.ceil(centreX + halfWidth));
    for (let py = top; py <= bottom; py++) {
      for (let px = left; px <= right; px++) {
        const radius = Math.hypot((px + 0.5 - centreX) / halfWidth, (py + 0.5 - centreY) / halfHeight);
        if (radius >= 1) continue;
        const weight = radius <= ovalCore ? 1 : (1 - radius) / (1 - ovalCore);
        const i = py * width + px;
        if (weight > weights[i]) weights[i] = weight;
      }
    }
  }
  return weights;
}

/** The faces of a grey plane, in its own pixels. */
export function findFaces(grey: GrayPlane): FaceBox[] {
  const search = fitWithin(grey.width, grey.height, FACE_TUNING.searchLongEdge);
  const scale = grey.width / search.width;
  const small = areaResize(grey, search.width, search.height);
  const smallestFace = FACE_TUNING.smallestFaceShare * Math.max(search.width, search.height);
  return detectFaces(small, frontalFaceCascade(), smallestFace).map(({ x, y, size }) => ({ x: x * scale, y: y * scale, size: size * scale }));
}
