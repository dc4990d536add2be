import { defineConfig } from "vitest/config";

// One `vitest run` for every kind of test (`npm test`, README): two workerd projects (the app
// Worker's API, the sketch Worker), and Node projects for the browser tests against `wrangler
// dev`, the scripts and the architecture checks.
export default defineConfig({
  test: {
    projects: ["test/*/vitest.config.ts"],
  },
});
