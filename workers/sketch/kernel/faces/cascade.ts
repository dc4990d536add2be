/**
 * The frontal-face cascade of Viola and Jones (2001) as OpenCV trained it (Lienhart's
 * `haarcascade_frontalface_alt`, Intel's licence), read from the npm package jsfeat (MIT), which
 * ships it as a script that assigns it to `jsfeat.haar.frontalface`. That script is loaded once,
 * with a stand-in `jsfeat` on the global object for it to write to, and turned into typed arrays
 * so the scan's inner loop reads numbers, not objects.
 */
import { JSFEAT_SCOPE } from "./cascade-scope";
import "jsfeat/cascades/frontalface.js";

/** One weak classifier's Haar feature: up to 3 rectangles, each x, y, width, height in the window and a weight. */
interface JsfeatStump {
  features: number[][];
  threshold: number;
  left_val: number;
  right_val: number;
  tilted?: number;
}
interface JsfeatCascade {
  complexClassifiers: { simpleClassifiers: JsfeatStump[]; threshold: number }[];
  size: [number, number];
}

export interface FaceCascade {
  /** The window the cascade was trained on (px). */
  windowWidth: number;
  windowHeight: number;
  /** Stage s runs stumps stageEnd[s - 1] (0 for the first) to stageEnd[s] - 1 and passes at stageThreshold[s]. */
  stageEnd: Int32Array;
  stageThreshold: Float64Array;
  /** Per stump: its threshold (× the window's contrast)... */
  threshold: Float64Array;
  /**
   * ... and its two votes side by side, below the threshold at 2 × stump and above it at
   * 2 × stump + 1: the scan picks one by the comparison as an index (detect.ts).
   */
  votes: Float64Array;
  /** Per stump, 3 rectangles of x, y, width, height (a missing third has width 0) ... */
  rects: Int32Array;
  /** ... and their weights (whole numbers). */
  weights: Float64Array;
}

let cascade: FaceCascade | null = null;

export function frontalFaceCascade(): FaceCascade {
  if (cascade) return cascade;
  const source = JSFEAT_SCOPE.haar.frontalface as JsfeatCascade | undefined;
  if (!source) throw new Error("the face cascade (jsfeat/cascades/frontalface.js) did not load");
  const stumps = source.complexClassifiers.flatMap((stage) => stage.simpleClassifiers);
  const result: FaceCascade = {
    windowWidth: source.size[0],
    windowHeight: source.size[1],
    stageEnd: new Int32Array(source.complexClassifiers.length),
    stageThreshold: Float64Array.from(source.complexClassifiers, (stage) => stage.threshold),
    threshold: Float64Array.from(stumps, (stump) => stump.threshold),
    votes: Float64Array.from(stumps.flatMap((stump) => [stump.left_val, stump.right_val])),
    rects: new Int32Array(stumps.length * 12),
    weights: new Float64Array(stumps.length * 3),
  };
  let end = 0;
  source.complexClassifiers.forEach((stage, s) => (result.stageEnd[s] = end += stage.simpleClassifiers.length));
  stumps.forEach((stump, k) => {
    if (stump.tilted) throw new Error("tilted Haar features are not read");
    stump.features.slice(0, 3).forEach(([x, y, w, h, weight], r) => {
      // The scan sums a feature in integers (detect.ts): this cascade's weights are -1, 2 and 3.
      if (!Number.isInteger(weight)) throw new Error(`a Haar feature's weight is not a whole number (${weight})`);
      result.rects.set([x, y, w, h], k * 12 + r * 4);
      result.weights[k * 3 + r] = weight;
    });
  });
  cascade = result;
  return result;
}
