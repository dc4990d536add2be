/**
 * What a region looks like inside, for judging a border by both of its sides (docs/decisions/031-likeness.md):
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
export function pixelFeatures(smoothGrey: FloatPlane, magnitude: FloatPlane, contrast: number, chroma?: { cb: Uint8Array; cr: Uint8Array }): PixelFeatures {
  const count = smoothGrey.data.length;
  const lightness = new Uint16Array(count);
  const grain = new Uint16Array(count);
  // On a faint photo (contrast < 1: mist, night) lightness is read in finer steps around its
  // mean, as its edges are read relative to its clearest ones: regions a few grey levels apart
  // fall in different bins.
  let mean = 0;
  for (let i = 0; i < count; i++) mean += smoothGrey.data[i];
  mean /= Math.max(1, count);
  const binsPerLevel = LIGHTNESS_BINS / 256 / contrast;
  for (let i = 0; i < count; i++) {
    const bin = Math.floor((smoothGrey.data[i] - mean) * binsPerLevel + LIGHTNESS_BINS / 2);
    lightness[i] = Math.min(LIGHTNESS_BINS - 1, Math.max(0, bin));
    // floor(log2(1 + m)) is the bit length of floor(1 + m) less one: no logarithm per pixel.
    grain[i] = LIGHTNESS_BINS + Math.min(GRAIN_BINS - 1, 31 - Math.clz32(1 + magnitude.data[i]));
  }
  const bins = [lightness, grain];
  let binCount = LIGHTNESS_BINS + GRAIN_BINS;
  if (chroma) {
    for (const plane of [chroma.cb, chroma.cr]) {
      const axis = new Uint16Array(count);
      const offset = binCount;
      for (let i = 0; i < count; i++) axis[i] = offset + COLOUR_BIN_OF[plane[i]];
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

/** colourBin of each chroma value, looked up per pixel. */
const COLOUR_BIN_OF = Uint8Array.from({ length: 256 }, (_, value) => colourBin(value));

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
 * Weights of the border model: the log-odds that people draw a border, from its mean saliency
 * and magnitude (log(1 + grey levels)), the χ² distances of its two regions' lightness, grain
 * and colour histograms (each also as its square root: the first differences count most), and its
 * size: the log of the smaller region's share of the photo and of the border's length over the
 * photo's scale (the square root of its pixel count), so the same on any analysis grid.
 */
export interface BorderModel {
  bias: number;
  logSaliency: number;
  logMagnitude: number;
  lightness: number;
  grain: number;
  colour: number;
  sqrtLightness: number;
  sqrtGrain: number;
  sqrtColour: number;
  logSmallerArea: number;
  logLength: number;
  /** Added on a photo without colour (a black-and-white photo): its borders lack the colour evidence the rest were judged with. */
  greyPhoto: number;
  /**
   * How grainy each side is inside (its mean grain bin, 0 flat .. 1 all sharp edges): the
   * smoother side's and the grainier side's. Two cells of fur or foliage are both grainy, whatever
   * their border; a face against its hair has one smooth side.
   */
  smootherGrain: number;
  grainierGrain: number;
  /**
   * The per-pixel boundary model's mean chance along the border where it is in focus (none where
   * it is blurred: boundary/index.ts borderBoundary), as log(1 + 100 × it): a hundredth already
   * tells a border from the flat paper around it.
   */
  logBoundary: number;
}

/** Each region's sum of its pixels' face weights (faces/index.ts faceWeights). */
function regionFaceMass(faceWeight: Float32Array, label: Int32Array, regionCount: number): Float32Array {
  const mass = new Float32Array(regionCount);
  for (let i = 0; i < label.length; i++) mass[label[i]] += faceWeight[i];
  return mass;
}

/**
 * Judges the borders of the merge tree (merge-tree.ts BorderJudge) by the border model, over the
 * regions' histograms, which it adds up as regions merge.
 */
export class HistogramJudge {
  private readonly histograms: Float32Array;
  private readonly binCount: number;
  private readonly hasColour: boolean;
  /** The photo's pixel count and its square root: areas and lengths are read relative to them. */
  private readonly pixels: number;
  private readonly scale: number;

  /** Each region's face mass (the sum of its pixels' face weights), when the photo has faces. */
  private readonly faceMass: Float32Array | null;

