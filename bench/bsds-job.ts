/**
 * One BSDS photo through the Worker's own code path (bench/bsds.mjs): the JPEG decoded as the
 * Worker decodes it, the region hierarchy built once, each detail level cut and drawn from it.
 */
import { DETAIL_LEVELS, type DetailLevel } from "../app/core/engine-limits";
import { decodeToGray } from "../workers/sketch/pipeline";
import { drawLevel, estimateNoise, fitWithin, grayToHierarchy, histogramOf, REGION_TUNING, toneCurve, type GrayPlane } from "../workers/sketch/kernel";
import { analysisPlanes, buildHierarchy, finestBorders, LEVELS_FINE_TO_COARSE, mergePhases } from "../workers/sketch/kernel/regions";
import { boundaryFeaturePlanes } from "../workers/sketch/kernel/boundary";
import { mergeSequence, type MergePhase } from "../workers/sketch/kernel/regions/merge-tree";

export { DETAIL_LEVELS };

/**
 * Each level's page; `scale` 1 is print size, less draws the same lines on a smaller page.
 * `boundaryChance`: a candidate boundary map on the analysis grid, read in place of the model's
 * (boundary/index.ts borderBoundary), to see a new map's pages before it is built in the kernel.
 */
export async function bsdsPages(bytes: Uint8Array, scale: number, boundaryChance?: Float32Array): Promise<Record<DetailLevel, GrayPlane>> {
  const photo = await decodeToGray(bytes);
  const { hierarchy } = boundaryChance
    ? buildHierarchy(photo.gray, toneCurve(histogramOf(photo.gray)), estimateNoise(photo.gray), photo.chroma, { boundaryChance })
    : grayToHierarchy(photo.gray, photo.chroma);
  const pages = {} as Record<DetailLevel, GrayPlane>;
  for (const level of DETAIL_LEVELS) pages[level] = drawLevel(hierarchy, level, scale);
  return pages;
}

/**
 * The weakest border kept at each cut of `bsdsCuts`, the three levels' (0.14, 0.22, 0.30) among
 * them: from finer than Detailed to coarser than Simple, as the benchmark scores a hierarchy at
 * every threshold (gPb-owt-ucm's ODS and OIS are its ultrametric map's best thresholds).
 */
export const CUT_THRESHOLDS = [0.06, 0.08, 0.1, 0.12, 0.14, 0.16, 0.18, 0.2, 0.22, 0.24, 0.26, 0.28, 0.3, 0.34, 0.38, 0.42, 0.48, 0.55];

/** A cut's name in the page files: t and its threshold in hundredths (t22 is Standard's). */
export const cutName = (threshold: number) => `t${Math.round(100 * threshold).toString().padStart(2, "0")}`;

/**
 * The photo's tree cut at every CUT_THRESHOLDS, each page drawn as the nearest level draws
 * (its line width and feature strokes). Each cut is a phase of the merge tree: its smallest region,
 * narrowest region and standing-out border interpolated between the levels' (the finest's below
 * Detailed, the coarsest's above Simple), so the cuts at the levels' thresholds are the levels'.
 * `boundaryChance` as in bsdsPages.
 */
export async function bsdsCuts(bytes: Uint8Array, scale: number, boundaryChance?: Float32Array): Promise<Record<string, GrayPlane>> {
  const { gray, chroma } = await decodeToGray(bytes);
  const grid = fitWithin(gray.width, gray.height, REGION_TUNING.analysisLongEdge);
  const levels = mergePhases(Math.max(grid.width, grid.height)); // in LEVELS_FINE_TO_COARSE's order
  const levelPhase = {} as Record<DetailLevel, number>;
  LEVELS_FINE_TO_COARSE.forEach((level, k) => {
    levelPhase[level] = CUT_THRESHOLDS.indexOf(levels[k].mergeBelow);
    if (levelPhase[level] < 0) throw new Error(`CUT_THRESHOLDS lacks ${level}'s threshold ${levels[k].mergeBelow}`);
  });
  const phases = CUT_THRESHOLDS.map((threshold) => phaseAt(levels, threshold));
  const { hierarchy, phaseEnds } = buildHierarchy(gray, toneCurve(histogramOf(gray)), estimateNoise(gray), chroma, { phases, levelPhase, boundaryChance });
  const pages: Record<string, GrayPlane> = {};
  CUT_THRESHOLDS.forEach((threshold, k) => {
    const distance = (j: number) => Math.abs(levels[j].mergeBelow - threshold);
    const nearest = LEVELS_FINE_TO_COARSE.reduce((best, _, j) => (distance(j) < distance(best) ? j : best), 0);
    const cut = { ...hierarchy, mergesAt: { detailed: phaseEnds[k], standard: phaseEnds[k], simple: phaseEnds[k] } };
    pages[cutName(threshold)] = drawLevel(cut, LEVELS_FINE_TO_COARSE[nearest], scale);
  });
  return pages;
}

