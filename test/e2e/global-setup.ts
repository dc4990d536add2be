/**
 * Starts both Workers in one `wrangler dev` on a free port with a fresh local D1/R2/Queues
 * directory (migrations applied first), and stops its whole process group at the end.
 * Tests read the address with `inject("baseUrl")`, and that directory with `inject("persistDir")`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
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
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

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

  return async () => {
    await stopGroup(child);
    log.end();
    rmSync(persistDir, { recursive: true, force: true });
  };
}
