// `node bench/jpeg-decode.mjs [--ref GIT_REF] [--runs N] [--only TEXT] [--chroma] [--min-long-edge PX]`:
// our JPEG decoder alone (workers/sketch/decode/jpeg/decode-luma.ts), per photo of `npm run bench`'s set,
// at the scale that keeps the long edge at least PX (default the print size). --chroma: the
// current decoder answers the chroma too (decodeJpegPlanes), as the Worker's decode does; a
// reference from before it existed decodes the luma alone, so the ratio is the chroma's cost.
// With --ref it also bundles the decoder as it was at that commit and runs both, in
// turns, in this one process: the ratio is what to trust on a shared machine, and the planes are
// compared (identical, or the largest difference in grey levels).
//
// Not a test: nothing here asserts. Bundles go to bench/out (gitignored).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
mkdirSync(out, { recursive: true });
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(option("--runs") ?? 5);
const withChroma = args.includes("--chroma");

async function bundle(entry, outfile) {
  await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "node", target: "node20", outfile, logLevel: "warning" });
  return import(pathToFileURL(outfile).href + `?${Date.now()}`);
}

// The decoder and the print size it scales toward (the Worker's own constant).
const JPEG_FOLDER = "workers/sketch/decode/jpeg";
/** Where the decoder lay before the sketch Worker's folders were its stages: an older --ref has it there. */
const EARLIER_JPEG_FOLDER = "workers/sketch/jpeg";
const entry = join(out, "jpeg-current-entry.mjs");
writeFileSync(
  entry,
  `export * from ${JSON.stringify(join(root, JPEG_FOLDER, "decode-luma.ts"))};\n` +
    `export { PRINT_LONG_EDGE_PX } from ${JSON.stringify(join(root, "app", "core", "engine-limits.ts"))};\n`,
);
const current = await bundle(entry, join(out, "jpeg-current.mjs"));
let reference = null;
const ref = option("--ref");
if (ref) {
  // The decoder's folder (and what it imports) as of that commit, in a scratch copy of the tree
  // outside the project (tsc would check it as part of bench/). Each file goes where it was then,
  // so that the old decoder's relative imports resolve.
  const scratch = join(tmpdir(), `jpeg-decode-ref-${process.pid}`);
  const atRef = (path) => {
    try {
      return execFileSync("git", ["show", `${ref}:${path}`], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      return null; // a file that did not exist then
    }
  };
  const folder = atRef(`${JPEG_FOLDER}/decode-luma.ts`) !== null ? JPEG_FOLDER : EARLIER_JPEG_FOLDER;
  const decoderFiles = ["decode-luma.ts", "huffman.ts", "idct.ts"].map((name) => `${folder}/${name}`);
  for (const path of [...decoderFiles, "workers/sketch/errors.ts", "app/lib/constants.ts", "app/core/engine-limits.ts", "app/core/engine-messages.ts"]) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    const text = atRef(path);
    if (text !== null) writeFileSync(join(scratch, path), text);
  }
  for (const name of readdirSync(join(root, JPEG_FOLDER))) {
    // Files added since: the old decoder does not import them, but keep esbuild's resolution simple.
    if (!existsSync(join(scratch, folder, name))) writeFileSync(join(scratch, folder, name), "export {};\n");
  }
  reference = await bundle(join(scratch, folder, "decode-luma.ts"), join(out, "jpeg-ref.mjs"));
  rmSync(scratch, { recursive: true, force: true });
}

