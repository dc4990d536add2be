// `npm run dev`: both Workers in one `wrangler dev` with local D1, R2 and Queues, while the
// Remix compiler rebuilds the app on change. `npm run predev` has built, migrated and seeded.
import { spawn } from "node:child_process";

const port = process.env.PORT || "8787";
const children = [];

function run(command, args) {
  const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
  children.push(child);
  child.on("exit", (code) => {
    for (const other of children) if (other !== child) other.kill("SIGTERM");
    process.exit(code ?? 0);
  });
}

run("npx", ["remix", "watch"]);
run("npx", [
  "wrangler", "dev",
  "-c", "wrangler.toml",
  "-c", "workers/sketch/wrangler.toml",
  "--port", port,
  "--ip", "127.0.0.1",
  "--var", "APP_ENV:development",
  // No Stripe key locally: payments go through our own test checkout page.
  "--var", "LOCAL_TEST_CHECKOUT:on",
  // One developer (and `npm run load`'s 50 visitors) is every visitor: 127.0.0.1. The per-address
  // daily caps would stop them; the per-session caps and the burst limits stay.
  "--var", "DAILY_LIMIT_PER_ADDRESS:100000",
  // The orders desk's local sign-in (/admin/sign-in); production uses Cloudflare Access.
  "--var", `ADMIN_LOCAL_PASSWORD:${process.env.ADMIN_LOCAL_PASSWORD || "local-desk"}`,
  // Order emails (kept in the outbox /admin shows) link to the tracking page on this server.
  "--var", `PUBLIC_ORIGIN:http://localhost:${port}`,
  "--persist-to", ".wrangler/state",
  "--show-interactive-dev-session=false",
]);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) child.kill("SIGTERM");
  });
}
