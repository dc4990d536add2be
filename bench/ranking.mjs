// `npm run bench:ranking`: the quality score against a ranking of the pages by eye
// (docs/decisions/017-region-page-score.md). Each photo of bench/ranking-by-eye.json is drawn at
// the ranking's level through the Worker's own code path (bench/job.ts), best first as ranked;
// prints each page's score and Spearman's rank correlation between the ranking and the scores,
// and writes the pages in the ranking's order beside their photos (bench/out/ranking-sheet.png)
// to look at them again. Photos of the bench (bench/photo-set.mjs) not in the ranking are listed
// with their scores, to be ranked.
//
//   npm run bench:ranking
//   npm run bench:ranking -- --sheet-only     # the sheet of the pages, no scores printed (to rank blind)
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";
import { benchPhotos } from "./photo-set.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
const sheetOnly = process.argv.includes("--sheet-only");
/**
 * `--json FILE`: each ranked page's quality report as JSON, to study the score against the
 * ranking: `score` is the one the Worker keeps (read from the half-size region lines), the figures
 * and factors beside it those of the print-size page with its strokes (bench/job.ts).
 */
const jsonAt = process.argv.indexOf("--json");
const ranking = JSON.parse(readFileSync(join(root, "bench", "ranking-by-eye.json"), "utf8"));

await bundleWorkerCode({
  entryPoints: [join(root, "bench", "job.ts"), join(root, "bench", "codecs.ts")],
  outdir: out,
  outExtension: { ".js": ".mjs" },
});
const job = await import(pathToFileURL(join(out, "job.mjs")).href);
const codecs = await import(pathToFileURL(join(out, "codecs.mjs")).href);

const photos = new Map((await benchPhotos({ root, out, codecs })).filter((p) => p.sheet).map((p) => [p.name, p]));
const ranked = ranking.pages.filter(({ name }) => {
  if (photos.has(name)) return true;
  console.log(`note: ${name} is ranked but not on this machine (bench/photo-set.mjs says how to fetch it); left out`);
  return false;
});

/** One page at the ranking's level: its score as the Worker keeps it, and the page reduced for the sheet. */
async function pageOf(photo) {
  const bytes = new Uint8Array(readFileSync(photo.path));
  const { page, report } = await job.runJob(bytes, undefined, "pipeline", ranking.level);
  const reduced = job.areaResize(page, Math.ceil(page.width / 4), Math.ceil(page.height / 4));
  return { bytes, score: report.score, features: report.faceFeatures, reduced, report };
}

const rows = [];
for (const [k, entry] of ranked.entries()) {
  rows.push({ ...entry, rank: k + 1, ...(await pageOf(photos.get(entry.name))) });
}
const sheetPath = join(out, "ranking-sheet.png");
writeFileSync(sheetPath, await codecs.contactSheet(rows.map(({ bytes, reduced }) => ({ bytes, pages: [reduced] })), 300));
console.log(`${ranking.level} pages in the ranking's order, best first, beside their photos: ${sheetPath}`);
if (sheetOnly) process.exit(0);

console.log("features = the share of the found faces' eyes and mouths the page shows (measure/faces.ts; - without a face found)");
console.log(`\n${"#".padStart(3)}  ${"photo".padEnd(26)}${"score".padStart(6)}${"features".padStart(10)}  ranked so because`);
for (const { rank, name, score, features, why } of rows) {
  console.log(`${String(rank).padStart(3)}  ${name.padEnd(26)}${String(score).padStart(6)}${(features === null ? "-" : features.toFixed(2)).padStart(10)}  ${why}`);
}
if (jsonAt > 0) writeFileSync(process.argv[jsonAt + 1], JSON.stringify(rows.map(({ rank, name, report }) => ({ rank, name, report }))));
const rho = spearman(
  rows.map(({ rank }) => rank),
  rows.map(({ score }) => -score),
);
console.log(`\nSpearman's rank correlation, ranking by eye against the score: ${rho.toFixed(3)} (${rows.length} pages; decision 017 asks >= 0.8)`);
const kept = rows.filter(({ score }) => score >= ranking.highQualityScore);
console.log(`'Select High Quality Only' (>= ${ranking.highQualityScore}) keeps: ${kept.map(({ name, rank }) => `${name} (#${rank})`).join(", ") || "none"}`);

const unranked = [...photos.values()].filter(({ name }) => !ranking.pages.some((entry) => entry.name === name));
for (const photo of unranked) console.log(`not ranked: ${photo.name} (score ${(await pageOf(photo)).score})`);

/** Spearman's rho: Pearson's correlation of the two lists' ranks, ties given their mean rank. */
function spearman(a, b) {
  const ra = ranks(a);
  const rb = ranks(b);
  const mean = (ra.length + 1) / 2;
  let covariance = 0;
  let varianceA = 0;
  let varianceB = 0;
  for (let i = 0; i < ra.length; i++) {
    covariance += (ra[i] - mean) * (rb[i] - mean);
    varianceA += (ra[i] - mean) ** 2;
    varianceB += (rb[i] - mean) ** 2;
  }
  return covariance / Math.sqrt(varianceA * varianceB);
}

function ranks(values) {
  const order = values.map((value, index) => ({ value, index })).sort((x, y) => x.value - y.value);
  const result = new Array(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].value === order[start].value) end++;
    for (let k = start; k <= end; k++) result[order[k].index] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return result;
}
