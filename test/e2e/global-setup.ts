/**
 * Starts both Workers in one `wrangler dev` on a free port with a fresh local D1/R2/Queues
 * directory (migrations applied first), and stops its whole process group at the end.
 * Tests read the address with `inject("baseUrl")`, and that directory with `inject("persistDir")`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, type WriteStream } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { wranglerDevWithRelay } from "../../scripts/dev-relay.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The orders desk's local sign-in password in this wrangler dev. */
    adminPassword: string;
    /** This wrangler dev's --persist-to directory, for a test that changes local R2 behind the app's back. */
    persistDir: string;
  }
}

const root = path.resolve(import.meta.dirname, "../..");
const STARTUP_TIMEOUT_MS = 150_000;
const STOP_GRACE_MS = 5_000;
const ADMIN_PASSWORD = "e2e-desk-password";
/** How often the watchdog asks the server for a page while the tests run, and how long it waits. */
const WATCH_EVERY_MS = 15_000;
const WATCH_ANSWER_MS = 10_000;

const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", NO_COLOR: "1" };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess, logPath: string) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}; see ${logPath}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`wrangler dev did not answer at ${url} within ${STARTUP_TIMEOUT_MS} ms; see ${logPath}`);
}

/**
 * The log with each line stamped with the time it arrived, so that a test's timeout can be
 * matched with what the server was doing then (a CI failure shows this log: .ci/run).
 */
function stampLines(log: WriteStream) {
  let partial = "";
  return (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) log.write(`${new Date().toISOString()} ${line}\n`);
  };
}

/**
 * Asks the server for a small static file every WATCH_EVERY_MS while the tests run, and writes
 * into the log when it does not answer or when wrangler dev exits: a run whose tests all time out
 * then says whether the server stopped, hung, or was only slow, and what the processes were doing.
 */
function watch(baseUrl: string, child: ChildProcess, log: WriteStream): () => void {
  const note = (text: string) => log.write(`${new Date().toISOString()} [e2e watchdog] ${text}\n`);
  let stopped = false;
  let silentSince: number | null = null;
  child.once("exit", (code, signal) => {
    if (!stopped) note(`wrangler dev exited (code ${code}, signal ${signal}) while the tests ran`);
  });
  const timer = setInterval(async () => {
    const started = Date.now();
    try {
      const response = await fetch(`${baseUrl}/favicon.svg`, { signal: AbortSignal.timeout(WATCH_ANSWER_MS) });
      await response.arrayBuffer();
      if (silentSince !== null) note(`answering again after ${Math.round((Date.now() - silentSince) / 1000)} s (${Date.now() - started} ms)`);
      silentSince = null;
    } catch (error) {
      if (stopped) return;
      const firstSilence = silentSince === null;
      silentSince ??= started;
      note(`no answer within ${WATCH_ANSWER_MS} ms (${String(error)})`);
      if (firstSilence) {
        const processes = spawnSync("ps", ["-eo", "pid,ppid,stat,pcpu,rss,etime,args", "--sort=-pcpu"], { encoding: "utf8" });
        note(`processes, busiest first:\n${(processes.stdout ?? "").split("\n").slice(0, 20).join("\n")}`);
      }
    }
  }, WATCH_EVERY_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    const pid = child.pid;
    const force = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      resolve();
    }, STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      clearTimeout(force);
      resolve();
    }
  });
}

export default async function setup(project: TestProject) {
  for (const built of ["build/index.js", "build/sketch/index.js"]) {
    if (!existsSync(path.join(root, built))) {
      throw new Error(`${built} is missing: run \`npm run build\` first (\`npm test\` does).`);
    }
  }
  const persistDir = mkdtempSync(path.join(tmpdir(), "coloring-book-e2e-"));
  const resultsDir = path.join(root, "test-results");
  mkdirSync(resultsDir, { recursive: true });

  const migrate = spawnSync(
    "npx",
    ["wrangler", "d1", "migrations", "apply", "coloring-book-db", "--local", "--persist-to", persistDir],
    { cwd: root, env: wranglerEnv, encoding: "utf8" },
  );
  if (migrate.status !== 0) {
    rmSync(persistDir, { recursive: true, force: true });
    throw new Error(`D1 migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);
  }

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logPath = path.join(resultsDir, "wrangler-dev.log");
  // The last run's log is kept beside this one: a run that hung and was run again to see whether
  // it hangs again still has the first run's story.
  if (existsSync(logPath)) renameSync(logPath, path.join(resultsDir, "wrangler-dev.previous.log"));
  const log = createWriteStream(logPath);
  // With the relay `npm run dev` runs (scripts/dev-relay.mjs): without it, a POST sent after the
  // connection to the runtime sat idle for about 5 s could come back "503 Your worker restarted
  // mid-request", and a browser test waiting on sketches sends just such POSTs.
  const wrangler = wranglerDevWithRelay(port, [
    "-c", "wrangler.toml",
    "-c", "workers/sketch/wrangler.toml",
    "--ip", "127.0.0.1",
    "--var", "APP_ENV:test",
    "--var", "LOCAL_TEST_CHECKOUT:on",
    // Every test is a new visitor, but all of them come from 127.0.0.1: the free preview's
    // per-address daily cap (app/server/limits/preview-limits.server.ts) is raised for them.
    "--var", "DAILY_LIMIT_PER_ADDRESS:1000",
    "--var", `ADMIN_LOCAL_PASSWORD:${ADMIN_PASSWORD}`,
    // As `npm run dev`: paid orders go to the local test printer (decision 028).
    "--var", "LOCAL_TEST_PRINTER:on",
    // Order emails link to the tracking page on this server.
    "--var", `PUBLIC_ORIGIN:${baseUrl}`,
    "--persist-to", persistDir,
    "--show-interactive-dev-session=false",
  ]);
  const child = spawn(
    wrangler.command,
    wrangler.args,
    // Its own process group, so teardown stops wrangler and workerd together.
    { cwd: root, env: { ...wranglerEnv, ...wrangler.env }, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  const writeStamped = stampLines(log);
  child.stdout?.on("data", writeStamped);
  child.stderr?.on("data", writeStamped);

  try {
    await waitUntilAnswering(`${baseUrl}/`, child, logPath);
  } catch (error) {
    await stopGroup(child);
    rmSync(persistDir, { recursive: true, force: true });
    throw error;
  }
  project.provide("baseUrl", baseUrl);
  project.provide("adminPassword", ADMIN_PASSWORD);
  project.provide("persistDir", persistDir);
  const stopWatching = watch(baseUrl, child, log);

  return async () => {
    stopWatching();
    await stopGroup(child);
    log.end();
    rmSync(persistDir, { recursive: true, force: true });
  };
}
