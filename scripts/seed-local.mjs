// Seeds the local D1 used by `npm run dev` with demo data (see seed-local.sql). Never remote.
import { execFileSync } from "node:child_process";

execFileSync(
  "npx",
  ["wrangler", "d1", "execute", "coloring-book-db", "--local", "--persist-to", ".wrangler/state", "--file", "scripts/seed-local.sql"],
  { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
);
console.log("Seeded local demo data.");
