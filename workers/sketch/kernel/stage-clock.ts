/**
 * For the benchmark only (bench/kernel-only.mjs, bench/stages.mjs, bench/job.ts): a callback told
 * the name of each kernel stage as it ends, so a stage's time is the time since the last call.
 * The region stage's own steps are named "regions/<step>" (the names bench/opencv_recipe.py's
 * --stages gives the same steps of OpenCV's mirror); "regions" itself ends the stage. Null in the
 * Worker: one check per stage, nothing per pixel.
 */
let clock: ((stage: string) => void) | null = null;

export function onKernelStage(callback: ((stage: string) => void) | null): void {
  clock = callback;
}

export function stageDone(stage: string): void {
  clock?.(stage);
}
