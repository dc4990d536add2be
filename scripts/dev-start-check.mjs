// Decision 030: does `npm run dev` answer only once it is settled? Starts `npm run dev` afresh
// (a new process group and an empty local state directory each time), and from the moment its
// port first answers keeps it busy for a while the way a developer's browser would: pages,
// statistics, the page's own scripts, and books with many photos uploaded at once (the first
// one, 50 photos, as soon as `/` answers) and then processed (POST /api/books/{id}/process, so
// the sketch Worker draws during the first minute). Counts the answers that betray a Worker
// reloading under a request: 503 ("Your worker restarted mid-request"), connections reset or closed
// mid-answer, refused after the port had answered; other 5xx and 404s of the page's own
// scripts are counted beside them. Exits 1 unless every count that matters is 0.
//
//   PORT=8791 node scripts/dev-start-check.mjs            # ten starts, 60 s of requests each
//   PORT=8791 node scripts/dev-start-check.mjs --runs 3 --seconds 30
//
// A script, not a test: a run takes a couple of minutes and depends on the machine's load.
// Each run's dev output goes to test-results/dev-start-check/run-N.log.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadFixturePhotos } from "./fixture-photos.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LOG_DIR = path.join(ROOT, "test-results", "dev-start-check");

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
}

const runs = Number(option("runs", 10));
const seconds = Number(option("seconds", 60));
const port = option("port", process.env.PORT ?? "8791");
const base = `http://127.0.0.1:${port}`;
/** `npm run dev` builds, migrates and seeds first; on a busy machine that takes a while. */
const START_TIMEOUT_MS = 5 * 60 * 1000;
const STOP_GRACE_MS = 10_000;
/** The shop's burst limit is 60 uploads and 60 books a minute per address: stay well below. */
const UPLOAD_EVERY_MS = 4000;
const FIRST_UPLOAD_PHOTOS = 50;
const LATER_UPLOAD_PHOTOS = 12;
const PHOTOS = await loadFixturePhotos();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a failed fetch was: a socket error's code (ECONNRESET, ...), else the error's name. A
 * request's own timeout is a DOMException "TimeoutError" whose legacy `code` is the number 23:
 * read by its name, or a slow answer would count as a reset.
 */
function failureCode(error) {
  if (error?.name === "TimeoutError") return "TimeoutError";
  return error?.cause?.code ?? error?.code ?? error?.name;
}

/** A connection dropped under a request: what a Worker reloading mid-answer looks like from outside. */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNABORTED"]);

function newCounts() {
  return { requests: 0, ok: 0, status503: 0, resets: 0, refused: 0, other5xx: 0, timeouts: 0, assets404: 0, rateLimited: 0, other4xx: 0, samples: [] };
}

