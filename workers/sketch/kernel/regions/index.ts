/**
 * The region stage: a photo's grey plane in, a hierarchy of closed regions out, and any of its
 * three detail levels drawn as a page (docs/decisions/016-region-pages.md, 031-likeness.md):
 *
 *   analysis grid: the toned grey (and chroma), reduced to at most analysisLongEdge px  (here)
 *   → edge strength: Sobel of grey and colour, minus surround                      edge-map.ts
 *   → watershed basins of the edge strength                                        watershed.ts
 *   → their adjacency graph: border length, saliency and magnitude per pair        adjacency.ts
 *   → basins joined across borders with no saliency at all (flat or textured ground)  merge-tree.ts
 *   → each region's inside: histograms of lightness, grain and colour              region-features.ts
 *   → the merge tree, least likely border first by the border model (both sides    merge-tree.ts
 *     of it and its strength), in one phase per level, finest first
 *   → the finest level's borders as arcs between junctions, smoothed               arcs.ts
 *   → beside them, the photo's thin dark lines as open feature strokes             ../strokes/
 *   → a level: replay its merges, draw the arcs whose two sides still differ,      draw.ts
 *     then the level's strokes clear of those lines
 */
import { PRINT_LONG_EDGE_PX, type DetailLevel } from "../../../../app/core/engine-limits";
import type { ChromaPlanes, GrayPlane } from "../plane";
import { areaResize, fitWithin, resampleTo } from "../resize";
import { applyCurve } from "../tone";
import { adjacencyOf, coarserGraph } from "./adjacency";
import { smoothArcs, traceArcs, type Arcs } from "./arcs";
import { FACE_TUNING, faceWeights, findFaces, type FaceBox } from "../faces";
import { findStrokes, STROKE_TUNING, strokePiecesAt, type Strokes } from "../strokes";
import { drawArcs, inkLines } from "./draw";
import { edgeMaps, STRENGTH_LEVELS, STRENGTH_STEPS_PER_GREY_LEVEL } from "./edge-map";
import { joinAcrossNoBorder, mergeSequence, type MergePhase } from "./merge-tree";
import { borderBoundary } from "../boundary";
import { stageDone } from "../stage-clock";
import { HistogramJudge, pixelFeatures } from "./region-features";
import { BORDER_MODEL, REGION_TUNING, LEVEL_REGIONS } from "./tuning";
import { watershedBasins } from "./watershed";

export interface RegionHierarchy {
  /** The page every level is drawn on: the photo's aspect at print size (long edge PRINT_LONG_EDGE_PX). */
  pageWidth: number;
  pageHeight: number;
  /** The analysis grid the regions were found on. */
  gridWidth: number;
  gridHeight: number;
  /** Regions of the finest level (detailed); arcs' sides and merges name these. */
  regionCount: number;
  /** The finest level's borders, smoothed, in grid coordinates. */
  arcs: Arcs;
  /** Merges from the finest level up, in order, and how many of them each level applies. */
  mergeA: Int32Array;
  mergeB: Int32Array;
  mergesAt: Record<DetailLevel, number>;
  /** The photo's feature strokes (eyes, mouths, whiskers), each level drawing the deep and long enough ones. */
  strokes: Strokes;
}

/** Lightness is never read in steps finer than this allows: a blank photo's noise is no shape. */
const MIN_CONTRAST = 0.05;

/** Finest first: the order the merge phases run in. */
export interface HierarchyOptions {
  /** Look for faces and draw them as faces (kernel/faces/); false to measure what they change. */
  faces?: boolean;
  /**
   * The merge tree's phases, finest first, in place of the three levels' (mergePhases), and the
   * phase each level's cut ends at: the BSDS bench cuts one photo's tree at more thresholds than
   * the shop's three, as the benchmark scores a hierarchy (bench/bsds-job.ts).
   */
  phases?: readonly MergePhase[];
  levelPhase?: Record<DetailLevel, number>;
  /**
   * Per analysis-grid pixel, a boundary chance in place of the boundary model's: the border
   * model's fit reads the model's cross-fitted answers on its own training photos (decision 035).
   */
  boundaryChance?: Float32Array;
}

/** The levels in the order of the merge tree's phases (mergePhases). */
export const LEVELS_FINE_TO_COARSE: readonly DetailLevel[] = ["detailed", "standard", "simple"];
/** Each level's phase of the shop's three: its place in LEVELS_FINE_TO_COARSE. */
const LEVEL_PHASE = Object.fromEntries(LEVELS_FINE_TO_COARSE.map((level, phase) => [level, phase])) as Record<DetailLevel, number>;

