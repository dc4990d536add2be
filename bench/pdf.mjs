// `npm run bench:pdf` (and part of `npm run bench`): how long the print-ready PDF of a book
// takes to build and how much memory it needs, for 5, 15 and 50 pages, with the Worker's own
// writer (workers/sketch/pdf) streaming into a stand-in for R2's multipart upload.
//
// The pages are real sketches at print size: the committed test photos, cropped and enlarged
// to 4400x3300 (landscape) and 3300x4400 (portrait), drawn by the sketch pipeline as the Worker
// does (decode → kernel → our grey PNG encoder), so each page is a 3300 px line-art PNG.
// They are made once into bench/out/pdf-sketches.
//
// Each book is built in a fresh Node process (like a fresh isolate): peak = the highest
// heapUsed + external (every ArrayBuffer and wasm memory) seen at each write to the sink and
// each page load, counting garbage not yet collected (an upper bound). The stand-in multipart
// upload appends each part to bench/out/book-<pages>.pdf and keeps nothing, like R2.
//
// Not a test: nothing here asserts.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
const sketches = join(out, "pdf-sketches");
const writerBundle = join(out, "pdf-writer.mjs");
const sketcherBundle = join(out, "pdf-sketcher.mjs");
const self = fileURLToPath(import.meta.url);
const PAGE_COUNTS = [5, 15, 50];
const TITLE = "Summer at Grandma's";
const DEDICATION = "For Ada and Max,\nwho coloured every wall of the house before they ever had a book of their own.\n\nLove, Grandma";

/** Two bundles: the writer alone (what the child measures) and the sketch pipeline (to make pages). */
async function buildBundles() {
  mkdirSync(out, { recursive: true });
  const bundleOf = (lines, outfile) =>
    bundleWorkerCode({ stdin: { contents: lines.join("\n"), resolveDir: root, loader: "ts" }, outfile });
  await bundleOf(
    [`export { writeBookPdf } from "./workers/sketch/pdf/book-pdf.ts";`, `export { R2MultipartSink } from "./workers/sketch/pdf/sink.ts";`],
    writerBundle,
  );
  await bundleOf(
    [
      `export { decodeToGray, renderSketch } from "./workers/sketch/pipeline.ts";`,
      `export { encodeGrayPng } from "./workers/sketch/encode.ts";`,
      `export { decodeJpegRgba, encodeJpeg, resizeRgba } from "./bench/codecs.ts";`,
    ],
    sketcherBundle,
  );
}

/** The print-size sketches, made once from the committed photos. */
async function makeSketches(job) {
  mkdirSync(sketches, { recursive: true });
  const made = readdirSync(sketches).filter((name) => name.endsWith(".png"));
  if (made.length >= 6) return made.sort().map((name) => join(sketches, name));
  const photos = join(root, "test", "fixtures", "photos");
  const paths = [];
  for (const name of readdirSync(photos).filter((n) => n.endsWith(".jpg")).sort()) {
    const photo = await job.decodeJpegRgba(new Uint8Array(readFileSync(join(photos, name))));
    for (const [width, height, shape] of [[4400, 3300, "landscape"], [3300, 4400, "portrait"]]) {
      const enlarged = await job.encodeJpeg(job.resizeRgba(photo, width, height, true), 90);
      const { sketch } = job.renderSketch(await job.decodeToGray(enlarged));
      const path = join(sketches, `${name.replace(".jpg", "")}-${shape}.png`);
      writeFileSync(path, await job.encodeGrayPng(sketch));
      paths.push(path);
    }
  }
  return paths.sort();
}

/** One book in this process (the child): time and peak memory. */
async function child(pageCount) {
  const { writeBookPdf, R2MultipartSink } = await import(pathToFileURL(writerBundle).href);
  const pngs = readdirSync(sketches).filter((name) => name.endsWith(".png")).sort().map((name) => join(sketches, name));
  const target = join(out, `book-${pageCount}.pdf`);
  writeFileSync(target, "");
  globalThis.gc();
  const mb = () => {
    const { heapUsed, external } = process.memoryUsage();
    return (heapUsed + external) / 2 ** 20;
  };
  const baseline = mb();
  let peak = baseline;
  const sample = () => (peak = Math.max(peak, mb()));
  // Stands in for R2: takes each part away (to disk) and keeps nothing.
  const bucket = {
    async createMultipartUpload() {
      return {
        async uploadPart(partNumber, value) {
          sample();
          appendFileSync(target, value);
          return { partNumber, etag: String(partNumber) };
        },
        async complete() {},
        async abort() {},
      };
    },
  };
  const started = performance.now();
  const sink = new R2MultipartSink(bucket, target);
  const write = sink.write.bind(sink);
  sink.write = async (bytes) => {
    await write(bytes);
    sample();
  };
  const pages = Array.from({ length: pageCount }, (_, i) => async () => {
    const bytes = new Uint8Array(readFileSync(pngs[i % pngs.length]));
    sample();
    return bytes;
  });
  const result = await writeBookPdf(sink, { title: TITLE, dedication: DEDICATION, pages });
  const ms = performance.now() - started;
  sample();
  return { pages: result.pageCount, ms, peakMB: peak, baselineMB: baseline, bytes: statSync(target).size, lowestDpi: result.lowestDpi };
}

/** Builds the bundle and sketches, then each book in a fresh process; prints the table. */
export async function printPdfBench() {
  await buildBundles();
  const pngs = await makeSketches(await import(pathToFileURL(sketcherBundle).href));
  const sizes = pngs.map((path) => statSync(path).size / 2 ** 20);
  console.log(`\nPrint-ready PDF (workers/sketch/pdf), Node ${process.version}, one fresh process per book; pages cycle through ${pngs.length} sketches at 3300 px (PNG ${Math.min(...sizes).toFixed(1)}-${Math.max(...sizes).toFixed(1)} MB each)`);
  console.log(["pages".padEnd(8), "build time", "peak MB", "over idle", "PDF size", "lowest dpi"].map((h, i) => (i ? h.padStart(12) : h)).join(""));
  const rows = [];
  for (const count of PAGE_COUNTS) {
    const json = execFileSync(process.execPath, ["--expose-gc", self, "--child", String(count)], { encoding: "utf8" });
    const row = JSON.parse(json.trim().split("\n").at(-1));
    rows.push(row);
    console.log(
      `${String(count)} + 2`.padEnd(8) +
        [`${(row.ms / 1000).toFixed(2)} s`, row.peakMB.toFixed(1), (row.peakMB - row.baselineMB).toFixed(1), `${(row.bytes / 2 ** 20).toFixed(1)} MB`, row.lowestDpi.toFixed(0)]
          .map((cell) => cell.padStart(12))
          .join(""),
    );
  }
  console.log("  peak = heapUsed + external (array buffers, wasm memory) of the whole process, idle baseline included; the Worker's limit is 128 MB.");
  console.log(`  files: ${join(out, "book-<pages>.pdf")}`);
  return rows;
}

const args = process.argv.slice(2);
if (args[0] === "--child") {
  console.log(JSON.stringify(await child(Number(args[1]))));
} else if (resolve(process.argv[1] ?? "") === self) {
  await printPdfBench();
}