  constructor(
    features: PixelFeatures,
    label: Int32Array,
    regionCount: number,
    private readonly model: BorderModel,
    faceWeight: Float32Array | null = null,
    private readonly faceInsideOdds = 0,
  ) {
    this.histograms = regionHistograms(features, label, regionCount);
    this.faceMass = faceWeight && regionFaceMass(faceWeight, label, regionCount);
    this.pixels = Math.max(1, label.length);
    this.scale = Math.sqrt(this.pixels);
    this.binCount = features.binCount;
    this.hasColour = features.bins.length > 2;
  }

  /** How unlike two regions are inside: the χ² distances of their lightness, grain and colour (0 without colour). */
  insideDistances(a: number, b: number, areaA: number, areaB: number): { lightness: number; grain: number; colour: number } {
    return {
      lightness: this.distance(a, b, areaA, areaB, 0, LIGHTNESS_BINS),
      grain: this.distance(a, b, areaA, areaB, LIGHTNESS_BINS, LIGHTNESS_BINS + GRAIN_BINS),
      colour: this.hasColour ? this.distance(a, b, areaA, areaB, LIGHTNESS_BINS + GRAIN_BINS, this.binCount) : 0,
    };
  }

  /** How grainy each region is inside: its mean grain bin over GRAIN_BINS - 1 (0 flat .. 1 sharp edges throughout). */
  grainLevels(a: number, b: number, areaA: number, areaB: number): { smoother: number; grainier: number } {
    const levelA = this.meanGrain(a, areaA);
    const levelB = this.meanGrain(b, areaB);
    return { smoother: Math.min(levelA, levelB), grainier: Math.max(levelA, levelB) };
  }

  chance(meanSaliency: number, meanMagnitude: number, a: number, b: number, areaA: number, areaB: number, length: number, meanBoundary = 0): number {
    const m = this.model;
    const { lightness, grain, colour } = this.insideDistances(a, b, areaA, areaB);
    const { smoother, grainier } = this.grainLevels(a, b, areaA, areaB);
    const odds =
      m.bias +
      m.logSaliency * Math.log1p(meanSaliency) +
      m.logMagnitude * Math.log1p(meanMagnitude) +
      m.lightness * lightness +
      m.grain * grain +
      m.colour * colour +
      m.sqrtLightness * Math.sqrt(lightness) +
      m.sqrtGrain * Math.sqrt(grain) +
      m.sqrtColour * Math.sqrt(colour) +
      m.logSmallerArea * Math.log(Math.min(areaA, areaB) / this.pixels) +
      m.logLength * Math.log(length / this.scale) +
      (this.hasColour ? 0 : m.greyPhoto) +
      m.smootherGrain * smoother +
      m.grainierGrain * grainier +
      m.logBoundary * Math.log1p(100 * meanBoundary) +
      this.faceTerm(a, b, areaA, areaB);
    return 1 / (1 + Math.exp(-odds));
  }

  /**
   * Inside a face nothing but its features is a shape (they are drawn as strokes): a border
   * between two regions that both lie in a face is less likely drawn, by faceInsideOdds × the
   * square of the smaller of their face shares (each region's mean face weight). Squared, so a
   * region of hair or collar that only reaches into the face's oval keeps its border with it.
   */
  private faceTerm(a: number, b: number, areaA: number, areaB: number): number {
    if (!this.faceMass) return 0;
    const inside = Math.min(this.faceMass[a] / areaA, this.faceMass[b] / areaB);
    return -this.faceInsideOdds * inside * inside;
  }

  merged(keep: number, gone: number): void {
    const { histograms, binCount } = this;
    for (let k = 0; k < binCount; k++) histograms[keep * binCount + k] += histograms[gone * binCount + k];
    if (this.faceMass) this.faceMass[keep] += this.faceMass[gone];
  }

  private meanGrain(region: number, area: number): number {
    const row = region * this.binCount + LIGHTNESS_BINS;
    let sum = 0;
    for (let k = 1; k < GRAIN_BINS; k++) sum += k * this.histograms[row + k];
    return sum / (area * (GRAIN_BINS - 1));
  }

  /** χ² distance (0..1) of two regions' normalised histograms over the bins from..to. */
  private distance(a: number, b: number, areaA: number, areaB: number, from: number, to: number): number {
    const { histograms, binCount } = this;
    const ia = a * binCount;
    const ib = b * binCount;
    const wa = 1 / areaA;
    const wb = 1 / areaB;
    let sum = 0;
    for (let k = from; k < to; k++) {
      const p = histograms[ia + k] * wa;
      const q = histograms[ib + k] * wb;
      const total = p + q;
      if (total > 0) sum += ((p - q) * (p - q)) / total;
    }
    return sum / 2;
  }
}