/** The analysis grid (the photo brought to REGION_TUNING.analysisLongEdge, never up), its toned grey and its colour resampled to it. */
export function analysisPlanes(photo: GrayPlane, curve: Uint8Array, chroma?: ChromaPlanes) {
  const grid = fitWithin(photo.width, photo.height, REGION_TUNING.analysisLongEdge);
  const grey = applyCurve(areaResize(photo, grid.width, grid.height), curve);
  const colour = chroma && { cb: resampleTo(chroma.cb, grid.width, grid.height).data, cr: resampleTo(chroma.cr, grid.width, grid.height).data };
  return { grid, grey, colour };
}

/**
 * The photo's finest regions and what their borders are judged by: the analysis grid's toned
 * grey, the basins of its edge map joined across no border, their adjacency graph, and a judge
 * holding each region's inside. The hierarchy merges from here; bench/bsds-fit.mjs reads the
 * same borders to fit the border model.
 */
export function finestBorders(photo: GrayPlane, curve: Uint8Array, noise: number, chroma?: ChromaPlanes, options: HierarchyOptions = {}) {
  const { grid, grey, colour } = analysisPlanes(photo, curve, chroma);
  stageDone("regions/grid");
  const longEdge = Math.max(grid.width, grid.height);
  // Averaging n x n pixels divides the noise by n.
  const gridNoise = (noise * grid.height) / photo.height;
  const maps = edgeMaps(grey, gridNoise, {
    smoothingPx: REGION_TUNING.smoothingMm * (longEdge / PRINT_LONG_EDGE_MM),
    noiseSmoothing: REGION_TUNING.noiseSmoothing,
    surroundSigmaPx: REGION_TUNING.surroundSigmaMm * (longEdge / PRINT_LONG_EDGE_MM),
    surroundSuppression: REGION_TUNING.surroundSuppression,
    visibleStep: REGION_TUNING.visibleStep,
    clearPhotoEdgeSteps: REGION_TUNING.clearPhotoEdgeSteps,
    colourWeight: REGION_TUNING.colourWeight,
  }, chroma);
  stageDone("regions/edge maps");
  const faces = options.faces === false ? [] : findFaces(grey);
  const faceWeight = faceWeights(faces, grid.width, grid.height);
  stageDone("regions/faces");
  const basins = watershedBasins(maps.flood, STRENGTH_LEVELS, grid.width, grid.height);
  const basinGraph = adjacencyOf(basins.label, basins.count, grid.width, grid.height, maps.saliency, STRENGTH_STEPS_PER_GREY_LEVEL, maps.flood);
  const joined = joinAcrossNoBorder(basinGraph, basins.count, REGION_TUNING.noBorderBelow);
  for (let i = 0; i < basins.label.length; i++) basins.label[i] = joined.regionOf[basins.label[i]];
  basins.count = joined.count;
  const graph = coarserGraph(basinGraph, joined.regionOf, joined.count);
  stageDone("regions/basins");
  // The per-pixel boundary model's evidence along each border, where the border is in focus.
  graph.borderBoundary = borderBoundary(graph, basins.label, grey, colour, maps.magnitude, maps.sigma, options.boundaryChance);
  stageDone("regions/boundary model");
  // On a photo with no clear edge at all (mist, night) borders are judged against its own
  // clearest ones, or even its Standard page would be one line and its Simple page blank: its
  // lightness is read in finer steps (and no page is blank: REGION_TUNING.fewestRegions).
  const contrast = Math.max(MIN_CONTRAST, Math.min(1, maps.strongest / (REGION_TUNING.clearPhotoEdgeSteps * REGION_TUNING.visibleStep)));
  const features = pixelFeatures(maps.smooth, maps.magnitude, contrast, colour);
  const judge = new HistogramJudge(features, basins.label, basins.count, BORDER_MODEL, faceWeight, FACE_TUNING.insideOdds);
  stageDone("regions/insides");
  return { grid, grey, basins, graph, judge, smooth: maps.smooth, contrast, faces, faceWeight };
}

/**
 * The hierarchy of a decoded grey plane (any size), with the tone curve and the noise estimate
 * (grey levels) of that plane; also answers the toned grey on the analysis grid (the score reads
 * it) and the finest region of each grid pixel.
 */