/** One request, classified; never throws. */
async function hit(counts, label, pathname, init = {}, { asset = false, timeoutMs = 120_000 } = {}) {
  counts.requests++;
  const started = Date.now();
  try {
    const response = await fetch(new URL(pathname, base), { ...init, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    const body = await response.text();
    if (response.status === 503) {
      counts.status503++;
      counts.samples.push(`${label}: 503 ${body.slice(0, 80).replace(/\s+/g, " ")}`);
    } else if (response.status >= 500) {
      counts.other5xx++;
      counts.samples.push(`${label}: ${response.status} ${body.slice(0, 80).replace(/\s+/g, " ")}`);
    } else if (response.status === 429) counts.rateLimited++;
    else if (asset && response.status === 404) {
      counts.assets404++;
      counts.samples.push(`${label}: 404`);
    } else if (response.status >= 400) {
      counts.other4xx++;
      counts.samples.push(`${label}: ${response.status} ${body.slice(0, 80).replace(/\s+/g, " ")}`);
    } else counts.ok++;
    return { response, body };
  } catch (error) {
    const code = failureCode(error);
    if (code === "TimeoutError") counts.timeouts++;
    else if (code === "ECONNREFUSED") counts.refused++;
    else counts.resets++;
    if (!RESET_CODES.has(code) && code !== "ECONNREFUSED" && code !== "TimeoutError") {
      counts.samples.push(`${label}: unclassified ${code} ${error?.cause?.message ?? error?.message}`);
    } else counts.samples.push(`${label}: ${code} after ${Date.now() - started} ms`);
    return null;
  }
}

/** Polls `/` until anything answers (or a connection is accepted and dropped); refused means not yet. */
async function waitForFirstAnswer(child, counts) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited with ${child.exitCode}`);
    try {
      const response = await fetch(base + "/", { redirect: "manual", signal: AbortSignal.timeout(10_000) });
      counts.requests++;
      if (response.status === 503) {
        counts.status503++;
        counts.samples.push(`first GET /: 503 ${(await response.text()).slice(0, 80)}`);
      } else if (response.status >= 500) {
        counts.other5xx++;
        counts.samples.push(`first GET /: ${response.status}`);
      } else counts.ok++;
      return response.status < 400 ? await response.text() : "";
    } catch (error) {
      const code = failureCode(error);
      if (code !== "ECONNREFUSED") {
        counts.requests++;
        if (code === "TimeoutError") counts.timeouts++;
        else counts.resets++;
        counts.samples.push(`first GET /: ${code}`);
        return "";
      }
    }
    await sleep(50);
  }
  throw new Error(`npm run dev did not answer at ${base} within ${START_TIMEOUT_MS / 1000} s`);
}

/**
 * A visitor with its own cookie: creates a book, uploads `photoCount` photos in one request and
 * asks for them to be processed (so the sketch Worker is busy from the first minute on).
 */
async function uploadBook(counts, photoCount) {
  let cookie = null;
  const remember = (result) => {
    const setCookie = result?.response.headers.get("Set-Cookie");
    if (setCookie) cookie = setCookie.split(";")[0];
  };
  const created = await hit(counts, "POST /api/books", "/api/books", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Origin: base },
    body: JSON.stringify({ title: "Dev start check" }),
  });
  remember(created);
  if (created?.response.status !== 201) return;
  const { id } = JSON.parse(created.body);
  const form = new FormData();
  for (let i = 0; i < photoCount; i++) {
    const photo = PHOTOS[i % PHOTOS.length];
    form.append("images", new Blob([photo.bytes], { type: "image/jpeg" }), `${i}-${photo.name}`);
  }
  const uploaded = await hit(counts, `POST ${photoCount} photos`, `/api/books/${id}/images`, {
    method: "POST",
    headers: { Accept: "application/json", Origin: base, ...(cookie ? { Cookie: cookie } : {}) },
    body: form,
  });
  remember(uploaded);
  if (uploaded?.response.status !== 201) return;
  // Then has them drawn, as the upload page does: a bodyless POST while the sketch Worker works.
  await hit(counts, "POST process", `/api/books/${id}/process`, {
    method: "POST",
    headers: { Accept: "application/json", Origin: base, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** The page's own scripts and styles, as a browser would fetch them after `/`. */
function assetPaths(html) {
  return [...html.matchAll(/(?:src|href)="(\/build\/[^"]+)"/g)].map((match) => match[1]);
}

async function hammer(counts, firstHtml) {
  const until = Date.now() + seconds * 1000;
  let assets = assetPaths(firstHtml);
  const browsing = async (pages) => {
    for (let i = 0; Date.now() < until; i++) {
      const pathname = pages[i % pages.length];
      const result = await hit(counts, `GET ${pathname}`, pathname, { headers: { Accept: "text/html" } });
      if (pathname === "/" && result?.response.ok) assets = assetPaths(result.body);
      for (const asset of assets.slice(0, 4)) await hit(counts, `GET ${asset}`, asset, {}, { asset: true });
      await sleep(100);
    }
  };
  const polling = async () => {
    while (Date.now() < until) {
      await hit(counts, "GET /api/get-stats", "/api/get-stats", { headers: { Accept: "application/json" } });
      await sleep(250);
    }
  };
  const uploading = async (firstPhotos) => {
    for (let photos = firstPhotos; Date.now() < until; photos = LATER_UPLOAD_PHOTOS) {
      const started = Date.now();
      await uploadBook(counts, photos);
      await sleep(Math.max(0, UPLOAD_EVERY_MS - (Date.now() - started)));
    }
  };
  await Promise.all([
    uploading(FIRST_UPLOAD_PHOTOS),
    uploading(LATER_UPLOAD_PHOTOS),
    browsing(["/", "/faq", "/choose-plan"]),
    browsing(["/privacy", "/", "/help"]),
    polling(),
  ]);
}

function stopGroup(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      resolve();
    }, STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(force);
      // Whatever the group left behind (workerd) goes too.
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      resolve();
    });
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      clearTimeout(force);
      resolve();
    }
  });
}

/** Resolves once nothing listens on the port: the run before has let go of it (workerd lingers a moment). */
async function portFree() {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const listening = await new Promise((resolve) => {
      const socket = connect(Number(port), "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (!listening) return;
    await sleep(200);
  }
  throw new Error(`port ${port} is still taken: stop whatever listens there, or pick another PORT`);
}

async function oneStart(run) {
  // Otherwise the first "answer" can come from the run before, still shutting down.
  await portFree();
  const stateDir = mkdtempSync(path.join(tmpdir(), "dev-start-check-"));
  const logPath = path.join(LOG_DIR, `run-${run}.log`);
  const log = createWriteStream(logPath);
  const startedAt = Date.now();
  const child = spawn("npm", ["run", "dev"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PORT: port, DEV_STATE_DIR: stateDir, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
  });
  current = child;
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const counts = newCounts();
  try {
    const html = await waitForFirstAnswer(child, counts);
    counts.answeredAfterMs = Date.now() - startedAt;
    await hammer(counts, html);
  } finally {
    await stopGroup(child);
    rmSync(stateDir, { recursive: true, force: true });
  }
  return counts;
}

/** The `npm run dev` under way: stopped with us if we are interrupted. */
let current = null;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    if (current) await stopGroup(current);
    process.exit(130);
  });
}

mkdirSync(LOG_DIR, { recursive: true });
const totals = newCounts();
console.log(`${runs} fresh starts of \`npm run dev\` on ${base}, ${seconds} s of requests from the first answer each`);
for (let run = 1; run <= runs; run++) {
  const counts = await oneStart(run);
  for (const key of Object.keys(totals)) if (typeof totals[key] === "number") totals[key] += counts[key];
  console.log(
    `run ${run}: first answer after ${(counts.answeredAfterMs / 1000).toFixed(1)} s; ${counts.requests} requests, ` +
      `${counts.status503} x 503, ${counts.resets} reset, ${counts.refused} refused, ${counts.other5xx} other 5xx, ` +
      `${counts.timeouts} timed out, ${counts.assets404} script 404, ${counts.rateLimited} rate-limited (429), ${counts.other4xx} other 4xx`,
  );
  for (const sample of counts.samples.slice(0, 5)) console.log(`    ${sample}`);
}
console.log(
  `total: ${totals.requests} requests, ${totals.status503} x 503, ${totals.resets} reset, ${totals.refused} refused, ` +
    `${totals.other5xx} other 5xx, ${totals.timeouts} timed out, ${totals.assets404} script 404, ${totals.other4xx} other 4xx`,
);
const bad = totals.status503 + totals.resets + totals.refused + totals.other5xx + totals.timeouts + totals.assets404;
process.exit(bad === 0 ? 0 : 1);
