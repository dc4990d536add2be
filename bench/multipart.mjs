// `npm run bench:multipart`: our streaming multipart reader (app/server/http/multipart.server.ts) beside
// @remix-run/multipart-parser on the jobs of a book upload (decision 022):
//   - a 15 MB photo read whole, as addImages reads it: time (median of 7) and peak memory (first read);
//   - how many bytes each has taken off the body when it can refuse a photo over the 15 MB cap,
//     a photo past the book's 50, and an 8 MB text field (our non-file cap is 64 KB), and whether
//     it can name the file in the product's "File '<name>' is larger than 15 MB" message.
//
// Each case runs in a fresh Node process (like a fresh isolate) fed 64 KB chunks; peak = the
// highest heapUsed + arrayBuffers seen at each chunk pulled and each part handed out, garbage not
// yet collected included (an upper bound). Not a test: nothing here asserts.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
const bundle = join(out, "multipart-readers.mjs");
const self = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;
const MAX_UPLOAD_BYTES = 15 * MB;
const CHUNK = 64 * 1024;
const BOUNDARY = "----bench-boundary";

if (process.argv[2] === "--child") {
  await child(process.argv[3], process.argv[4]);
} else {
  await main();
}

async function main() {
  mkdirSync(out, { recursive: true });
  await build({
    stdin: {
      contents: [
        `export { readMultipart } from "./app/server/http/multipart.server.ts";`,
        `export { parseMultipartStream, MaxFileSizeExceededError } from "@remix-run/multipart-parser";`,
      ].join("\n"),
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile: bundle,
    logLevel: "warning",
  });
  const run = (reader, job) =>
    JSON.parse(execFileSync(process.execPath, ["--expose-gc", self, "--child", reader, job], { encoding: "utf8" }));

  console.log(`A 15 MB photo read whole, in ${CHUNK / 1024} KB chunks (median of 7 runs, fresh process each case)`);
  console.log("reader".padEnd(30) + "time ms".padStart(10) + "peak MB".padStart(10));
  for (const reader of ["ours", "library"]) {
    const { ms, peak } = run(reader, "whole");
    console.log(reader.padEnd(30) + ms.toFixed(1).padStart(10) + (peak / MB).toFixed(1).padStart(10));
  }
  console.log("\nBytes taken off the body when the refusal can be made");
  console.log("case".padEnd(30) + "ours MB".padStart(10) + "library MB".padStart(12) + "  library names the file?");
  for (const job of ["too-big", "fifty-first", "big-field"]) {
    const ours = run("ours", job);
    const library = run("library", job);
    const named = job === "too-big" ? (library.named ? "yes" : "no: " + library.message) : "";
    console.log(job.padEnd(30) + (ours.pulled / MB).toFixed(2).padStart(10) + (library.pulled / MB).toFixed(2).padStart(12) + "  " + named);
  }
}

function part(name, filename, bytes) {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ""}\r\n` +
    (filename ? "Content-Type: image/jpeg\r\n" : "") + "\r\n";
  return [new TextEncoder().encode(head), bytes, new TextEncoder().encode("\r\n")];
}

function randomBytes(length) {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(length, i + 65536)));
  return bytes;
}

/** The body of each case: a photo of `size`, a photo after the book is full, a big text field. */
function bodyFor(job) {
  const pieces =
    job === "whole" ? part("images", "photo.jpg", randomBytes(MAX_UPLOAD_BYTES))
    : job === "too-big" ? part("images", "huge.jpg", randomBytes(MAX_UPLOAD_BYTES + MB))
    : job === "fifty-first" ? part("images", "fifty-first.jpg", randomBytes(MAX_UPLOAD_BYTES))
    : part("note", null, new Uint8Array(8 * MB).fill(0x41));
  pieces.push(new TextEncoder().encode(`--${BOUNDARY}--\r\n`));
  const body = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of pieces) {
    body.set(p, offset);
    offset += p.length;
  }
  return body;
}

async function child(reader, job) {
  const lib = await import(pathToFileURL(bundle).href);
  const body = bodyFor(job);
  let peak = 0;
  const sample = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    peak = Math.max(peak, heapUsed + arrayBuffers);
  };
  let pulled = 0;
  const stream = () => {
    pulled = 0;
    return new ReadableStream({
      pull(controller) {
        sample();
        if (pulled >= body.length) return controller.close();
        controller.enqueue(body.slice(pulled, pulled + CHUNK));
        pulled += CHUNK;
      },
    });
  };

  if (job === "whole") {
    // Memory from the first read only: the backing stores of an earlier read are freed in the
    // background after gc(), so a later baseline could still hold them. Time: the median of 7 more.
    globalThis.gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    const base = heapUsed + arrayBuffers; // the body itself is in here: peak is above it
    const read = () => (reader === "ours" ? readOurs(lib, stream(), sample) : readLibrary(lib, stream(), sample));
    if ((await read())[0].length !== MAX_UPLOAD_BYTES) throw new Error("wrong size");
    const firstPeak = peak - base;
    const times = [];
    for (let run = 0; run < 7; run++) {
      const started = performance.now();
      await read();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(JSON.stringify({ ms: times[3], peak: firstPeak }));
    return;
  }

  // The refusals, as addImages decides them: ours at the part's headers (photo count), on the
  // byte that passes a cap (file 15 MB, fields 64 KB); the library's only when it hands out a part.
  let message = "";
  let named = false;
  try {
    if (reader === "ours") {
      let size = 0;
      let filename = null;
      for await (const event of lib.readMultipart(stream(), BOUNDARY)) {
        if (event.type === "part") {
          filename = event.headers.filename;
          size = 0;
          if (job === "fifty-first" && filename) throw new Error("refused at the headers");
        } else if (event.type === "data") {
          size += event.bytes.length;
          if (filename && size > MAX_UPLOAD_BYTES) throw new Error(`File '${filename}' is larger than 15 MB`);
          if (!filename && size > 64 * 1024) throw new Error("field over 64 KB");
        }
      }
    } else {
      for await (const part of lib.parseMultipartStream(stream(), { boundary: BOUNDARY, maxFileSize: MAX_UPLOAD_BYTES })) {
        if (job === "fifty-first" && part.filename) throw new Error("refused when the part is handed out");
        if (!part.filename && part.size > 64 * 1024) throw new Error("field over 64 KB");
      }
    }
  } catch (error) {
    message = error.message;
    named = message.includes("huge.jpg");
  }
  process.stdout.write(JSON.stringify({ pulled, message, named }));
}

/** As addImages: the chunks of each file, joined once the file ends. */
async function readOurs(lib, body, sample) {
  const files = [];
  let chunks = [];
  let size = 0;
  for await (const event of lib.readMultipart(body, BOUNDARY)) {
    if (event.type === "part") {
      chunks = [];
      size = 0;
    } else if (event.type === "data") {
      chunks.push(event.bytes);
      size += event.bytes.length;
    } else {
      const joined = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        joined.set(chunk, offset);
        offset += chunk.length;
      }
      chunks = [];
      sample();
      files.push(joined);
    }
  }
  return files;
}

async function readLibrary(lib, body, sample) {
  const files = [];
  for await (const part of lib.parseMultipartStream(body, { boundary: BOUNDARY, maxFileSize: MAX_UPLOAD_BYTES })) {
    const bytes = part.bytes;
    sample();
    files.push(bytes);
  }
  return files;
}
