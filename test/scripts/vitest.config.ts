import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

// The dev scripts' own pieces, in plain Node (no Worker, no wrangler).
export default defineConfig({
  root,
  test: {
    name: "scripts",
    dir: root,
    include: ["test/scripts/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
  },
});
