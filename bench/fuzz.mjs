// `npm run fuzz`: thousands of mutated photos through the sketch Worker's real decode entry
// (workers/sketch/decode/index.ts decodeToGrayPlane, bundled from TypeScript by esbuild as the other
// bench scripts do). Every file must end as a picture or a PermanentSketchError (a reason the
// customer can read) within a time and a memory budget; anything else is a finding.
//
//   npm run fuzz                                   3000 files, seed 8
//   npm run fuzz -- --count 20000 --seed 3         more, another sequence
//   npm run fuzz -- --only 1234                    re-run one file of the sequence (same seed)
//   npm run fuzz -- --from 2200 --count 100        a stretch of the sequence (a finding that needs its predecessors)
//   npm run fuzz -- --save test/fixtures/hostile   also write the worst cases there
//
// Options: --time-budget-ms 2000 (per file), --memory-budget-mb 128 (peak JS heap + array
// buffers + wasm memory during the file: a Worker isolate's limit), --format jpeg|png|...
//
// Seeds (bench/fuzz-job.ts): the JPEG fixtures of test/fixtures/images and test/fixtures/photos
// (baseline, progressive, restart, grey, RGB) and small files made from chelsea.jpg: JPEG
// baseline and progressive, PNG, WebP lossy and lossless, GIF plain and interlaced, BMP 1/8/24/32
// bits. Mutations, one to three per file, from a fixed seed so every run tries the same files:
// bit flips, byte sets, slice duplication/deletion/insertion, truncation, format-aware header
// dimension edits (JPEG SOF, PNG IHDR, WebP VP8/VP8L/VP8X, GIF screen and frame, BMP), segment
// and chunk duplication, JPEG scan parameter edits and hundreds of repeated progressive scans;
// PNG chunk CRCs are recomputed half the time so the mutation reaches the decoder proper.
//
// The decodes run in a child process (each file twice: with memory sampled, then timed; a fresh
// child every 250 files, as a Worker's isolate is recycled): a run that hangs is killed at 2.5x
// the time budget and the child restarted; a child that dies (out of memory, crash) is a finding too.
//
// Not a test: it prints figures. The small fixed corpus it saves runs in `npm test`
// (test/sketch/hostile-images.test.ts).
import { fork } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
const bundle = join(out, "fuzz-job.mjs");
const self = fileURLToPath(import.meta.url);

/** A fresh child process after this many files (see the loop in main). */
const FILES_PER_CHILD = 250;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

// ---------------------------------------------------------------- child: decode one file at a time
async function runChild() {
  const job = await import(pathToFileURL(bundle).href);
  const gc = globalThis.gc;
  // Sample memory whenever a large typed array is made, as well as before and after the decode:
  // a buffer freed inside the decode would otherwise never be seen (bench/memory.mjs does the same).
  let peak = 0;
  const sample = () => {
    const { heapUsed, external } = process.memoryUsage();
    if (heapUsed + external > peak) peak = heapUsed + external;
  };
  // Subclassed typed arrays slow V8's loops over them many times over (one file went from 0.3 s
  // to 4 s), so each file is decoded twice: its memory measured with the sampling constructors,
  // then timed with the plain ones. The outcome is the timed run's.
  const names = ["Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array"];
  const plain = Object.fromEntries(names.map((name) => [name, globalThis[name]]));
  const sampling = Object.fromEntries(
    names.map((name) => {
      const Sampled = class extends plain[name] {
        constructor(...args) {
          super(...args);
          if (this.byteLength >= 262144 && typeof args[0] !== "object") sample();
        }
      };
      Object.defineProperty(Sampled, "name", { value: name });
      return [name, Sampled];
    }),
  );
  const use = (constructors) => Object.assign(globalThis, constructors);
  const decode = async (input) => {
    try {
      const plane = await job.decode(input);
      const sane = plane.width > 0 && plane.height > 0 && plane.length === plane.width * plane.height;
      return sane ? { kind: "picture", detail: `${plane.width}x${plane.height}` } : { kind: "bad-plane", detail: JSON.stringify(plane) };
    } catch (error) {
      return job.isPermanent(error)
        ? { kind: "permanent", detail: error.message }
        : { kind: error?.constructor?.name ?? typeof error, detail: String(error?.stack ?? error).split("\n").slice(0, 4).join(" | ") };
    }
  };
  process.on("message", async ({ index, bytes }) => {
    const input = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    use(sampling);
    gc();
    const { heapUsed, external } = process.memoryUsage();
    const before = heapUsed + external;
    peak = before;
    await decode(input);
    sample();
    // The parent restarts its hang timer for the second run.
    process.send({ index, measured: true });
    use(plain);
    gc();
    const started = performance.now();
    const outcome = await decode(input);
    const ms = performance.now() - started;
    process.send({ index, ...outcome, ms, peakMB: peak / 2 ** 20, growthMB: (peak - before) / 2 ** 20 });
  });
  process.send({ ready: true });
}

