/** The tone stage: a curve that stretches a dull or dark photo to the full range. */
import type { GrayPlane } from "./plane";
import { SKETCH_TUNING, type SketchTuning } from "./tuning";

/**
 * The tone curve as a 256-entry table: the toneLow/HighPercentile greys are stretched toward 0
 * and 255 (gain capped at maxToneGain, centred on their midpoint), then a gamma lifts a photo
 * whose median is still below mid-grey. Computed from the histogram of the working grey.
 */
export function toneCurve(histogram: ArrayLike<number>, tuning: SketchTuning = SKETCH_TUNING): Uint8Array {
  let total = 0;
  for (let v = 0; v < 256; v++) total += histogram[v];
  const percentile = (fraction: number) => {
    const target = fraction * total;
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v];
      if (seen > target) return v;
    }
    return 255;
  };
  const low = percentile(tuning.toneLowPercentile);
  const high = percentile(tuning.toneHighPercentile);
  const median = percentile(0.5);
  const gain = Math.min(tuning.maxToneGain, 255 / Math.max(1, high - low));
  const middle = (low + high) / 2;
  const stretch = (v: number) => Math.min(255, Math.max(0, (v - middle) * gain + 127.5));
  const stretchedMedian = stretch(median) / 255;
  const gamma =
    stretchedMedian > 0 && stretchedMedian < 0.5
      ? Math.max(tuning.minToneGamma, Math.log(0.5) / Math.log(Math.max(stretchedMedian, 1e-3)))
      : 1;
  const curve = new Uint8Array(256);
  for (let v = 0; v < 256; v++) curve[v] = Math.round(255 * Math.pow(stretch(v) / 255, gamma));
  return curve;
}


/**
 * Histogram of the grey, every second row (every few of a large photo: about a million pixels):
 * its 1 %, 50 % and 99 % points, all the tone curve reads, barely move on half the rows.
 */
export function histogramOf({ data, width, height }: GrayPlane): Float64Array {
  // Four partial histograms, one per pixel x mod 4: neighbouring pixels are mostly the same grey,
  // and counting them into one bin makes each increment wait for the one before.
  const counts = new Int32Array(4 * 256);
  const step = Math.max(2, Math.floor((width * height) / 1_000_000));
  for (let y = 0; y < height; y += step) countRow(data, y * width, width, counts);
  const histogram = new Float64Array(256);
  for (let v = 0; v < 256; v++) histogram[v] = counts[v] + counts[256 + v] + counts[512 + v] + counts[768 + v];
  return histogram;
}

/** Adds one row's greys to the four partial counts (a function per row: compiled once, not per photo). */
function countRow(data: Uint8Array, start: number, width: number, counts: Int32Array): void {
  const end = start + width;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    counts[data[i]]++;
    counts[256 + data[i + 1]]++;
    counts[512 + data[i + 2]]++;
    counts[768 + data[i + 3]]++;
  }
  for (; i < end; i++) counts[data[i]]++;
}

/**
 * The grey through the tone curve, as 8.8 fixed point. A function of its own, not a loop inside
 * the kernel's entry point: a long loop in a function called once per photo is compiled on the
 * spot (on-stack replacement) for every photo again.
 *
 * Four pixels a step where the grey is word-aligned (every decoded plane is): one 32-bit read of
 * four greys, two 32-bit writes of two toned values each. Little-endian, as typed arrays are on
 * every platform Workers run on, and as thicken.ts and encode.ts assume too, without a check at
 * run time; the test compares with the pixel-by-pixel loop.
 */
export function tonedFixed(grey: Uint8Array, curve: Uint8Array): Uint16Array {
  const fixed = new Uint16Array(grey.length);
  const curveFixed = new Uint16Array(256);
  for (let v = 0; v < 256; v++) curveFixed[v] = curve[v] << 8;
  let done = 0;
  if (grey.byteOffset % 4 === 0) {
    const quads = grey.length >> 2;
    const greyWords = new Uint32Array(grey.buffer, grey.byteOffset, quads);
    const fixedWords = new Uint32Array(fixed.buffer, 0, 2 * quads);
    // In stretches of TONED_STRETCH words, each a call: a loop of its own compiled once and early.
    for (let start = 0; start < quads; start += TONED_STRETCH) toneWords(greyWords, curveFixed, fixedWords, start, Math.min(quads, start + TONED_STRETCH));
    done = quads << 2;
  }
  for (let i = done; i < grey.length; i += TONED_STRETCH) toneStretch(grey, curveFixed, fixed, i, Math.min(grey.length, i + TONED_STRETCH));
  return fixed;
}

const TONED_STRETCH = 4096;

function toneWords(grey: Uint32Array, curveFixed: Uint16Array, fixed: Uint32Array, start: number, end: number): void {
  for (let w = start; w < end; w++) {
    const four = grey[w];
    fixed[2 * w] = curveFixed[four & 255] | (curveFixed[(four >>> 8) & 255] << 16);
    fixed[2 * w + 1] = curveFixed[(four >>> 16) & 255] | (curveFixed[four >>> 24] << 16);
  }
}

function toneStretch(grey: Uint8Array, curveFixed: Uint16Array, fixed: Uint16Array, start: number, end: number): void {
  for (let i = start; i < end; i++) fixed[i] = curveFixed[grey[i]];
}
