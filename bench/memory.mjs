// Peak memory of the whole sketch job (decode → regions → packed for R2 → page + score → PNG
// encode) on large JPEGs, each in a fresh Node process so nothing from an earlier job or from the
// bundler is counted.
//
//   node bench/memory.mjs                 the 14.7 MP wallpapers found here + a synthetic 24 MP JPEG
//   node bench/memory.mjs PATH...         these files
//   import { measureJobMemory } from "./memory.mjs"   (for bench/run.mjs): figures for one file
//
// What is counted: process.memoryUsage().heapUsed + .external, sampled at every stage boundary
// and never after a forced GC during the job, so garbage not yet collected counts too (an upper
// bound, "peak MB"; it moves by tens of MB between runs of the same file, with the collector's
// timing). "live MB" is the same job in a second fresh process that collects garbage before every
// sample: what the job must hold at once, the figure that does not move between runs.
// `external` holds every ArrayBuffer/typed array AND every WebAssembly.Memory (Node puts
// wasm linear memory in `external`, not in `arrayBuffers`; checked: a 100 MB Memory adds 100 MB
// to external and 0 to arrayBuffers). That is the Workers isolate's 128 MB: JS heap, array
// buffers and wasm memory. The baseline (a GC'd idle process with the bundle loaded) is included.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
const bundle = join(out, "memory-job.mjs");
const self = fileURLToPath(import.meta.url);

async function buildBundle() {
  mkdirSync(out, { recursive: true });
  await bundleWorkerCode({ entryPoints: [join(root, "bench", "memory-job.ts")], outfile: bundle });
}

/**
 * Peak memory of one job on the file at `path`, measured in a child process; `live`: with the
 * garbage collected before every sample (slower: a full collection per sample).
 */
export async function measureJobMemory(path, { rebuild = true, live = false } = {}) {
  if (rebuild || !existsSync(bundle)) await buildBundle();
  const json = execFileSync(process.execPath, ["--expose-gc", self, "--child", resolve(path), ...(live ? ["--live"] : [])], { encoding: "utf8" });
  return JSON.parse(json);
}

const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;

/**
 * Samples after every typed array of 256 KB or more is made, as well as at the stage boundaries:
 * a GC inside a stage could otherwise free a big buffer (the progressive decoder's coefficients)
 * before the boundary sample sees it. The subclasses replace the globals before the job is loaded.
 */
function sampleOnLargeAllocations(sample) {
  for (const name of ["Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array"]) {
    const Base = globalThis[name];
    const Sampled = class extends Base {
      constructor(...args) {
        super(...args);
        if (this.byteLength >= 262144 && typeof args[0] !== "object") sample("allocation");
      }
    };
    Object.defineProperty(Sampled, "name", { value: name });
    globalThis[name] = Sampled;
  }
}

/** The job's stage between a boundary sample (memory-job.ts) and the next: a peak between them is named by it. */
const STAGE_AFTER = { start: "decode", decoded: "regions", "regions built": "pack", packed: "draw + score", page: "encode" };

async function child(path, live) {
  const stages = [];
  let peak = { total: 0 };
  let allocations = 0;
  const sample = (stage) => {
    if (live) globalThis.gc();
    if (stage === "allocation") {
      allocations++;
      const { heapUsed, external } = process.memoryUsage();
      if (heapUsed + external > peak.total) peak = { stage: STAGE_AFTER[stages.at(-1)?.stage] ?? "load", total: heapUsed + external };
      return;
    }
    sampleStage(stage);
  };
  sampleOnLargeAllocations(sample);
  const job = await import(pathToFileURL(bundle).href);
  // The file as R2 hands it over (one ArrayBuffer of its size), read before the idle sample and
  // handed to the job with no reference kept here.
  let file = readFileSync(path);
  const fileBytes = file.length;
  const read = () => {
    const bytes = new Uint8Array(file.buffer, file.byteOffset, file.length);
    file = undefined;
    return bytes;
  };
  globalThis.gc();
  const idle = process.memoryUsage();
  const sampleStage = (stage) => {
    const { heapUsed, external, arrayBuffers } = process.memoryUsage();
    const now = { stage, total: heapUsed + external, heapUsed, arrayBuffers, wasmAndOther: external - arrayBuffers };
    stages.push(Object.fromEntries(Object.entries(now).map(([k, v]) => [k, typeof v === "number" ? mb(v) : v])));
    if (now.total > peak.total) peak = now;
  };
  const result = await job.runJob(read, sample);
  console.log(
    JSON.stringify({
      file: path,
      fileMB: mb(fileBytes),
      ...result,
      baselineMB: mb(idle.heapUsed + idle.external),
      peakMB: mb(peak.total),
      peakStage: peak.stage,
      allocationSamples: allocations,
      stages,
    }),
  );
}

