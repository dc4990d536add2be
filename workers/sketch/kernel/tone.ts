/** The tone stage: a curve that stretches a dull or dark photo to the full range. */
import type { GrayPlane } from "./plane";
import { TONE_TUNING, type ToneTuning } from "./tuning";

/**
 * The tone curve as a 256-entry table: the toneLow/HighPercentile greys are stretched toward 0
 * and 255 (gain capped at maxToneGain, centred on their midpoint), then a gamma lifts a photo
 * whose median is still below mid-grey. Computed from the histogram of the working grey.
 */
export function toneCurve(histogram: ArrayLike<number>, tuning: ToneTuning = TONE_TUNING): Uint8Array {
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

/** The plane with the curve applied (a new plane; the decoded one is left as it is). */
export function applyCurve({ data, width, height }: GrayPlane, curve: Uint8Array): GrayPlane {
  const toned = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) toned[i] = curve[data[i]];
  return { data: toned, width, height };
}
