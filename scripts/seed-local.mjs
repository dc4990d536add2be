// Seeds the local D1 used by `npm run dev` with demo data (see seed-local.sql). Never remote.
import { execFileSync } from "node:child_process";
import { LOCAL_STATE_DIR } from "./local-state.mjs";

execFileSync(
  "npx",
  ["wrangler", "d1", "execute", "coloring-book-db", "--local", "--persist-to", LOCAL_STATE_DIR, "--file", "scripts/seed-local.sql"],
  { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
);
console.log("Seeded local demo data.");
