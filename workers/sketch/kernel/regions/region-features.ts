/**
 * What a region looks like inside, for judging a border by both of its sides (docs/decisions/024-likeness.md):
 * each analysis pixel falls in one bin of each feature (how light, how much it changes: a
 * texture's grain, and, where the photo has colour, its two colour axes), and a region is the
 * histogram of its pixels over those bins. Two cells of one fur, one lawn or one crowd have the
 * same histograms whatever the edges between them; a face and the hair around it do not.
 */
import type { FloatPlane } from "./float-plane";

/** Bins per feature: lightness, grain, and each colour axis. */
export const LIGHTNESS_BINS = 12;
export const GRAIN_BINS = 6;
export const COLOUR_BINS = 8;

export interface PixelFeatures {
  /** Per pixel, its bin in each feature, already offset into one row of `binCount` bins. */
  bins: Uint16Array[];
  binCount: number;
}

/**
 * The bins of each pixel: lightness of the smoothed grey, grain as the log of the edge
 * magnitude (flat, soft, grainy, ... a sharp edge), and the colour axes when given (chroma
 * planes on the same grid, 128 = neutral).
 */
export function pixelFeatures(smoothGrey: FloatPlane, magnitude: FloatPlane, chroma?: { cb: Uint8Array; cr: Uint8Array }): PixelFeatures {
  const count = smoothGrey.data.length;
  const lightness = new Uint16Array(count);
  const grain = new Uint16Array(count);
  for (let i = 0; i < count; i++) {
    lightness[i] = Math.min(LIGHTNESS_BINS - 1, Math.max(0, Math.floor((smoothGrey.data[i] * LIGHTNESS_BINS) / 256)));
    grain[i] = LIGHTNESS_BINS + Math.min(GRAIN_BINS - 1, Math.floor(Math.log2(1 + magnitude.data[i])));
  }
  const bins = [lightness, grain];
  let binCount = LIGHTNESS_BINS + GRAIN_BINS;
  if (chroma) {
    for (const plane of [chroma.cb, chroma.cr]) {
      const axis = new Uint16Array(count);
      const offset = binCount;
      for (let i = 0; i < count; i++) axis[i] = offset + colourBin(plane[i]);
      bins.push(axis);
      binCount += COLOUR_BINS;
    }
  }
  return { bins, binCount };
}

/** Colour axes spread finely near neutral, where most of a photo's chroma lies. */
function colourBin(value: number): number {
  const signed = value - 128;
  const magnitude = Math.min(COLOUR_BINS / 2 - 1, Math.floor(Math.log2(1 + Math.abs(signed) / 3)));
  return signed < 0 ? COLOUR_BINS / 2 - 1 - magnitude : COLOUR_BINS / 2 + magnitude;
}

/** Each region's histogram (counts, not normalised) over the feature bins: regionCount × binCount. */
export function regionHistograms(features: PixelFeatures, label: Int32Array, regionCount: number): Float32Array {
  const { bins, binCount } = features;
  const histograms = new Float32Array(regionCount * binCount);
  for (const feature of bins) {
    for (let i = 0; i < label.length; i++) histograms[label[i] * binCount + feature[i]]++;
  }
  return histograms;
}

/**
 * How different two regions' insides are: the χ² distance of their normalised histograms,
 * averaged over the features (0 = alike, 1 = nothing in common).
 */
export function histogramDistance(histograms: Float32Array, binCount: number, featureCount: number, a: number, b: number, areaA: number, areaB: number): number {
  const ia = a * binCount;
  const ib = b * binCount;
  const wa = 1 / areaA;
  const wb = 1 / areaB;
  let sum = 0;
  for (let k = 0; k < binCount; k++) {
    const p = histograms[ia + k] * wa;
    const q = histograms[ib + k] * wb;
    const total = p + q;
    if (total > 0) sum += ((p - q) * (p - q)) / total;
  }
  return sum / (2 * featureCount);
}
