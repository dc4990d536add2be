/**
 * The edge-strength map the regions are grown on: where the photo changes, in grey levels of a
 * step, on the analysis grid (docs/decisions/016-region-pages.md, 031-likeness.md).
 *
 *   the toned grey, area-reduced to the analysis grid and smoothed (more on a noisy photo)
 *   → Sobel magnitude, in grey levels of the step it answers (a clean step of h levels gives h)
 *   → with the photo's colour, the Sobel steps of its Cb and Cr added in quadrature, so a
 *     colour border of equal lightness is an edge too
 *   → surround suppression: minus the mean magnitude around the pixel, so a field of grass,
 *     fur or pebbles (edges everywhere) is weak and a lone outline stands
 */
import { blurFloatInPlace, growFloatPlane, type FloatPlane } from "./float-plane";
import type { ChromaPlanes, GrayPlane } from "../plane";
import { resampleTo } from "../resize";

export interface EdgeMapTuning {
  /** Smoothing of the grey before Sobel, in analysis pixels, and per grey level of noise. */
  smoothingPx: number;
  noiseSmoothing: number;
  /** Surround: Gaussian of this many analysis pixels, subtracted × surroundSuppression. */
  surroundSigmaPx: number;
  surroundSuppression: number;
  /** Below this magnitude (grey levels of a step) an edge is too faint to see, and its saliency fades (see edgeMaps). */
  visibleStep: number;
  /** The gate is whole on a photo whose strongest edges reach this many visible steps (REGION_TUNING.clearPhotoEdgeSteps). */
  clearPhotoEdgeSteps: number;
  /** Grey levels a unit step of Cb or Cr counts for (REGION_TUNING.colourWeight). */
  colourWeight: number;
}

/**
 * Edge strength per analysis pixel in quarter grey levels of a step (0 .. STRENGTH_LEVELS - 1).
 * Quarter levels, not whole ones: whole levels left broad plateaus in gentle gradients, and two
 * basins flooding a plateau from both sides meet on a straight line through it, which is no edge.
 */
export const STRENGTH_STEPS_PER_GREY_LEVEL = 4;

/**
 * Chroma is smoothed by at least this (analysis pixels) before its steps are read: a camera's
 * colour noise, weighted by colourWeight, would otherwise read as grain everywhere, and a JPEG's
 * chroma is coarser than its grey anyway.
 */
const CHROMA_SMOOTHING_PX = 2;
/** The variance (px²) of the smoothing in Sobel's kernel, [1 2 1] / 4 across the step. */
export const SOBEL_VARIANCE = 0.5;
export const STRENGTH_LEVELS = 1024;

export interface EdgeMaps {
  /** Sobel magnitude of the smoothed grey: the relief the basins are flooded on. */
  flood: Uint16Array;
  /**
   * How much an edge stands above its surroundings (the Sobel magnitude minus its mean around
   * the pixel): what a border is judged by. A border through a smooth slope (shading on a cheek,
   * a sky's gradient) lies where the magnitude is what it is all around, and scores nothing; one
   * along an outline lies on a ridge of magnitude and scores its height.
   */
  saliency: Uint16Array;
  /** The magnitude (grey levels) the strongest 0.5 % of the pixels reach: how clear this photo's clearest edges are. */
  strongest: number;
  /** The smoothed grey and its Sobel magnitude (grey levels of a step), which the regions' insides are read from. */
  smooth: FloatPlane;
  magnitude: FloatPlane;
  /** The Gaussian (grid px) the grey was smoothed by. */
  sigma: number;
}

/**
 * `chroma`: the photo's Cb and Cr at their own resolution (a JPEG's are usually coarser than the
 * analysis grid; a PNG's as fine as its grey).
 */
export function edgeMaps(grey: GrayPlane, noise: number, tuning: EdgeMapTuning, chroma?: ChromaPlanes): EdgeMaps {
  const { width, height } = grey;
  const smooth: FloatPlane = { data: Float32Array.from(grey.data), width, height };
  const sigma = Math.hypot(tuning.smoothingPx, noise * tuning.noiseSmoothing);
  blurFloatInPlace(smooth, sigma);
  const magnitude = sobelSteps(smooth);
  if (chroma && tuning.colourWeight > 0) {
    // The colour's own steps, added in quadrature: a red shirt on a green lawn of the same
    // lightness is an edge as strong as their difference in colour.
    for (const axis of [chroma.cb, chroma.cr]) {
      const steps = chromaSteps(axis, width, height, Math.max(sigma, CHROMA_SMOOTHING_PX)).data;
      const m = magnitude.data;
      const w = tuning.colourWeight;
      // sqrt of the squares, not Math.hypot: hypot guards against overflow these values never
      // reach, and costs several times as much on every pixel.
      for (let i = 0; i < m.length; i++) {
        const c = w * steps[i];
        m[i] = Math.sqrt(m[i] * m[i] + c * c);
      }
    }
  }
  const surround: FloatPlane = { data: magnitude.data.slice(), width, height };
  blurFloatInPlace(surround, tuning.surroundSigmaPx);
  const flood = new Uint16Array(width * height);
  const saliency = new Uint16Array(width * height);
  const m = magnitude.data;
  const s = surround.data;
  for (let i = 0; i < flood.length; i++) flood[i] = quantised(m[i]);
  const strongest = strongestOf(flood);
  const visible = visibleStepFor(strongest, tuning.visibleStep, tuning.clearPhotoEdgeSteps);
  for (let i = 0; i < flood.length; i++) {
    const standing = Math.max(0, m[i] - tuning.surroundSuppression * s[i]);
    const faintness = m[i] >= visible ? 1 : (m[i] / visible) ** 2;
    saliency[i] = quantised(standing * faintness);
  }
  return { flood, saliency, strongest, smooth, magnitude, sigma };
}

