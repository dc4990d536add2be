// The boundary model's feature planes of BSDS500's train photos, as the kernel reads them
// (bench/bsds-job.ts boundaryFeatureDump), for fitting the model (bench/boundary-model/train.py):
//
//   node bench/boundary-model/dump.mjs BSDS500 FEATURES [--split val]
//
// Writes FEATURES/ID.f32 (the planes one after another, float32), ID.colour.f32 (the same with the
// photo's lightness taken away) and ID.shape ("planes height width"). --split val: the val photos
// as they are (no .colour planes, which only fitting reads), for a candidate map's val pages.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "../wasm-as-module.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [data, out] = process.argv.slice(2);
const split = process.argv.includes("--split") ? process.argv[process.argv.indexOf("--split") + 1] : "train";
if (!data || !out) {
  console.error("usage: node bench/boundary-model/dump.mjs BSDS500 FEATURES [--split val]");
  process.exit(2);
}
mkdirSync(out, { recursive: true });
await bundleWorkerCode({ entryPoints: [join(root, "bench", "bsds-job.ts")], outdir: join(root, "bench", "out"), outExtension: { ".js": ".mjs" } });
const job = await import(pathToFileURL(join(root, "bench", "out", "bsds-job.mjs")).href);
const photos = join(resolve(data), "images", split);
const ids = readdirSync(photos).filter((f) => f.endsWith(".jpg")).map((f) => f.slice(0, -4)).sort();
for (const id of ids) {
  const bytes = new Uint8Array(readFileSync(join(photos, `${id}.jpg`)));
  // As the photo is, and with its lightness taken away (ID.colour.f32): BSDS's colour borders
  // nearly all have a lightness step too, so the trees learn colour alone from these.
  for (const [suffix, withoutLightness] of split === "train" ? [["", false], [".colour", true]] : [["", false]]) {
    const { features, width, height } = await job.boundaryFeatureDump(bytes, { withoutLightness });
    const all = new Float32Array(features.length * width * height);
    features.forEach((plane, f) => all.set(plane, f * width * height));
    writeFileSync(join(out, `${id}${suffix}.f32`), Buffer.from(all.buffer));
    writeFileSync(join(out, `${id}.shape`), `${features.length} ${height} ${width}`);
  }
}
console.log(`${ids.length} ${split} photos' feature planes in ${out}`);
