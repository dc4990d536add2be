// `npm run bench:bsds-fit -- DATA [--limit N] [--as-merged]`: refits the border model (BORDER_MODEL in
// workers/sketch/kernel/regions/tuning.ts; decision 031) on BSDS500's train photos. DATA is the
// BSDS500 folder (images/train/*.jpg, groundTruth/train/*.mat). Each photo goes through the
// Worker's own decode and finest regions; every border's evidence is written to
// bench/out/bsds-fit/, and bench/bsds_fit.py fits the logistic model against the share of people
// who drew a line along it, printing the weights to paste into tuning.ts. Tune on train, report val.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const data = args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1].startsWith("--")));
if (!data) {
  console.error("usage: npm run bench:bsds-fit -- BSDS500_DIR [--limit N]");
  process.exit(2);
}
const limit = args.includes("--limit") ? Number(args[args.indexOf("--limit") + 1]) : Infinity;
const asMerged = args.includes("--as-merged");
// Per train photo, the boundary model's chance on its analysis grid (ID.f32, float32), read in
// place of the model's own answers: the model was fitted on these photos, so the border model is
// fitted on its cross-fitted maps (bench/boundary-model/README.md). Only the train photos with a
// map in DIR are fitted on, so a half of train's maps (a forest fitted on the other half) fits on
// the photos that forest never saw.
const boundaryMaps = args.includes("--boundary-maps") ? resolve(args[args.indexOf("--boundary-maps") + 1]) : null;
const out = join(root, "bench", "out", "bsds-fit");
mkdirSync(out, { recursive: true });
await bundleWorkerCode({ entryPoints: [join(root, "bench", "bsds-job.ts")], outdir: join(root, "bench", "out"), outExtension: { ".js": ".mjs" } });
const job = await import(pathToFileURL(join(root, "bench", "out", "bsds-job.mjs")).href);

const photos = join(resolve(data), "images", "train");
const trainIds = readdirSync(photos).filter((f) => f.endsWith(".jpg")).map((f) => f.slice(0, -4)).sort();
const ids = trainIds.filter((id) => !boundaryMaps || existsSync(join(boundaryMaps, `${id}.f32`))).slice(0, limit);
if (boundaryMaps) console.log(`${ids.length} of ${trainIds.length} train photos with a map in ${boundaryMaps}`);
// bsds_fit.py fits on every row file in the folder: an earlier run's, of other photos or under
// another model, would be fitted on with this run's.
const removeRows = (extension) => {
  for (const file of readdirSync(out)) if (file.endsWith(extension)) rmSync(join(out, file));
};
if (asMerged) {
  // The borders as the merge tree weighs them under the current model (bsds-job.ts mergedBorderRows).
  const near = spawnSync("/usr/bin/python3", [join(root, "bench", "bsds_fit.py"), "--near", resolve(data), out], { stdio: "inherit" });
  if (near.status !== 0) process.exit(near.status ?? 1);
  removeRows(".merged");
  for (const id of ids) {
    const [width, height] = readFileSync(join(out, `${id}.shape`), "utf8").split(" ").map(Number);
    const bytes = readFileSync(join(out, `${id}.near`));
    // Each photo twice, in colour and in grey, so the model learns what a black-and-white photo's borders lack.
    const rows = [];
    const given = boundaryMaps && readFileSync(join(boundaryMaps, `${id}.f32`));
    const boundaryChance = given ? new Float32Array(given.buffer, given.byteOffset, given.byteLength / 4) : undefined;
    for (const grey of [false, true]) {
      const merged = await job.mergedBorderRows(new Uint8Array(readFileSync(join(photos, `${id}.jpg`))), new Float32Array(bytes.buffer, bytes.byteOffset, width * height), { grey, boundaryChance });
      if (merged) rows.push(...merged.rows);
    }
    writeFileSync(join(out, `${id}.merged`), JSON.stringify(rows));
  }
  console.log(`${ids.length} train photos' merged borders in ${out}`);
  const fit = spawnSync("/usr/bin/python3", [join(root, "bench", "bsds_fit.py"), "--merged", resolve(data), out], { stdio: "inherit" });
  process.exit(fit.status ?? 1);
}
removeRows(".json");
for (const id of ids) {
  const borders = await job.finestBorderRows(new Uint8Array(readFileSync(join(photos, `${id}.jpg`))));
  writeFileSync(join(out, `${id}.label`), Buffer.from(borders.label.buffer, borders.label.byteOffset, borders.label.byteLength));
  writeFileSync(join(out, `${id}.json`), JSON.stringify({ width: borders.width, height: borders.height, rows: borders.rows }));
}
console.log(`${ids.length} train photos' borders in ${out}`);
const fit = spawnSync("/usr/bin/python3", [join(root, "bench", "bsds_fit.py"), resolve(data), out], { stdio: "inherit" });
process.exit(fit.status ?? 1);