/**
 * One chroma axis' Sobel steps on the width × height grid, smoothed by `sigma` grid pixels, read
 * at half the grid's resolution or the axis' own if that is coarser (a JPEG's chroma usually has a
 * quarter of its grey's pixels): a chroma smoothed by CHROMA_SMOOTHING_PX holds no finer steps,
 * and reading it at the grid's resolution cost four times as much. A step spread over fewer pixels
 * reads steeper per pixel, so the steps are scaled by the ratio before they are brought up to the grid.
 */
function chromaSteps(axis: GrayPlane, width: number, height: number, sigma: number): FloatPlane {
  const coarse = axis.width >= width ? resampleTo(axis, Math.ceil(width / 2), Math.ceil(height / 2)) : axis;
  const ratio = coarse.width / width;
  const plane: FloatPlane = { data: Float32Array.from(coarse.data), width: coarse.width, height: coarse.height };
  // Sobel's own [1 2 1] smoothing (variance 0.5 px²) spans more of the grid on a coarser plane:
  // the blur gives up that much, so the steps are smoothed as much in all as on the grid.
  const sobelSpread = SOBEL_VARIANCE / (ratio * ratio) - SOBEL_VARIANCE;
  blurFloatInPlace(plane, Math.sqrt(Math.max(0, sigma * sigma - sobelSpread)) * ratio);
  const steps = sobelSteps(plane);
  for (let i = 0; i < steps.data.length; i++) steps.data[i] *= ratio;
  return growFloatPlane(steps, width, height);
}

/**
 * The faintness gate's step for a photo whose strongest edges are `strongest` grey levels: the
 * tuning's step on a clear photo (edges of `clearSteps` steps and more), easing to 0 (no gate) on
 * one whose strongest edges are no stronger than the step itself (see REGION_TUNING.visibleStep).
 */
export function visibleStepFor(strongest: number, step: number, clearSteps: number): number {
  if (step <= 0) return 0;
  return step * Math.min(1, Math.max(0, (strongest - step) / ((clearSteps - 1) * step)));
}

/** The magnitude (grey levels) the strongest 0.5 % of the pixels reach. */
function strongestOf(flood: Uint16Array): number {
  const counts = new Int32Array(STRENGTH_LEVELS);
  for (let i = 0; i < flood.length; i++) counts[flood[i]]++;
  let above = flood.length * 0.005;
  let level = STRENGTH_LEVELS - 1;
  while (level > 0 && (above -= counts[level]) > 0) level--;
  return level / STRENGTH_STEPS_PER_GREY_LEVEL;
}

function quantised(greyLevels: number): number {
  const value = STRENGTH_STEPS_PER_GREY_LEVEL * greyLevels;
  return value >= STRENGTH_LEVELS - 1 ? STRENGTH_LEVELS - 1 : value + 0.5;
}

/**
 * Sobel magnitude / 8 on the inner pixels (a clean step of h grey levels answers about h / 2 on
 * each of its two pixels, so × 2: h); the border pixels copy their inner neighbour.
 */
export function sobelSteps({ data, width, height }: FloatPlane): FloatPlane {
  const out = new Float32Array(width * height);
  if (width < 3 || height < 3) return { data: out, width, height };
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const up = i - width;
      const down = i + width;
      const gx = data[up + 1] + 2 * data[i + 1] + data[down + 1] - data[up - 1] - 2 * data[i - 1] - data[down - 1];
      const gy = data[down - 1] + 2 * data[down] + data[down + 1] - data[up - 1] - 2 * data[up] - data[up + 1];
      out[i] = Math.sqrt(gx * gx + gy * gy) / 4;
    }
  }
  for (let y = 0; y < height; y++) {
    out[y * width] = out[y * width + 1];
    out[y * width + width - 1] = out[y * width + width - 2];
  }
  out.copyWithin(0, width, 2 * width);
  out.copyWithin((height - 1) * width, (height - 2) * width, (height - 1) * width);
  return { data: out, width, height };
}