export function buildHierarchy(
  photo: GrayPlane,
  curve: Uint8Array,
  noise: number,
  chroma?: ChromaPlanes,
  options: HierarchyOptions = {},
): { hierarchy: RegionHierarchy; grey: GrayPlane; finestLabel: Int32Array; faces: FaceBox[]; phaseEnds: number[] } {
  const { grid, grey, basins, graph, judge, smooth, contrast, faces, faceWeight } = finestBorders(photo, curve, noise, chroma, options);
  const longEdge = Math.max(grid.width, grid.height);
  const sequence = mergeSequence(graph, basins.count, options.phases ?? mergePhases(longEdge), judge);
  stageDone("regions/merge");

  // The finest level's partition: basins relabelled by their region after phase one.
  const regionOfBasin = partitionAfter(basins.count, sequence.mergeA, sequence.mergeB, sequence.phaseEnd[0]);
  let regionCount = 0;
  const compact = new Int32Array(basins.count).fill(-1);
  for (let b = 0; b < basins.count; b++) {
    const root = regionOfBasin[b];
    if (compact[root] < 0) compact[root] = regionCount++;
  }
  const label = basins.label;
  for (let i = 0; i < label.length; i++) label[i] = compact[regionOfBasin[label[i]]];
  const arcs = smoothArcs(traceArcs(label, grid.width, grid.height), REGION_TUNING.arcSmoothingMm * (longEdge / PRINT_LONG_EDGE_MM), REGION_TUNING.arcPointStep);
  stageDone("regions/arcs");

  const first = sequence.phaseEnd[0];
  const mergeA = new Int32Array(sequence.mergeA.length - first);
  const mergeB = new Int32Array(mergeA.length);
  for (let k = 0; k < mergeA.length; k++) {
    mergeA[k] = compact[regionOfBasin[sequence.mergeA[first + k]]];
    mergeB[k] = compact[regionOfBasin[sequence.mergeB[first + k]]];
  }
  // Each phase's cut, as merges of `mergeA`; a level's cut is its phase's.
  const phaseEnds = sequence.phaseEnd.map((end) => end - first);
  const levelPhase = options.levelPhase ?? LEVEL_PHASE;
  const mergesAt = {} as Record<DetailLevel, number>;
  for (const level of LEVELS_FINE_TO_COARSE) mergesAt[level] = phaseEnds[levelPhase[level]];
  const strokes = findStrokes(smooth, PRINT_LONG_EDGE_MM / longEdge, contrast, faceWeight);
  stageDone("regions/strokes");
  const page = printPageSize(photo.width, photo.height);
  const hierarchy = { pageWidth: page.width, pageHeight: page.height, gridWidth: grid.width, gridHeight: grid.height, regionCount, arcs, mergeA, mergeB, mergesAt, strokes };
  return { hierarchy, grey, finestLabel: label, faces, phaseEnds };
}

/** The merge tree's phases, finest level first, on an analysis grid of this long edge (px). */
export function mergePhases(longEdge: number): MergePhase[] {
  // Grid pixels per cm² of the printed page.
  const pixelsPerCm2 = (longEdge / (PRINT_LONG_EDGE_MM / 10)) ** 2;
  return LEVELS_FINE_TO_COARSE.map((level) => ({
    minArea: LEVEL_REGIONS[level].minAreaCm2 * pixelsPerCm2,
    minWidth: LEVEL_REGIONS[level].minWidthMm * (longEdge / PRINT_LONG_EDGE_MM),
    mergeBelow: LEVEL_REGIONS[level].weakestBorderKept,
    standOutAbove: LEVEL_REGIONS[level].standOutBorder,
    fewestRegions: REGION_TUNING.fewestRegions,
    standOutArea: REGION_TUNING.smallestStandingOutCm2 * pixelsPerCm2,
  }));
}

/** The region (a representative id) of each finest region at a level: the cut of the tree. */
export function regionsAt(hierarchy: RegionHierarchy, level: DetailLevel): Int32Array {
  return partitionAfter(hierarchy.regionCount, hierarchy.mergeA, hierarchy.mergeB, hierarchy.mergesAt[level]);
}

/**
 * The page of a level: the arcs whose two sides lie in different regions of its cut, and the
 * level's feature strokes (unless `strokes` is false: the closure measures read the region lines
 * alone), at print size, or at `scale` of it (the quality score reads a half-size drawing: a
 * quarter of the pixels, and the page measures read a print-size page at half size anyway).
 */
