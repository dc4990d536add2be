// The whole Worker job (decode → kernel → score → PNG) on the small photos only, many runs each,
// for measuring a change to the per-pixel and fixed costs quickly: `node bench/small-jobs.mjs [runs]`.
// Prints per photo the least CPU ms of the job and of each stage (each stage's own least), and
// with --save DIR / --compare DIR the finished pages (to check a change keeps them the same).
// Not a test: nothing here asserts. Same bundle as bench/run.mjs (bench/job.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
mkdirSync(out, { recursive: true });
await bundleWorkerCode({
  entryPoints: { "small-jobs": join(root, "bench", "job.ts") },
  outdir: out,
  outExtension: { ".js": ".mjs" },
});
const job = await import(pathToFileURL(join(out, "small-jobs.mjs")).href);
const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(args.find((a) => /^\d+$/.test(a))) || 30;
const fixtures = join(root, "test", "fixtures", "photos");
const photos = [
  ["astronaut", join(fixtures, "astronaut.jpg")],
  ["chelsea", join(fixtures, "chelsea.jpg")],
  ["coffee", join(fixtures, "coffee.jpg")],
  ["room", join(out, "room-motorcycle.jpg")],
].filter(([, path]) => existsSync(path));
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
for (const [name, path] of photos) {
  const bytes = new Uint8Array(readFileSync(path));
  await job.runJob(bytes); // warm-up
  const best = { cpu: Infinity, decode: Infinity, kernel: Infinity, score: Infinity, encode: Infinity };
  let last;
  for (let i = 0; i < runs; i++) {
    const c0 = cpu();
    last = await job.runJob(bytes);
    best.cpu = Math.min(best.cpu, cpu() - c0);
    best.decode = Math.min(best.decode, last.timing.decode_ms);
    best.kernel = Math.min(best.kernel, last.timing.kernel_ms);
    best.score = Math.min(best.score, last.timing.score_ms);
    best.encode = Math.min(best.encode, last.timing.encode_ms);
  }
  const figures = Object.fromEntries(Object.entries(best).map(([k, v]) => [k, +v.toFixed(2)]));
  let versus = "";
  if (flag("--save")) {
    mkdirSync(flag("--save"), { recursive: true });
    writeFileSync(join(flag("--save"), `${name}.raw`), last.page.data);
  }
  if (flag("--compare")) {
    const saved = readFileSync(join(flag("--compare"), `${name}.raw`));
    let changed = 0;
    for (let i = 0; i < saved.length; i++) if (saved[i] !== last.page.data[i]) changed++;
    versus = ` changed ${changed}/${saved.length} px`;
  }
  console.log(`${name.padEnd(10)} cpu ${figures.cpu} ms  decode ${figures.decode}  kernel ${figures.kernel}  score ${figures.score}  encode ${figures.encode}  quality ${last.report.score}${versus}`);
}
