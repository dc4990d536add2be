// `npm run bench:stages [-- --only TEXT] [--runs N] [--min-long-edge PX]`: where the whole same job's
// time goes, ours beside OpenCV's mirror (bench/opencv_recipe.py --stages), stage by stage, on the
// bench's photos (bench/photo-set.mjs) whose long edge is at least PX (default 1600: the photos the
// speed goal asks 1.2x OpenCV of). Each stage's figure is its best of N runs (default 5), each side
// in its own process, one photo at a time: ours first, then the mirror's. The kernel's own stage
// names (workers/sketch/kernel/stage-clock.ts); "grid" is ours' tone curve, noise estimate and
// analysis grid together, as the mirror's analysis_grid does them in one step.
//
// For finding the stage to work on, not for the goal's ratio: `npm run bench` times the whole job
// in alternating rounds; here a stage's best and the whole's best come from different runs. Not a
// test: nothing here asserts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";
import { benchPhotos } from "./photo-set.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
mkdirSync(out, { recursive: true });
const flag = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const runs = Number(flag("--runs", 5));
const minLongEdge = Number(flag("--min-long-edge", 1600));
const only = flag("--only");

await bundleWorkerCode({
  entryPoints: { "stages-job": join(root, "bench", "job.ts"), "stages-codecs": join(root, "bench", "codecs.ts") },
  outdir: out,
  outExtension: { ".js": ".mjs" },
});
const job = await import(pathToFileURL(join(out, "stages-job.mjs")).href);
const codecs = await import(pathToFileURL(join(out, "stages-codecs.mjs")).href);

/**
 * Our job's stages on one photo, each its best of `runs` after one untimed run, and the whole
 * job's best; null for a photo under --min-long-edge (told by the untimed run). The region
 * stage's steps are the kernel's own, in its order.
 */
async function ourStages(bytes) {
  const { timing: first } = await job.runJob(bytes);
  if (Math.max(first.sourceWidth, first.sourceHeight) < minLongEdge) return null;
  const best = {};
  const keep = (stage, ms) => (best[stage] = Math.min(best[stage] ?? Infinity, ms));
  for (let i = 0; i < runs; i++) {
    const { timing } = await job.runJob(bytes);
    keep("decode", timing.decode_ms);
    const { grid, ...steps } = timing.region_steps_ms;
    keep("grid", timing.tone_ms + timing.noise_ms + grid);
    for (const [step, ms] of Object.entries(steps)) keep(step, ms);
    keep("draw", timing.draw_ms);
    keep("encode", timing.encode_ms);
    keep("whole", timing.same_job_ms);
  }
  return best;
}

/** The mirror's stages on one photo (null without /usr/bin/python3 and cv2, or when the mirror stops). */
function mirrorStages(path) {
  if (!existsSync("/usr/bin/python3")) return null;
  const run = spawnSync("/usr/bin/python3", [join(root, "bench", "opencv_recipe.py"), "--stages", path, String(runs)], { encoding: "utf8" });
  if (run.status !== 0) {
    console.log(`note: OpenCV's mirror did not run on ${path}: ${(run.stderr || "").trim().split("\n").pop()}`);
    return null;
  }
  return JSON.parse(run.stdout.trim().split("\n").pop());
}

const pad = (text, width) => String(text).padStart(width);
const photos = (await benchPhotos({ root, out, codecs })).filter(({ label }) => !only || only.split("|").some((text) => label.includes(text)));
console.log(`Stages of the whole same job, ours against OpenCV's mirror (ms, best of ${runs} runs each; ratio > 1 = ours faster), photos of ${minLongEdge} px and up`);
const totals = {};
let counted = 0;
for (const photo of photos) {
  const ours = await ourStages(new Uint8Array(readFileSync(photo.path)));
  if (!ours) continue;
  const cv = mirrorStages(photo.path);
  console.log(`\n${photo.label}`);
  console.log(`${"stage".padEnd(16)}${pad("ours", 10)}${pad("OpenCV", 10)}${pad("ratio", 8)}${pad("ours - cv", 11)}`);
  for (const [stage, mine] of Object.entries(ours)) {
    const theirs = cv?.[stage];
    const cells = theirs === undefined ? ["-", "-", "-"] : [theirs.toFixed(1), `${(theirs / mine).toFixed(2)}x`, (mine - theirs).toFixed(1)];
    console.log(`${stage.padEnd(16)}${pad(mine.toFixed(1), 10)}${pad(cells[0], 10)}${pad(cells[1], 8)}${pad(cells[2], 11)}`);
    if (theirs !== undefined) {
      totals[stage] ??= { ours: 0, cv: 0 };
      totals[stage].ours += mine;
      totals[stage].cv += theirs;
    }
  }
  if (cv) counted++;
}
if (counted > 1) {
  console.log(`\nAll ${counted} photos together (sums of the stages' bests)`);
  console.log(`${"stage".padEnd(16)}${pad("ours", 10)}${pad("OpenCV", 10)}${pad("ratio", 8)}${pad("ours - cv", 11)}`);
  for (const [stage, { ours, cv }] of Object.entries(totals)) {
    console.log(`${stage.padEnd(16)}${pad(ours.toFixed(0), 10)}${pad(cv.toFixed(0), 10)}${pad(`${(cv / ours).toFixed(2)}x`, 8)}${pad((ours - cv).toFixed(0), 11)}`);
  }
}
