// `npm run bench:bsds -- PHOTOS [--out DIR] [--scale S] [--only ID,ID]`: draws every BSDS500 photo
// in PHOTOS (a folder of <id>.jpg, e.g. BSDS500's images/val) at the three detail levels through
// the sketch Worker's own code path (decode, hierarchy, each level's cut drawn), and writes them
// as DIR/<id>-<level>.pgm, the layout the BSDS500 boundary benchmark's evaluate.py reads
// (README, "Measuring the sketch engine"). Default DIR: bench/out/bsds. Pages are drawn at print
// size (scale 1); --scale 0.5 draws the same lines on a quarter of the pixels, which the
// benchmark reduces to the photo's 481 x 321 either way (quicker for tuning). --cuts draws the
// same tree cut at 18 thresholds, from finer than Detailed to coarser than Simple (the levels' three
// among them), as DIR/<id>-t<threshold in hundredths>.pgm, and prints the --levels list that scores
// them: the benchmark scores a hierarchy, like gPb-owt-ucm's, over its every threshold.
// --boundary-maps DIR reads DIR/<id>.f32 (float32, one value per analysis-grid pixel) in place of
// the boundary model's map: a candidate map's pages, before it is built in the kernel, at the three
// levels or with --cuts (bench/boundary-model/README.md; the people's own map there is the ceiling).
//
// Not a test: it prints how many pages it wrote and how long the engine took.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const photos = args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1].startsWith("--")));
if (!photos) {
  console.error("usage: npm run bench:bsds -- PHOTOS_DIR [--out DIR] [--scale S] [--only ID,ID] [--cuts] [--boundary-maps DIR]");
  process.exit(2);
}
const outDir = resolve(option("--out", join(root, "bench", "out", "bsds")));
const scale = Number(option("--scale", "1"));
const only = option("--only", null)?.split(",");
const cuts = args.includes("--cuts");
const boundaryMaps = option("--boundary-maps", null);
mkdirSync(outDir, { recursive: true });

const bundleDir = join(root, "bench", "out");
await bundleWorkerCode({ entryPoints: [join(root, "bench", "bsds-job.ts")], outdir: bundleDir, outExtension: { ".js": ".mjs" } });
const job = await import(pathToFileURL(join(bundleDir, "bsds-job.mjs")).href);

const ids = readdirSync(photos)
  .filter((f) => f.endsWith(".jpg"))
  .map((f) => f.slice(0, -4))
  .filter((id) => !only || only.includes(id))
  .sort();
const started = performance.now();
for (const id of ids) {
  const bytes = new Uint8Array(readFileSync(join(photos, `${id}.jpg`)));
  const given = boundaryMaps && readFileSync(join(boundaryMaps, `${id}.f32`));
  const boundaryChance = given ? new Float32Array(given.buffer, given.byteOffset, given.byteLength / 4) : undefined;
  const pages = cuts ? await job.bsdsCuts(bytes, scale, boundaryChance) : await job.bsdsPages(bytes, scale, boundaryChance);
  for (const level of Object.keys(pages)) {
    const { data, width, height } = pages[level];
    const header = Buffer.from(`P5\n${width} ${height}\n255\n`, "ascii");
    writeFileSync(join(outDir, `${id}-${level}.pgm`), Buffer.concat([header, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
  }
}
const seconds = (performance.now() - started) / 1000;
const names = cuts ? job.CUT_THRESHOLDS.map(job.cutName) : job.DETAIL_LEVELS;
console.log(`${ids.length} photos x ${names.length} ${cuts ? "cuts" : "levels"} -> ${outDir} in ${seconds.toFixed(1)} s (${((1000 * seconds) / Math.max(1, ids.length)).toFixed(0)} ms a photo)`);
if (cuts) console.log(`score them with evaluate.py ... --levels ${names.join(",")}`);