// ---------------------------------------------------------------- seeded randomness
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** Object.groupBy, which Node 20 does not have yet. */
const groupBy = (items, key) => items.reduce((groups, item) => ((groups[key(item)] ??= []).push(item), groups), {});
const int = (random, n) => Math.floor(random() * n);
const pick = (random, list) => list[int(random, list.length)];

// ---------------------------------------------------------------- byte helpers
const concat = (...parts) => {
  const result = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    result.set(part, at);
    at += part.length;
  }
  return result;
};
const setU16be = (b, o, v) => o + 1 < b.length && ((b[o] = (v >> 8) & 255), (b[o + 1] = v & 255));
const setU16le = (b, o, v) => o + 1 < b.length && ((b[o] = v & 255), (b[o + 1] = (v >> 8) & 255));
const setU32be = (b, o, v) => o + 3 < b.length && new DataView(b.buffer, b.byteOffset).setUint32(o, v >>> 0);
const setU32le = (b, o, v) => o + 3 < b.length && new DataView(b.buffer, b.byteOffset).setUint32(o, v >>> 0, true);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes, start, end) {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** JPEG: every marker segment, a scan counted with its entropy-coded data. */
function jpegSegments(b) {
  const segments = [];
  let at = 2;
  while (at + 3 < b.length && b[at] === 0xff) {
    const marker = b[at + 1];
    if (marker === 0xd9) break;
    let end = at + 2 + ((b[at + 2] << 8) | b[at + 3]);
    if (marker === 0xda) {
      while (end + 1 < b.length && !(b[end] === 0xff && b[end + 1] !== 0 && (b[end + 1] < 0xd0 || b[end + 1] > 0xd7))) end++;
    }
    if (end > b.length) break;
    segments.push({ marker, start: at, end });
    at = end;
  }
  return segments;
}

/** PNG: chunks after the signature. */
function pngChunks(b) {
  const chunks = [];
  let at = 8;
  while (at + 12 <= b.length) {
    const length = ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
    const end = at + 12 + length;
    if (end > b.length) break;
    chunks.push({ type: String.fromCharCode(...b.subarray(at + 4, at + 8)), start: at, end });
    at = end;
  }
  return chunks;
}
function fixPngCrcs(b) {
  for (const chunk of pngChunks(b)) setU32be(b, chunk.end - 4, crc32(b, chunk.start + 4, chunk.end - 4));
  return b;
}

const DIMENSIONS = [0, 1, 2, 7, 255, 256, 4000, 6000, 8191, 16383, 16384, 32767, 32768, 65535];
const dimension = (random) => (random() < 0.7 ? pick(random, DIMENSIONS) : int(random, 65536));

// ---------------------------------------------------------------- mutations
const generic = {
  bitFlips(b, random) {
    const m = b.slice();
    for (let n = 1 + int(random, 8); n > 0; n--) m[int(random, m.length)] ^= 1 << int(random, 8);
    return m;
  },
  byteSets(b, random) {
    const m = b.slice();
    for (let n = 1 + int(random, 6); n > 0; n--) m[int(random, m.length)] = pick(random, [0, 0xff, 0x7f, 0x80, 1, int(random, 256)]);
    return m;
  },
  truncate(b, random) {
    return b.slice(0, random() < 0.3 ? int(random, Math.min(64, b.length)) : int(random, b.length));
  },
  duplicateSlice(b, random) {
    const from = int(random, b.length);
    const length = 1 + int(random, Math.min(2048, b.length - from));
    const to = int(random, b.length);
    return concat(b.subarray(0, to), b.subarray(from, from + length), b.subarray(to));
  },
  deleteSlice(b, random) {
    const from = int(random, b.length);
    return concat(b.subarray(0, from), b.subarray(from + 1 + int(random, 512)));
  },
  insertRandom(b, random) {
    const at = int(random, b.length);
    const junk = Uint8Array.from({ length: 1 + int(random, 64) }, () => int(random, 256));
    return concat(b.subarray(0, at), junk, b.subarray(at));
  },
};

const byFormat = {
  jpeg: {
    sofDimensions(b, random) {
      const m = b.slice();
      const sof = jpegSegments(m).find((s) => s.marker >= 0xc0 && s.marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(s.marker));
      if (!sof) return generic.bitFlips(b, random);
      if (random() < 0.5) setU16be(m, sof.start + 5, dimension(random));
      if (random() < 0.7) setU16be(m, sof.start + 7, dimension(random));
      if (random() < 0.2) m[sof.start + 9] = pick(random, [0, 1, 2, 3, 4, 255]); // component count
      if (random() < 0.2) m[sof.start + 11] = pick(random, [0x00, 0x11, 0x44, 0xff, 0x12]); // sampling
      return m;
    },
    duplicateSegment(b, random) {
      const segments = jpegSegments(b);
      if (!segments.length) return generic.duplicateSlice(b, random);
      const s = pick(random, segments);
      const copies = Array.from({ length: 1 + int(random, 4) }, () => b.subarray(s.start, s.end));
      return concat(b.subarray(0, s.end), ...copies, b.subarray(s.end));
    },
    /** A scan repeated hundreds of times (the smallest one, so the file stays small). */
    manyScans(b, random) {
      const scans = jpegSegments(b).filter((s) => s.marker === 0xda);
      if (!scans.length) return generic.duplicateSlice(b, random);
      const scan = scans.reduce((a, s) => (s.end - s.start < a.end - a.start ? s : a));
      const count = Math.min(pick(random, [50, 200, 1000, 5000]), Math.floor(400_000 / (scan.end - scan.start)));
      const copies = Array.from({ length: count }, () => b.subarray(scan.start, scan.end));
      return concat(b.subarray(0, scan.end), ...copies, b.subarray(scan.end));
    },
    /** Spectral selection / successive approximation out of range (Ss, Se, Ah/Al). */
    scanParameters(b, random) {
      const m = b.slice();
      const scans = jpegSegments(m).filter((s) => s.marker === 0xda);
      if (!scans.length) return generic.bitFlips(b, random);
      const s = pick(random, scans);
      const components = m[s.start + 4];
      const at = s.start + 5 + components * 2;
      if (random() < 0.5) m[at] = pick(random, [0, 1, 63, 64, 200, 255]);
      if (random() < 0.7) m[at + 1] = pick(random, [0, 5, 63, 64, 200, 255]);
      if (random() < 0.5) m[at + 2] = pick(random, [0x00, 0x01, 0x0d, 0x0e, 0xe0, 0xff, int(random, 256)]);
      if (random() < 0.2) m[s.start + 4] = pick(random, [0, 4, 5, 255]);
      return m;
    },
    restartInterval(b, random) {
      const dri = Uint8Array.of(0xff, 0xdd, 0, 4, ...[pick(random, [0, 1, 2, 0xff]), pick(random, [0, 1, 0xff])]);
      return concat(b.subarray(0, 2), dri, b.subarray(2));
    },
  },
  png: {
    ihdr(b, random) {
      const m = b.slice();
      if (random() < 0.6) setU32be(m, 16, random() < 0.5 ? dimension(random) : int(random, 2 ** 32));
      if (random() < 0.6) setU32be(m, 20, random() < 0.5 ? dimension(random) : int(random, 2 ** 32));
      if (random() < 0.3) m[24] = pick(random, [0, 1, 2, 4, 8, 16, 3, 255]); // bit depth
      if (random() < 0.3) m[25] = pick(random, [0, 2, 3, 4, 6, 1, 7]); // colour type
      if (random() < 0.2) m[28] = pick(random, [0, 1, 2]); // interlace
      return fixPngCrcs(m);
    },
    duplicateChunk(b, random) {
      const chunks = pngChunks(b);
      if (!chunks.length) return generic.duplicateSlice(b, random);
      const c = pick(random, chunks);
      const copies = Array.from({ length: 1 + int(random, 3) }, () => b.subarray(c.start, c.end));
      return concat(b.subarray(0, c.end), ...copies, b.subarray(c.end));
    },
    dataWithGoodCrc(b, random) {
      return fixPngCrcs(generic.byteSets(b, random));
    },
  },
  webp: {
    dimensions(b, random) {
      const m = b.slice();
      const chunk = String.fromCharCode(...m.subarray(12, 16));
      if (chunk === "VP8 ") {
        setU16le(m, 26, dimension(random) & 0x3fff);
        setU16le(m, 28, dimension(random) & 0x3fff);
      } else if (chunk === "VP8L") {
        setU32le(m, 21, int(random, 2 ** 32));
      } else {
        m[24 + int(random, 6)] = int(random, 256);
      }
      return m;
    },
    riffSize(b, random) {
      const m = b.slice();
      setU32le(m, 4, pick(random, [0, 4, 0xffffffff, m.length, m.length * 2, int(random, 2 ** 32)]));
      if (random() < 0.5) setU32le(m, 16, pick(random, [0, 0xffffffff, int(random, 2 ** 32)])); // first chunk size
      return m;
    },
  },
  gif: {
    dimensions(b, random) {
      const m = b.slice();
      if (random() < 0.5) setU16le(m, 6 + 2 * int(random, 2), dimension(random)); // screen
      const frame = m.indexOf(0x2c, 13 + (m[10] & 0x80 ? 3 * (2 << (m[10] & 7)) : 0));
      if (frame > 0) for (let f = 0; f < 4; f++) if (random() < 0.4) setU16le(m, frame + 1 + 2 * f, dimension(random));
      return m;
    },
    lzw(b, random) {
      const m = b.slice();
      const frame = m.indexOf(0x2c, 13 + (m[10] & 0x80 ? 3 * (2 << (m[10] & 7)) : 0));
      if (frame < 0 || frame + 10 >= m.length) return generic.bitFlips(b, random);
      if (random() < 0.5) m[frame + 10] = pick(random, [0, 1, 2, 8, 9, 12, 255]); // code size
      if (random() < 0.5) m[frame + 9] = int(random, 256); // flags: local palette, interlace
      if (random() < 0.5) m[frame + 11] = pick(random, [0, 1, 254, 255]); // first sub-block size
      return m;
    },
  },
  bmp: {
    header(b, random) {
      const m = b.slice();
      const fields = [
        () => setU32le(m, 10, pick(random, [0, 14, 54, m.length, 0xffffffff, int(random, 2 ** 32)])), // pixel offset
        () => setU32le(m, 14, pick(random, [0, 12, 39, 40, 108, 124, 0xffffffff])), // header size
        () => setU32le(m, 18, pick(random, [0, 1, -1, 0x7fffffff, -0x80000000, dimension(random)])), // width
        () => setU32le(m, 22, pick(random, [0, 1, -1, 0x7fffffff, -0x80000000, -dimension(random), dimension(random)])), // height
        () => setU16le(m, 28, pick(random, [0, 1, 2, 4, 8, 16, 24, 32, 64, 0xffff])), // bits per pixel
        () => setU32le(m, 30, pick(random, [0, 1, 2, 3, 4, 5, 6, 0xffffffff])), // compression
        () => setU32le(m, 46, pick(random, [0, 1, 256, 257, 0xffffffff])), // palette count
      ];
      for (let n = 1 + int(random, 3); n > 0; n--) pick(random, fields)();
      return m;
    },
  },
};

/** File `index` of the sequence: a seed and one to three mutations, all from (seed, index). */
function mutant(seeds, seedNumber, index) {
  const random = mulberry32(Math.imul(seedNumber + 1, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
  const seed = seeds[index % seeds.length];
  let bytes = seed.bytes;
  const applied = [];
  for (let n = 1 + int(random, 3); n > 0; n--) {
    const own = byFormat[seed.format];
    const [name, mutate] = random() < 0.5 ? pick(random, Object.entries(own)) : pick(random, Object.entries(generic));
    if (bytes.length === 0) break;
    bytes = mutate(bytes, random);
    applied.push(name);
  }
  return { seed, bytes, applied };
}

// ---------------------------------------------------------------- parent
async function main() {
  const count = Number(option("count", 3000));
  const seedNumber = Number(option("seed", 8));
  const timeBudget = Number(option("time-budget-ms", 2000));
  const memoryBudget = Number(option("memory-budget-mb", 128));
  const only = option("only", undefined);
  const format = option("format", undefined);
  const saveTo = option("save", undefined);

  mkdirSync(out, { recursive: true });
  await bundleWorkerCode({ entryPoints: [join(root, "bench", "fuzz-job.ts")], outfile: bundle });
  const job = await import(pathToFileURL(bundle).href);
  const fixtures = ["test/fixtures/images", "test/fixtures/photos"].flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => name.endsWith(".jpg"))
      .sort()
      .map((name) => ({ name, format: "jpeg", bytes: new Uint8Array(readFileSync(join(root, dir, name))) })),
  );
  const small = await job.makeSmallSeeds(new Uint8Array(readFileSync(join(root, "test/fixtures/photos/chelsea.jpg"))), 48, 32);
  // The small seeds twice over: they are the ones that reach the smaller decoders and the corpus.
  let seeds = [...fixtures, ...small, ...small];
  if (format) seeds = seeds.filter((s) => s.format === format);
  console.log(`seeds: ${seeds.length} (${[...new Set(seeds.map((s) => s.name))].join(", ")})`);

  const from = Number(option("from", 0));
  const indices = only !== undefined ? [Number(only)] : Array.from({ length: count }, (_, i) => from + i);
  const results = [];
  let child;
  let pending;
  const startChild = () =>
    new Promise((ready) => {
      child = fork(self, ["--child"], {
        execArgv: ["--expose-gc", "--max-old-space-size=512"],
        serialization: "advanced",
        stdio: ["ignore", "ignore", "pipe", "ipc"],
      });
      const me = child;
      me.stderr.on("data", () => undefined);
      // A killed child's late events must not answer for its successor.
      me.on("message", (message) => child === me && (message.ready ? ready() : pending?.resolve(message)));
      me.on("exit", (code, signal) => child === me && pending?.resolve({ kind: "crash", detail: `child exited (${signal ?? code})` }));
    });
  await startChild();

  const started = performance.now();
  let decodedByChild = 0;
  for (const index of indices) {
    const { seed, bytes, applied } = mutant(seeds, seedNumber, index);
    // A Worker's isolate is recycled, not kept for thousands of requests: without a fresh child
    // now and then, what V8 keeps between files (compiled code, grown wasm memories) creeps
    // toward the budget and is counted against whichever file comes late in the run.
    if (++decodedByChild > FILES_PER_CHILD) {
      child.kill("SIGKILL");
      await startChild();
      decodedByChild = 1;
    }
    const result = await new Promise((resolveResult) => {
      const hang = () =>
        setTimeout(() => {
          const stuck = child;
          pending?.resolve({ kind: "hang", detail: `killed after ${(timeBudget * 2.5) / 1000} s`, ms: timeBudget * 2.5 });
          stuck.kill("SIGKILL");
        }, timeBudget * 2.5);
      let timer = hang();
      pending = {
        resolve: (message) => {
          clearTimeout(timer);
          // The run that measures memory is done; the same time again for the timed run.
          if (message.measured) return void (timer = hang());
          pending = undefined;
          resolveResult(message);
        },
      };
      child.send({ index, bytes });
    });
    if (result.kind === "hang" || result.kind === "crash") {
      await startChild();
      decodedByChild = 0;
    }
    let finding = !["picture", "permanent"].includes(result.kind) ? result.kind : undefined;
    if (!finding && result.ms > timeBudget) finding = "over time budget";
    if (!finding && result.peakMB > memoryBudget) finding = "over memory budget";
    results.push({ index, seed: seed.name, format: seed.format, applied: applied.join("+"), size: bytes.length, bytes, finding, ...result });
    if (only !== undefined) console.log({ ...results.at(-1), bytes: undefined });
  }
  const seconds = (performance.now() - started) / 1000;
  child.kill();
  report(results, seconds, { count: indices.length, seedNumber, timeBudget, memoryBudget });
  if (saveTo) saveCorpus(results, resolve(root, saveTo));
}

function report(results, seconds, { count, seedNumber, timeBudget, memoryBudget }) {
  const tally = (key) => results.reduce((map, r) => map.set(r[key], (map.get(r[key]) ?? 0) + 1), new Map());
  const findings = results.filter((r) => r.finding);
  console.log(`\nfiles tried: ${count} (seed ${seedNumber}) in ${seconds.toFixed(1)} s = ${(count / seconds).toFixed(1)} files/s`);
  console.log(`budgets per file: ${timeBudget} ms, ${memoryBudget} MB (peak JS heap + array buffers + wasm memory)`);
  console.log(`by format: ${[...tally("format")].map(([k, n]) => `${k} ${n}`).join(", ")}`);
  console.log(`outcomes: ${[...tally("kind")].map(([k, n]) => `${k} ${n}`).join(", ")}`);
  const slowest = results.reduce((a, r) => (r.ms > a.ms ? r : a));
  const largest = results.filter((r) => r.peakMB !== undefined).reduce((a, r) => (r.growthMB > a.growthMB ? r : a));
  const describe = (r) => `#${r.index} ${r.format} from ${r.seed} (${r.applied}, ${r.size} B): ${r.kind}`;
  console.log(`worst time: ${slowest.ms.toFixed(0)} ms, ${describe(slowest)}`);
  console.log(`worst memory: +${largest.growthMB.toFixed(1)} MB during the decode (peak ${largest.peakMB.toFixed(1)} MB), ${describe(largest)}`);
  const byFormatWorst = Object.entries(groupBy(results, (r) => r.format)).map(
    ([f, rs]) => `${f} ${Math.max(...rs.map((r) => r.ms)).toFixed(0)} ms / +${Math.max(...rs.map((r) => r.growthMB ?? 0)).toFixed(1)} MB`,
  );
  console.log(`worst per format: ${byFormatWorst.join(", ")}`);
  if (!findings.length) {
    console.log("findings: none (every file ended as a picture or a permanent error within budget)");
    return;
  }
  const kinds = groupBy(findings, (r) => r.finding);
  console.log(`findings: ${findings.length} (${Object.entries(kinds).map(([k, rs]) => `${k} ${rs.length}`).join(", ")})`);
  for (const [kind, rs] of Object.entries(kinds)) {
    for (const r of rs.slice(0, 5)) console.log(`  ${kind}: ${describe(r)} ${r.ms?.toFixed(0)} ms, ${r.detail?.slice(0, 160)}`);
  }
}

/**
 * The worst cases, small ones preferred, under `dir`: each format's slowest and most memory-
 * hungry files and one of each finding kind; JPEG ones in jpeg/ (the JPEG decoder's own work,
 * kept as repros, not asserted by the corpus test).
 */
function saveCorpus(results, dir) {
  const chosen = new Map();
  const small = results.filter((r) => r.size <= 6 * 1024);
  for (const [format, rs] of Object.entries(groupBy(small, (r) => r.format))) {
    const take = (sorted, n) => sorted.slice(0, n).forEach((r) => chosen.set(r.index, r));
    take([...rs].sort((a, b) => b.ms - a.ms), 3);
    take([...rs].sort((a, b) => (b.growthMB ?? 0) - (a.growthMB ?? 0)), 2);
    take(rs.filter((r) => r.kind === "picture").sort((a, b) => b.ms - a.ms), 1);
  }
  for (const rs of Object.values(groupBy(results.filter((r) => r.finding), (r) => `${r.format} ${r.finding}`))) {
    const r = rs.reduce((a, b) => (b.size < a.size ? b : a));
    chosen.set(r.index, r);
  }
  for (const sub of ["", "jpeg"]) {
    const folder = join(dir, sub);
    // The previous run's files go; files made by hand (not fuzz-*) stay.
    if (existsSync(folder)) for (const name of readdirSync(folder)) if (/^fuzz-.*\.(jpg|png|webp|gif|bmp)$/.test(name)) rmSync(join(folder, name));
  }
  mkdirSync(join(dir, "jpeg"), { recursive: true });
  const extension = { jpeg: "jpg", png: "png", webp: "webp", gif: "gif", bmp: "bmp" };
  let total = 0;
  const lines = [];
  for (const r of [...chosen.values()].sort((a, b) => a.index - b.index)) {
    const name = `fuzz-${String(r.index).padStart(5, "0")}-${r.seed.replace(/\.\w+$/, "")}.${extension[r.format]}`;
    writeFileSync(join(dir, r.format === "jpeg" ? "jpeg" : "", name), r.bytes);
    total += r.size;
    lines.push(`${r.format === "jpeg" ? "jpeg/" : ""}${name}: ${r.applied}; ${r.kind}${r.finding ? ` (FINDING: ${r.finding})` : ""}, ${r.ms.toFixed(0)} ms`);
  }
  console.log(`\nsaved ${chosen.size} files (${(total / 1024).toFixed(1)} KB) to ${dir}:`);
  for (const line of lines) console.log(`  ${line}`);
}

if (process.argv[2] === "--child") await runChild();
else await main();
