/**
 * For the benchmark: the kernel's stage clock (workers/sketch/kernel/stage-clock.ts), timing each
 * stage in `spent` (ms) from `start` on. A step of a stage ("regions/merge") counts in its stage
 * ("regions") and is kept on its own too. `lap(name)` ends a stage the kernel does not name itself
 * (the level drawn outside grayToSketch); `stop()` takes the clock away.
 */
import { onKernelStage } from "../workers/sketch/kernel";

export function timeKernelStages(start: number): { spent: Record<string, number>; lap: (stage: string) => void; stop: () => void } {
  const spent: Record<string, number> = {};
  let last = start;
  const lap = (stage: string) => {
    const now = performance.now();
    const whole = stage.split("/")[0];
    spent[whole] = (spent[whole] ?? 0) + now - last;
    if (whole !== stage) spent[stage] = now - last;
    last = now;
  };
  onKernelStage(lap);
  return { spent, lap, stop: () => onKernelStage(null) };
}