/** The merge phase of a cut at `threshold`, between the levels' phases (finest first); outside them, the nearest level's with that threshold. */
function phaseAt(levels: MergePhase[], threshold: number): MergePhase {
  const finest = levels[0];
  const coarsest = levels[levels.length - 1];
  if (threshold <= finest.mergeBelow) return { ...finest, mergeBelow: threshold };
  if (threshold >= coarsest.mergeBelow) return { ...coarsest, mergeBelow: threshold };
  const level = levels.find((phase) => phase.mergeBelow === threshold);
  if (level) return level;
  const upper = levels.findIndex((phase) => phase.mergeBelow >= threshold);
  const lower = levels[upper - 1];
  const higher = levels[upper];
  const t = (threshold - lower.mergeBelow) / (higher.mergeBelow - lower.mergeBelow);
  const mix = (a: number, b: number) => a + t * (b - a);
  return {
    ...lower,
    minArea: mix(lower.minArea, higher.minArea),
    minWidth: mix(lower.minWidth, higher.minWidth),
    standOutAbove: mix(lower.standOutAbove, higher.standOutAbove),
    mergeBelow: threshold,
  };
}

/**
 * The borders of a photo's finest regions, for fitting the border model (bench/bsds-fit.mjs):
 * the analysis grid's region labels and, per border, its two regions, its length, its mean
 * saliency and magnitude, the χ² distances of its regions' insides, the smaller area and the
 * smoother and grainier side's grain level.
 */
export async function finestBorderRows(bytes: Uint8Array) {
  const photo = await decodeToGray(bytes);
  const { grid, basins, graph, judge } = finestBorders(photo.gray, toneCurve(histogramOf(photo.gray)), estimateNoise(photo.gray), photo.chroma);
  const rows: number[][] = [];
  for (let e = 0; e < graph.edgeCount; e++) {
    const a = graph.edgeA[e];
    const b = graph.edgeB[e];
    const length = graph.borderLength[e];
    const { lightness, grain, colour } = judge.insideDistances(a, b, graph.area[a], graph.area[b]);
    const { smoother, grainier } = judge.grainLevels(a, b, graph.area[a], graph.area[b]);
    rows.push([a, b, length, graph.borderStrength[e] / length, graph.borderMagnitude[e] / length, lightness, grain, colour, Math.min(graph.area[a], graph.area[b]), smoother, grainier]);
  }
  return { width: grid.width, height: grid.height, label: basins.label, rows };
}

/**
 * The borders the merge tree weighs as it merges (bench/bsds-fit.mjs --as-merged), for fitting the
 * border model on the regions it judges rather than on the finest ones alone: the photo's merges
 * are replayed by the current model, and at checkpoints (the start, each time the regions have
 * fallen by a third, each level's end) every border between two regions is a row: the checkpoint's
 * number (from 0 up; from -1 down when the photo is read in grey), its length, mean saliency and
 * magnitude, the χ² distances of its regions' insides, the smaller area, and the share of its
 * cracks people drew near (`near`: per grid pixel, the share of people with a line within the
 * fit's tolerance; the larger of a crack's two pixels), then the smoother and the grainier side's
 * grain level (HistogramJudge grainLevels) and the boundary model's mean chance along it (blur
 * discounted; `boundaryChance` read in place of the model's, boundary/index.ts borderBoundary).
 */
