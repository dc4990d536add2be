// The whole sketch job for one photo inside workerd (Miniflare's Node API), several times:
//
//   node bench/workerd.mjs [PATH] [runs]     default: bench/out/twelve-mp.jpg (made by npm run bench:
//                                            Volna 5120x2880 cropped to 4:3 and resized to 4000x3000)
//
// bench/workerd/job.ts is bundled by `wrangler deploy --dry-run` (as build:sketch does, wasm
// included) and run by Miniflare. In workerd performance.now() does not advance during pure
// compute, so each job is timed from Node around dispatchFetch; a `?noop` request that only
// sends the photo is timed too and subtracted. On an idle machine this wall time ≈ CPU time.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "bench", "out", "workerd");
const path = resolve(process.argv[2] ?? join(root, "bench", "out", "twelve-mp.jpg"));
const runs = Number(process.argv[3]) || 5;

execFileSync(join(root, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "-c", join(root, "bench", "workerd", "wrangler.toml"), "--outdir", outdir], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});
const modules = [{ type: "ESModule", path: join(outdir, "job.js") }];
for (const name of readdirSync(outdir).filter((n) => n.endsWith(".wasm"))) modules.push({ type: "CompiledWasm", path: join(outdir, name) });

const mf = new Miniflare({
  modules,
  modulesRoot: outdir,
  compatibilityDate: "2026-04-01",
  compatibilityFlags: ["nodejs_compat"],
});
const bytes = readFileSync(path);
async function timed(query) {
  const start = performance.now();
  const response = await mf.dispatchFetch(`http://bench/${query}`, { method: "POST", body: bytes });
  const body = await response.json();
  if (!response.ok) throw new Error(JSON.stringify(body));
  return { ms: performance.now() - start, body };
}
try {
  const first = await timed(""); // warms the isolate, compiles the wasm
  const noop = [];
  const jobs = [];
  for (let i = 0; i < runs; i++) {
    noop.push((await timed("?noop")).ms);
    jobs.push((await timed("")).ms);
  }
  const sorted = (values) => [...values].sort((a, b) => a - b);
  const sendMs = sorted(noop)[0];
  const job = sorted(jobs).map((ms) => ms - sendMs);
  const round = (v) => Math.round(v);
  console.log(JSON.stringify({
    photo: path,
    bytes: bytes.length,
    result: first.body,
    first_job_ms: round(first.ms - sendMs),
    send_only_ms: round(sendMs),
    runs,
    job_ms_best: round(job[0]),
    job_ms_median: round(job[job.length >> 1]),
    job_ms_all: job.map(round),
  }));
} finally {
  await mf.dispose();
}
