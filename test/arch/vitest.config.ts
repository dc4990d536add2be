import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

// The import rules of docs/architecture.md, checked in plain Node over the source files.
export default defineConfig({
  root,
  test: {
    name: "arch",
    dir: root,
    include: ["test/arch/**/*.test.ts"],
    environment: "node",
  },
});
