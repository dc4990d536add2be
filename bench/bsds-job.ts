/**
 * One BSDS photo through the Worker's own code path (bench/bsds.mjs): the JPEG decoded as the
 * Worker decodes it, the region hierarchy built once, each detail level cut and drawn from it.
 */
import { DETAIL_LEVELS, type DetailLevel } from "../app/core/engine-limits";
import { decodeToGray } from "../workers/sketch/pipeline";
import { drawLevel, estimateNoise, grayToHierarchy, histogramOf, toneCurve, type GrayPlane } from "../workers/sketch/kernel";
import { finestBorders } from "../workers/sketch/kernel/regions";

export { DETAIL_LEVELS };

/** Each level's page; `scale` 1 is print size, less draws the same lines on a smaller page. */
export async function bsdsPages(bytes: Uint8Array, scale: number): Promise<Record<DetailLevel, GrayPlane>> {
  const photo = await decodeToGray(bytes);
  const { hierarchy } = grayToHierarchy(photo.gray, photo.chroma);
  const pages = {} as Record<DetailLevel, GrayPlane>;
  for (const level of DETAIL_LEVELS) pages[level] = drawLevel(hierarchy, level, scale);
  return pages;
}

/**
 * The borders of a photo's finest regions, for fitting the border model (bench/bsds-fit.mjs):
 * the analysis grid's region labels and, per border, its two regions, its length, its mean
 * saliency and magnitude, the χ² distances of its regions' insides and the smaller area.
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
    rows.push([a, b, length, graph.borderStrength[e] / length, graph.borderMagnitude[e] / length, lightness, grain, colour, Math.min(graph.area[a], graph.area[b])]);
  }
  return { width: grid.width, height: grid.height, label: basins.label, rows };
}
