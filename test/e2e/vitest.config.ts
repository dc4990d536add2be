import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

// Browser tests: plain Node drives Debian's Chromium against a real `wrangler dev` of both Workers.
export default defineConfig({
  root,
  test: {
    name: "e2e",
    dir: root,
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: [path.join(root, "test/e2e/global-setup.ts")],
    // One wrangler dev for the whole project; the files share it, so they run one after another.
    fileParallelism: false,
    // Sketching real photos in local workerd takes a while; a test never asserts on time.
    testTimeout: 240_000,
    hookTimeout: 180_000,
  },
});
