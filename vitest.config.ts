import { defineConfig } from "vitest/config";

// One `vitest run` for every kind of test (TOOLCHAIN.md): two workerd projects (the app Worker's
// API, the sketch Worker) and one Node project for browser tests against `wrangler dev`.
export default defineConfig({
  test: {
    projects: ["test/*/vitest.config.ts"],
  },
});