export function drawLevel(hierarchy: RegionHierarchy, level: DetailLevel, scale = 1, { strokes = true } = {}): GrayPlane {
  const region = regionsAt(hierarchy, level);
  const { sideA, sideB } = hierarchy.arcs;
  const radius = scale * (LEVEL_REGIONS[level].lineWidthMm / 2) * (PRINT_LONG_EDGE_PX / PRINT_LONG_EDGE_MM);
  const width = Math.max(1, Math.round(hierarchy.pageWidth * scale));
  const height = Math.max(1, Math.round(hierarchy.pageHeight * scale));
  const drawn = (arc: number) => region[sideA[arc]] !== region[sideB[arc]];
  const page = drawArcs(hierarchy.arcs, drawn, hierarchy.gridWidth, hierarchy.gridHeight, width, height, radius);
  if (strokes && hierarchy.strokes.count > 0) {
    const mmPerPixel = PRINT_LONG_EDGE_MM / Math.max(hierarchy.gridWidth, hierarchy.gridHeight);
    const nearLine = nearDrawnArcs(hierarchy, drawn, STROKE_TUNING.clearanceMm / mmPerPixel);
    inkLines(page, strokePiecesAt(hierarchy.strokes, level, nearLine, mmPerPixel), () => true, hierarchy.gridWidth, hierarchy.gridHeight, radius);
  }
  return page;
}

/**
 * Whether a grid point lies within `clearance` grid pixels (a square's half side) of a drawn arc:
 * the arcs rasterised on the grid, and a window searched around the point (strokes have few
 * points; dilating the whole grid would cost more).
 */
function nearDrawnArcs(hierarchy: RegionHierarchy, drawn: (arc: number) => boolean, clearance: number): (x: number, y: number) => boolean {
  const { gridWidth: width, gridHeight: height, arcs } = hierarchy;
  const onLine = new Uint8Array(width * height);
  const mark = (x: number, y: number) => {
    const px = Math.min(width - 1, Math.max(0, Math.floor(x)));
    const py = Math.min(height - 1, Math.max(0, Math.floor(y)));
    onLine[py * width + px] = 1;
  };
  for (let arc = 0; arc < arcs.count; arc++) {
    if (!drawn(arc)) continue;
    for (let p = arcs.pointStart[arc]; p < arcs.pointStart[arc + 1]; p++) {
      const x = arcs.points[2 * p];
      const y = arcs.points[2 * p + 1];
      mark(x, y);
      if (p === arcs.pointStart[arc]) continue;
      const px = arcs.points[2 * p - 2];
      const py = arcs.points[2 * p - 1];
      const steps = Math.ceil(2 * Math.hypot(x - px, y - py));
      for (let s = 1; s < steps; s++) mark(px + ((x - px) * s) / steps, py + ((y - py) * s) / steps);
    }
  }
  const reach = Math.max(0, Math.round(clearance));
  return (x, y) => {
    const cx = Math.floor(x);
    const cy = Math.floor(y);
    for (let yy = Math.max(0, cy - reach); yy <= Math.min(height - 1, cy + reach); yy++) {
      for (let xx = Math.max(0, cx - reach); xx <= Math.min(width - 1, cx + reach); xx++) if (onLine[yy * width + xx]) return true;
    }
    return false;
  };
}

/** How many regions a level has. */
export function regionCountAt(hierarchy: RegionHierarchy, level: DetailLevel): number {
  const region = regionsAt(hierarchy, level);
  let count = 0;
  for (let r = 0; r < region.length; r++) if (region[r] === r) count++;
  return count;
}

const PRINT_LONG_EDGE_MM = (PRINT_LONG_EDGE_PX / 300) * 25.4;

/** The photo's aspect with its long edge at print size, whatever the photo's own size. */
export function printPageSize(width: number, height: number): { width: number; height: number } {
  const scale = PRINT_LONG_EDGE_PX / Math.max(width, height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Union-find replay of the first `merges` merges: each element's root. */
function partitionAfter(count: number, mergeA: Int32Array, mergeB: Int32Array, merges: number): Int32Array {
  const parent = new Int32Array(count);
  for (let i = 0; i < count; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (let k = 0; k < merges; k++) {
    const a = find(mergeA[k]);
    const b = find(mergeB[k]);
    if (a !== b) parent[b] = a;
  }
  for (let i = 0; i < count; i++) parent[i] = find(i);
  return parent;
}