export async function mergedBorderRows(bytes: Uint8Array, near: Float32Array, { grey = false, boundaryChance }: { grey?: boolean; boundaryChance?: Float32Array } = {}) {
  const decoded = await decodeToGray(bytes);
  // A photo read as black and white: its chroma left out, as a grey JPEG or PNG gives none.
  const photo = grey ? { gray: decoded.gray, chroma: undefined } : decoded;
  const curve = toneCurve(histogramOf(photo.gray));
  const noise = estimateNoise(photo.gray);
  const first = finestBorders(photo.gray, curve, noise, photo.chroma, { boundaryChance });
  const { grid, basins, graph } = first;
  if (near.length !== basins.label.length) return null;
  const sequence = mergeSequence(graph, basins.count, mergePhases(Math.max(grid.width, grid.height)), first.judge);
  // A fresh judge (the first one's histograms were merged by the run) replays the merges.
  const { judge } = finestBorders(photo.gray, curve, noise, photo.chroma, { boundaryChance });

  const count = basins.count;
  const pairKey = (a: number, b: number) => (a < b ? a * count + b : b * count + a);
  // Per border: length, saliency, magnitude and boundary sums (as the tree adds them), drawn share sum and cracks.
  const borders = new Map<number, { a: number; b: number; length: number; strength: number; magnitude: number; boundary: number; drawn: number; cracks: number }>();
  for (let e = 0; e < graph.edgeCount; e++) {
    const a = graph.edgeA[e];
    const b = graph.edgeB[e];
    borders.set(pairKey(a, b), { a: Math.min(a, b), b: Math.max(a, b), length: graph.borderLength[e], strength: graph.borderStrength[e], magnitude: graph.borderMagnitude[e], boundary: graph.borderBoundary ? graph.borderBoundary[e] : 0, drawn: 0, cracks: 0 });
  }
  const { label } = basins;
  const { width, height } = grid;
  const crack = (i: number, j: number) => {
    if (label[i] === label[j]) return;
    const border = borders.get(pairKey(label[i], label[j]));
    if (!border) return;
    border.drawn += Math.max(near[i], near[j]);
    border.cracks++;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (x + 1 < width) crack(i, i + 1);
      if (y + 1 < height) crack(i, i + width);
    }
  }
  const neighbours: Set<number>[] = Array.from({ length: count }, () => new Set());
  for (const border of borders.values()) {
    neighbours[border.a].add(border.b);
    neighbours[border.b].add(border.a);
  }
  const area = graph.area.slice();
  const parent = Int32Array.from({ length: count }, (_, r) => r);
  const find = (r: number): number => {
    while (parent[r] !== r) r = parent[r] = parent[parent[r]];
    return r;
  };

  const rows: number[][] = [];
  let regionsLeft = count;
  let lastCheckpoint = Infinity;
  let checkpoints = 0;
  const checkpoint = () => {
    const stage = checkpoints++;
    lastCheckpoint = regionsLeft;
    for (const border of borders.values()) {
      if (border.cracks === 0) continue;
      const { lightness, grain, colour } = judge.insideDistances(border.a, border.b, area[border.a], area[border.b]);
      const { smoother, grainier } = judge.grainLevels(border.a, border.b, area[border.a], area[border.b]);
      rows.push([grey ? -1 - stage : stage, border.length, border.strength / border.length, border.magnitude / border.length, lightness, grain, colour, Math.min(area[border.a], area[border.b]), border.drawn / border.cracks, smoother, grainier, border.boundary / border.length]);
    }
  };
  checkpoint();
  let phase = 0;
  for (let k = 0; k < sequence.mergeA.length; k++) {
    const keep = find(sequence.mergeA[k]);
    const gone = find(sequence.mergeB[k]);
    borders.delete(pairKey(keep, gone));
    neighbours[keep].delete(gone);
    for (const other of neighbours[gone]) {
      if (other === keep) continue;
      const moved = borders.get(pairKey(gone, other))!;
      borders.delete(pairKey(gone, other));
      neighbours[other].delete(gone);
      const parallel = borders.get(pairKey(keep, other));
      if (parallel) {
        parallel.length += moved.length;
        parallel.strength += moved.strength;
        parallel.magnitude += moved.magnitude;
        parallel.boundary += moved.boundary;
        parallel.drawn += moved.drawn;
        parallel.cracks += moved.cracks;
      } else {
        borders.set(pairKey(keep, other), { ...moved, a: Math.min(keep, other), b: Math.max(keep, other) });
        neighbours[keep].add(other);
        neighbours[other].add(keep);
      }
    }
    neighbours[gone].clear();
    parent[gone] = keep;
    area[keep] += area[gone];
    judge.merged(keep, gone);
    regionsLeft--;
    while (phase < sequence.phaseEnd.length && k + 1 === sequence.phaseEnd[phase]) {
      phase++;
      checkpoint();
    }
    if (regionsLeft * 1.5 <= lastCheckpoint && regionsLeft > 1) checkpoint();
  }
  return { rows };
}

/** The per-pixel boundary model's feature planes of a photo, at the model's scale (for fitting it offline). */
export async function boundaryFeatureDump(bytes: Uint8Array, { withoutLightness = false } = {}) {
  const { gray, chroma } = await decodeToGray(bytes);
  const { grey, colour } = analysisPlanes(gray, toneCurve(histogramOf(gray)), chroma);
  // The photo with its lightness taken away (one grey throughout), its colour kept: the same
  // people's lines are there, and only the colour can find them.
  const flat = { ...grey, data: new Uint8Array(grey.data.length).fill(128) };
  return boundaryFeaturePlanes(withoutLightness ? flat : grey, colour);
}
