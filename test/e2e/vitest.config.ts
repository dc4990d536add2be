import { readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The print PDF's fonts (workers/sketch/pdf/fonts.ts) are Data modules in the Worker (bytes, by
 * wrangler's [[rules]]); Vite would make a `.ttf` import an asset URL. Here too they are the bytes.
 */
const fontsAsBytes: Plugin = {
  name: "ttf-as-bytes",
  enforce: "pre",
  load(id) {
    if (!id.endsWith(".ttf")) return null;
    const base64 = readFileSync(id).toString("base64");
    return `export default Uint8Array.from(atob("${base64}"), (c) => c.charCodeAt(0)).buffer;`;
  },
};

// Browser tests: plain Node drives Debian's Chromium against a real `wrangler dev` of both Workers.
export default defineConfig({
  root,
  plugins: [fontsAsBytes],
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