// ---- the photos of `npm run bench` (made there: run it once first for the variants and wallpapers) ----
const photos = [];
const add = (label, path) => existsSync(path) && photos.push({ label, path });
for (const folder of ["test/fixtures/photos", "test/fixtures/images"]) {
  for (const name of readdirSync(join(root, folder)).filter((n) => n.endsWith(".jpg")).sort()) add(name, join(root, folder, name));
}
for (const name of readdirSync(out).filter((n) => n.endsWith(".jpg")).sort()) add(name, join(out, name));
const wallpapers = join(out, "wallpapers", "usr", "share", "wallpapers");
for (const name of ["BytheWater", "Path", "Autumn", "ColorfulCups"]) add(`${name} 2560x1600`, join(wallpapers, name, "contents", "images", "2560x1600.jpg"));
for (const name of ["Volna", "Shell", "SafeLanding"]) add(`${name} 5120x2880`, join(wallpapers, name, "contents", "images", "5120x2880.jpg"));
const only = option("--only");

function sizeOf(bytes) {
  // The frame header's size (the decoder reads it again); enough for picking the scale.
  for (let p = 2; p + 9 < bytes.length; ) {
    const marker = bytes[p + 1];
    const length = (bytes[p + 2] << 8) | bytes[p + 3];
    if (marker >= 0xc0 && marker <= 0xc2) return { height: (bytes[p + 5] << 8) | bytes[p + 6], width: (bytes[p + 7] << 8) | bytes[p + 8] };
    p += 2 + length;
  }
  return null;
}

/**
 * CPU time (user + system) of one decode, best of `runs` after a warm-up, the decoders taking
 * turns: other processes on a shared machine stretch wall time, much less a process's CPU time.
 */
function best(decoders, bytes, scale) {
  const results = decoders.map(() => ({ ms: Infinity, plane: null }));
  for (let i = 0; i <= runs; i++) {
    decoders.forEach((decoder, d) => {
      const start = process.cpuUsage();
      const plane = withChroma && decoder.decodeJpegPlanes ? decoder.decodeJpegPlanes(bytes, scale) : decoder.decodeJpegLuma(bytes, scale);
      const { user, system } = process.cpuUsage(start);
      results[d].plane = plane;
      if (i > 0) results[d].ms = Math.min(results[d].ms, (user + system) / 1000);
    });
  }
  return results;
}

const pad = (v, n) => String(v).padStart(n);
console.log(`JPEG decode alone, CPU ms, best of ${runs} after a warm-up${ref ? `, against ${ref} in the same process` : ""}`);
console.log(["photo".padEnd(40), "size", "scale", "ms", ...(ref ? ["ref ms", "speed-up", "planes"] : [])].map((h, i) => (i ? pad(h, 11) : h)).join(""));
let totalNow = 0;
let totalRef = 0;
for (const photo of photos.filter((p) => !only || p.label.includes(only))) {
  const bytes = new Uint8Array(readFileSync(photo.path));
  const size = sizeOf(bytes);
  if (!size) continue;
  const scale = current.jpegScaleFor(size.width, size.height, Number(option("--min-long-edge") ?? current.PRINT_LONG_EDGE_PX));
  let now;
  let then;
  try {
    [now, then] = best(reference ? [current, reference] : [current], bytes, scale);
  } catch (error) {
    console.log(photo.label.padEnd(40) + `  ${error.message}`);
    continue;
  }
  const cells = [`${size.width}x${size.height}`, `${scale}/8`, now.ms.toFixed(1)];
  if (then) {
    let maxDiff = 0;
    for (let i = 0; i < then.plane.data.length; i++) maxDiff = Math.max(maxDiff, Math.abs(then.plane.data[i] - now.plane.data[i]));
    const same = then.plane.width === now.plane.width && then.plane.height === now.plane.height;
    cells.push(then.ms.toFixed(1), `${(then.ms / now.ms).toFixed(2)}x`, !same ? "size!" : maxDiff === 0 ? "identical" : `max ±${maxDiff}`);
    totalRef += then.ms;
  }
  totalNow += now.ms;
  console.log(photo.label.slice(0, 39).padEnd(40) + cells.map((c) => pad(c, 11)).join(""));
}
console.log(`total ${totalNow.toFixed(0)} ms` + (ref ? ` (ref ${totalRef.toFixed(0)} ms, ${(totalRef / totalNow).toFixed(2)}x)` : ""));