/** Where the 5120x2880 wallpapers are (plasma-workspace-wallpapers, installed or unpacked here), or undefined. */
function wallpaperFolder() {
  return ["/usr/share/wallpapers", "/tmp/wp/x/usr/share/wallpapers", join(out, "wallpapers", "usr", "share", "wallpapers")].find((f) => existsSync(join(f, "Volna")));
}

/**
 * The synthetic 24 MP photo (Volna resized to 6000x4000 with jSquash, mozjpeg progressive, quality
 * 90: the decoder's most expensive input, decision 005), made once; undefined without the
 * wallpapers. Also one of `npm run bench`'s large photos (bench/photo-set.mjs).
 */
export async function syntheticTwentyFourMp() {
  const path = join(out, "synthetic-24mp-6000x4000.jpg");
  if (existsSync(path)) return path;
  const folder = wallpaperFolder();
  const source = folder && join(folder, "Volna", "contents", "images", "5120x2880.jpg");
  if (!source || !existsSync(source)) return undefined;
  if (!existsSync(bundle)) await buildBundle();
  const job = await import(pathToFileURL(bundle).href);
  writeFileSync(path, await job.resizedJpeg(new Uint8Array(readFileSync(source)), 6000, 4000));
  return path;
}

const args = process.argv.slice(2);
if (args[0] === "--child") {
  await child(args[1], args[2] === "--live");
} else if (process.argv[1] === self) {
  await buildBundle();
  let paths = args;
  if (!paths.length) {
    const folder = wallpaperFolder();
    const wallpapers = folder
      ? readdirSync(folder).map((n) => join(folder, n, "contents", "images", "5120x2880.jpg")).filter((p) => existsSync(p)).slice(0, 3)
      : [];
    if (!wallpapers.length) console.log("note: no 5120x2880 wallpapers (apt-get download plasma-workspace-wallpapers)");
    paths = [...wallpapers];
    const twentyFour = await syntheticTwentyFourMp();
    if (twentyFour) paths.push(twentyFour);
  }
  console.log("Peak memory of the whole job (heapUsed + external = JS heap + array buffers + wasm memory), fresh process each;");
  console.log("peak = sampled as the job runs (garbage not yet collected counts: an upper bound), live = garbage collected before each sample");
  console.log(["file".padEnd(58), "size", "file MB", "decoded", "page", "peak MB", "at", "live MB", "at", "idle MB"].join("  "));
  for (const path of paths) {
    const r = await measureJobMemory(path, { rebuild: false });
    const held = await measureJobMemory(path, { rebuild: false, live: true });
    console.log(
      [
        path.split("/").slice(-4).join("/").slice(-58).padEnd(58),
        `${r.sourceWidth}x${r.sourceHeight}`,
        String(r.fileMB).padStart(7),
        `${r.width}x${r.height}`,
        `${r.pageWidth}x${r.pageHeight}`,
        String(r.peakMB).padStart(7),
        r.peakStage,
        String(held.peakMB).padStart(7),
        held.peakStage,
        String(r.baselineMB).padStart(7),
      ].join("  "),
    );
    if (args.includes("--stages") || process.env.STAGES) console.log(JSON.stringify(r.stages));
  }
}
