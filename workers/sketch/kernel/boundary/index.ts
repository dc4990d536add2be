/**
 * The per-pixel boundary model (docs/decisions/035-boundary-model.md): how likely people draw a
 * line through a pixel, by boosted trees fitted on BSDS500's train photos (bench/boundary-model/)
 * over 34 features read on a plane at the model's scale (the analysis grid brought to BSDS's long
 * edge), at the pixels on the finest regions' borders. The border model reads its mean along each
 * border (BORDER_MODEL.logBoundary) where the border is in focus: BSDS's photos are nearly all
 * sharp, so the model takes a defocused background, brought down from a large photo, for outlines.
 */
import type { GrayPlane } from "../plane";
import { areaResize, fitWithin } from "../resize";
import { boundaryFeatures } from "./features";
import { evaluateForest, forestFromJson, type Forest, type ForestJson } from "./forest";
import modelJson from "./model.json";
import { BOUNDARY_TUNING } from "./tuning";
import { crestSums, type AdjacencyGraph } from "../regions/adjacency";
import { SOBEL_VARIANCE } from "../regions/edge-map";
import { blurFloatInPlace, type FloatPlane } from "../regions/float-plane";

let forest: Forest | null = null;

/**
 * Per border of `graph` (the finest regions, `label` on the analysis grid), the model's boundary
 * chance summed along it (the crest of each crack), discounted by the border's blur: all of it
 * up to BOUNDARY_TUNING.sharpPx, none from blurredPx on. `magnitude` is the edge maps' (grey and
 * colour together) of the grey smoothed by `sigma` grid px. `given`: a chance per grid pixel to
 * read in place of the model's (the bench's candidate maps); one of another size is refused, not
 * quietly replaced by the model's, which would score the model as the candidate.
 */
export function borderBoundary(graph: AdjacencyGraph, label: Int32Array, grey: GrayPlane, colour: { cb: Uint8Array; cr: Uint8Array } | undefined, magnitude: FloatPlane, sigma: number, given?: Float32Array): Float64Array {
  const { width, height } = grey;
  if (given && given.length !== width * height) {
    throw new Error(`the given boundary map has ${given.length} values; the analysis grid is ${width} x ${height}`);
  }
  const chance = given ?? boundaryMap(grey, colour, label);
  // Across a straight edge the gradient keeps its sign, so the magnitude blurred is the magnitude
  // of the photo blurred: one blur of the edge maps' magnitude, colour included, gives the wider step.
  const wider: FloatPlane = { data: magnitude.data.slice(), width, height };
  blurFloatInPlace(wider, BOUNDARY_TUNING.blurProbePx);
  const [sums, steps, widerSteps] = crestSums(graph, label, width, height, [chance, magnitude.data, wider.data]);
  // A step blurred by b (a Gaussian) answers Sobel under a further Gaussian s in proportion to
  // 1 / sqrt(s² + b² + Sobel's own variance): the ratio r of the two answers gives b.
  const near = sigma * sigma + SOBEL_VARIANCE;
  const far = near + BOUNDARY_TUNING.blurProbePx ** 2;
  const { sharpPx, blurredPx } = BOUNDARY_TUNING;
  for (let e = 0; e < graph.edgeCount; e++) {
    if (sums[e] === 0) continue;
    const r2 = (steps[e] / Math.max(widerSteps[e], 1e-6)) ** 2;
    const blur = r2 <= 1 ? Infinity : Math.sqrt(Math.max(0, (far - r2 * near) / (r2 - 1)));
    sums[e] *= Math.min(1, Math.max(0, (blurredPx - blur) / (blurredPx - sharpPx)));
  }
  return sums;
}

/** The plane the model reads a grid plane at: the grid brought to the model's scale (never up). */
function modelPlane(grey: GrayPlane): { width: number; height: number } {
  return fitWithin(grey.width, grey.height, BOUNDARY_TUNING.modelLongEdge);
}

/** The feature planes at the model's scale, for a toned grey grid plane and its colour (grid-sized). */
export function boundaryFeaturePlanes(grey: GrayPlane, colour?: { cb: Uint8Array; cr: Uint8Array }, wanted?: Uint8Array) {
  const plane = modelPlane(grey);
  return { features: featuresOn(plane, grey, colour, wanted), width: plane.width, height: plane.height };
}

/** The feature planes on `plane` (the model's, from modelPlane) of a grid plane and its colour. */
function featuresOn(plane: { width: number; height: number }, grey: GrayPlane, colour: { cb: Uint8Array; cr: Uint8Array } | undefined, wanted?: Uint8Array): Float32Array[] {
  const at = (data: Uint8Array) => {
    const small = plane.width === grey.width && plane.height === grey.height ? data : areaResize({ data, width: grey.width, height: grey.height }, plane.width, plane.height).data;
    return Float32Array.from(small);
  };
  const flat = new Float32Array(plane.width * plane.height).fill(128);
  return boundaryFeatures(at(grey.data), colour ? at(colour.cb) : flat, colour ? at(colour.cr) : flat.slice(), plane.width, plane.height, wanted);
}

/**
 * The boundary chance of the grid pixels, each read at its nearest pixel of the model's plane;
 * with the finest regions' `label`, only at the pixels on a border (0 elsewhere): the border model
 * reads nothing else, and the trees are most of the stage's cost.
 */
export function boundaryMap(grey: GrayPlane, colour?: { cb: Uint8Array; cr: Uint8Array }, label?: Int32Array): Float32Array {
  forest ??= forestFromJson(modelJson as ForestJson);
  const plane = modelPlane(grey);
  const { width, height } = plane;
  const nearest = nearestPixels(grey.width, grey.height, width, height);
  const wanted = label ? onBorders(label, grey.width, grey.height, nearest, width * height) : undefined;
  const features = featuresOn(plane, grey, colour, wanted);
  const chance = evaluateForest(forest, features, width * height, wanted);
  const out = new Float32Array(grey.width * grey.height);
  for (let i = 0; i < out.length; i++) out[i] = chance[nearest[i]];
  return out;
}

/** For each pixel of a gridWidth × gridHeight plane, the index of its nearest pixel on a width × height one. */
function nearestPixels(gridWidth: number, gridHeight: number, width: number, height: number): Int32Array {
  const column = new Int32Array(gridWidth);
  for (let x = 0; x < gridWidth; x++) column[x] = Math.min(width - 1, Math.floor(((x + 0.5) * width) / gridWidth));
  const nearest = new Int32Array(gridWidth * gridHeight);
  for (let y = 0; y < gridHeight; y++) {
    const row = Math.min(height - 1, Math.floor(((y + 0.5) * height) / gridHeight)) * width;
    for (let x = 0; x < gridWidth; x++) nearest[y * gridWidth + x] = row + column[x];
  }
  return nearest;
}

/** The model's pixels nearest to a grid pixel on a border of `label`. */
function onBorders(label: Int32Array, gridWidth: number, gridHeight: number, nearest: Int32Array, count: number): Uint8Array {
  const wanted = new Uint8Array(count);
  for (let y = 0; y < gridHeight; y++) {
    for (let x = 0; x < gridWidth; x++) {
      const i = y * gridWidth + x;
      if (x + 1 < gridWidth && label[i] !== label[i + 1]) wanted[nearest[i]] = wanted[nearest[i + 1]] = 1;
      if (y + 1 < gridHeight && label[i] !== label[i + gridWidth]) wanted[nearest[i]] = wanted[nearest[i + gridWidth]] = 1;
    }
  }
  return wanted;
}
