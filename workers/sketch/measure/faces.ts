/**
 * Whether the page shows the features of the faces the engine found (docs/decisions/017-region-page-score.md,
 * "faces"). A parent looks at a face first: a page whose portrait lost its eyes or its mouth is
 * not one to print as is, however clean its lines are.
 *
 * Each face is the detector's square box (kernel/faces/: brows to below the mouth, cheek to
 * cheek). Its three features are looked for where they sit in that box: the left eye, the right
 * eye, the mouth. A feature is there when ink (a stroke or a region line) runs across at least
 * FEATURE_SPAN of its zone's width: an eye or a mouth is drawn across the face, while the lines
 * that only pass through a zone (the hair's edge, a glasses' bridge, the face's outline on a
 * small face) cover few of its columns.
 */
import type { GrayPlane } from "../kernel";
import type { FaceBox } from "../kernel/faces";
import { INK_LEVEL } from "./pixels";

/** The zones of a face's box where its features are: [left, top, right, bottom] as shares of the box's side. */
export const FEATURE_ZONES = {
  leftEye: [0.1, 0.15, 0.5, 0.5],
  rightEye: [0.5, 0.15, 0.9, 0.5],
  mouth: [0.2, 0.65, 0.8, 0.98],
} as const;

/** A feature is drawn when ink lies in at least this share of its zone's columns. */
export const FEATURE_SPAN = 0.3;

/**
 * The share of the faces' features the page shows (0-1), each face counting by its area, or null
 * when there is no face. `faces` are in the page's own pixels.
 */
export function faceFeatureShare(page: GrayPlane, faces: readonly FaceBox[]): number | null {
  const zones = Object.values(FEATURE_ZONES);
  let shown = 0;
  let total = 0;
  for (const face of faces) {
    const drawn = zones.filter((zone) => featureDrawn(page, face, zone)).length;
    const area = face.size * face.size;
    shown += (area * drawn) / zones.length;
    total += area;
  }
  return total > 0 ? shown / total : null;
}

function featureDrawn(page: GrayPlane, { x, y, size }: FaceBox, [left, top, right, bottom]: readonly number[]): boolean {
  const x0 = Math.max(0, Math.floor(x + left * size));
  const x1 = Math.min(page.width, Math.ceil(x + right * size));
  const y0 = Math.max(0, Math.floor(y + top * size));
  const y1 = Math.min(page.height, Math.ceil(y + bottom * size));
  if (x1 <= x0 || y1 <= y0) return false;
  let inkedColumns = 0;
  for (let px = x0; px < x1; px++) {
    for (let py = y0; py < y1; py++) {
      if (page.data[py * page.width + px] <= INK_LEVEL) {
        inkedColumns++;
        break;
      }
    }
  }
  return inkedColumns >= FEATURE_SPAN * (x1 - x0);
}

/** Face boxes found on the analysis grid, in the pixels of a page `toPage` times its size. */
export function facesOnPage(faces: readonly FaceBox[], toPage: number): FaceBox[] {
  return faces.map(({ x, y, size }) => ({ x: x * toPage, y: y * toPage, size: size * toPage }));
}
