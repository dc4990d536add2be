// esbuild plugin for the bench scripts: a `.wasm` import (as the Worker writes it for wrangler)
// becomes a compiled WebAssembly.Module read from node_modules, the same shape workerd gives.
import { resolve } from "node:path";

export const wasmAsModule = {
  name: "wasm-as-module",
  setup(builder) {
    builder.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: resolve(args.resolveDir, args.path), namespace: "wasm" }));
    builder.onLoad({ filter: /.*/, namespace: "wasm" }, (args) => ({
      contents: `import { readFileSync } from "node:fs"; export default new WebAssembly.Module(readFileSync(${JSON.stringify(args.path)}));`,
      loader: "js",
    }));
  },
};

/**
 * Bundles Worker code for Node the way every bench script needs it (ESM, Node 20, `.wasm`
 * imports as compiled modules, `.ttf` imports as their bytes, as the sketch Worker's Data rule
 * in workers/sketch/wrangler.toml gives them); `options` names what goes in and where it goes.
 */
export async function bundleWorkerCode(options) {
  const { build } = await import("esbuild");
  await build({ bundle: true, format: "esm", platform: "node", target: "node20", plugins: [wasmAsModule], loader: { ".ttf": "binary" }, logLevel: "warning", ...options });
}
