// Kernel alone, many runs, on one decoded photo: `node bench/kernel-only.mjs PATH [runs]`.
// Bundles bench/kernel-only.ts (the kernel, jSquash decode) like bench/run.mjs, decodes once, then times
// grayToSketch per run (best and median). For profiling: `node --cpu-prof bench/kernel-only.mjs`.
import { readFileSync, mkdirSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
mkdirSync(out, { recursive: true });
const bundle = join(out, "kernel-only-job.mjs");
await bundleWorkerCode({
  entryPoints: { "kernel-only-job": join(root, "bench", "kernel-only.ts") },
  outdir: out,
  outExtension: { ".js": ".mjs" },
});
const job = await import(pathToFileURL(bundle).href);
const path = resolve(process.argv[2]);
const runs = Number(process.argv[3]) || 7;
const plane = await job.decodeToPlane(new Uint8Array(readFileSync(path)));
const times = [];
const stages = {};
let result;
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const clock = job.timeKernelStages(t0);
  result = job.grayToSketch(plane, { chroma: plane.chroma });
  times.push(performance.now() - t0);
  clock.stop();
  // Per stage: the best over the runs (each stage's own best, not one run's).
  for (const [stage, ms] of Object.entries(clock.spent)) stages[stage] = Math.min(stages[stage] ?? Infinity, ms);
}
for (const stage of Object.keys(stages)) stages[stage] = +stages[stage].toFixed(1);
times.sort((a, b) => a - b);
// --compare RAW: mean/max abs difference to a page saved earlier with --save RAW (same photo).
const flag = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
let versusSaved;
if (flag("--compare") && existsSync(flag("--compare"))) {
  const saved = readFileSync(flag("--compare"));
  const page = result.sketch.data;
  let sum = 0, worst = 0, changed = 0;
  for (let i = 0; i < page.length; i++) {
    const d = Math.abs(page[i] - saved[i]);
    sum += d; if (d > worst) worst = d; if (d) changed++;
  }
  versusSaved = { mean_abs: +(sum / page.length).toFixed(4), max_abs: worst, changed };
}
if (flag("--save")) writeFileSync(flag("--save"), result.sketch.data);
const mp = (plane.width * plane.height) / 1e6;
const best = times[0];
const median = times[times.length >> 1];
console.log(JSON.stringify({
  photo: path, size: `${plane.width}x${plane.height}`, runs,
  best_ms: +best.toFixed(1), median_ms: +median.toFixed(1),
  best_mp_s: +(mp / best * 1000).toFixed(1), median_mp_s: +(mp / median * 1000).toFixed(1),
  stages_best_ms: stages, versusSaved,
}));
