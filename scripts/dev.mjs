// `npm run dev`: both Workers in one `wrangler dev` with local D1, R2 and Queues, while the
// Remix compiler rebuilds the app on change. `npm run predev` has migrated and seeded.
//
// Wrangler starts only once `remix watch` has finished its first build (decision 030): the
// compiler empties public/build and rewrites build/ when it starts, and a wrangler already
// serving reloaded several times under the first requests ("503 Your worker restarted
// mid-request", the page's scripts 404). Started after it, wrangler's first answer is the settled
// app. scripts/dev-start-check.mjs counts what ten fresh starts answer.
//
// wrangler runs with scripts/dev-relay.mjs preloaded: a relay between wrangler's ProxyWorker and
// the Workers' runtime, because that hop's pooled keep-alive connections race the runtime's 5 s
// idle close and POSTs came back "503 Your worker restarted mid-request" under `npm run load`
// (the file says why and how).
import { spawn } from "node:child_process";
import { wranglerDevWithRelay } from "./dev-relay.mjs";
import { LOCAL_STATE_DIR } from "./local-state.mjs";

const port = process.env.PORT || "8787";
const children = [];
/** `remix watch` says this when a build is written (it says "Rebuilt" for the first one too). */
const BUILD_DONE = /💿 (Re)?[Bb]uilt in /;

function run(command, args, { pipeStdout = false, env = {} } = {}) {
  const child = spawn(command, args, {
    stdio: ["inherit", pipeStdout ? "pipe" : "inherit", "inherit"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
  });
  children.push(child);
  child.on("exit", (code) => {
    for (const other of children) if (other !== child) other.kill("SIGTERM");
    process.exit(code ?? 0);
  });
  return child;
}

function startWrangler() {
  const wrangler = wranglerDevWithRelay(port, [
    "-c", "wrangler.toml",
    "-c", "workers/sketch/wrangler.toml",
    "--ip", "127.0.0.1",
    "--var", "APP_ENV:development",
    // No Stripe key locally: payments go through our own test checkout page.
    "--var", "LOCAL_TEST_CHECKOUT:on",
    // One developer (and `npm run load`'s 50 visitors) is every visitor: 127.0.0.1. The per-address
    // daily caps would stop them; the per-session caps and the burst limits stay.
    "--var", "DAILY_LIMIT_PER_ADDRESS:100000",
    // The orders desk's local sign-in (/admin/sign-in); production uses Cloudflare Access.
    "--var", `ADMIN_LOCAL_PASSWORD:${process.env.ADMIN_LOCAL_PASSWORD || "local-desk"}`,
    // No print partner account: the local test printer takes paid orders, /admin/test-printer moves them (decision 028).
    "--var", "LOCAL_TEST_PRINTER:on",
    // Order emails (kept in the outbox /admin shows) link to the tracking page on this server.
    "--var", `PUBLIC_ORIGIN:http://localhost:${port}`,
    "--persist-to", LOCAL_STATE_DIR,
    "--show-interactive-dev-session=false",
  ]);
  run(wrangler.command, wrangler.args, { env: wrangler.env });
}

const remix = run("npx", ["remix", "watch"], { pipeStdout: true });
let wranglerStarted = false;
let pending = "";
remix.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  if (wranglerStarted) return;
  pending += chunk.toString();
  if (!BUILD_DONE.test(pending)) {
    // Only the last line can still be the start of the message.
    pending = pending.slice(pending.lastIndexOf("\n") + 1);
    return;
  }
  wranglerStarted = true;
  pending = "";
  // A failed first build logs an error and no "built": wrangler then waits for the fixed one.
  startWrangler();
});
console.log(`Waiting for the first build before serving on http://127.0.0.1:${port} ...`);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) child.kill("SIGTERM");
  });
}
