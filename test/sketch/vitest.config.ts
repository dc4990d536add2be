import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

// The sketch Worker (workers/sketch/index.ts) in workerd with local D1, R2 and its two queues:
// kernel and quality unit tests, decode/encode with the real wasm codecs, and the consumer.
export default defineConfig({
  root,
  resolve: { alias: { "~": path.join(root, "app") } },
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: path.join(root, "workers/sketch/wrangler.toml") },
      miniflare: {
        bindings: {
          APP_ENV: "test",
          TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
        },
      },
    })),
  ],
  test: {
    name: "sketch",
    // In projects mode vitest roots a project at its config file unless told otherwise; the
    // worker's wasm imports only resolve with the repo root as the project root.
    root,
    dir: root,
    include: ["test/sketch/**/*.test.ts"],
    setupFiles: [path.join(root, "test/sketch/apply-migrations.ts")],
    // Kernel tests run the float reference over whole images; give them room on one core.
    testTimeout: 60_000,
  },
});
