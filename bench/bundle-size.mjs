// `npm run bench:bundle` (and the start of `npm run bench`): what the landing page `/` makes a
// browser download, as the last `npm run build` left it in public/build. Builds nothing.
//
// The route's files come from the Remix manifest (public/build/manifest-*.js): the manifest
// itself, the client entry, the root route and routes/_index with their imports, followed
// through every static `import ... from "/build/..."` inside those files. The stylesheet is
// whatever /build/_assets/*.css those modules refer to. Each file is gzipped (node:zlib, level 9)
// on its own, as a server sends it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The landing page's JavaScript must stay under this, gzipped (the landing page's budget, docs/design.md §10). */
export const LANDING_JS_BUDGET_BYTES = 150 * 1024;
const LANDING_ROUTES = ["root", "routes/_index"];

/** The newest manifest of public/build, parsed. */
function readManifest(buildDir) {
  const manifests = readdirSync(buildDir)
    .filter((name) => /^manifest-.*\.js$/.test(name))
    .map((name) => join(buildDir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (manifests.length === 0) throw new Error(`no manifest in ${buildDir}: run \`npm run build\` first`);
  const source = readFileSync(manifests[0], "utf8");
  const json = source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1);
  return { path: manifests[0], manifest: JSON.parse(json) };
}

export function measureLandingBundle(projectRoot = root) {
  const publicDir = join(projectRoot, "public");
  const { path: manifestPath, manifest } = readManifest(join(publicDir, "build"));
  const toFile = (url) => join(publicDir, url);

  const pending = [`/build/${manifestPath.split("/").pop()}`, manifest.entry.module, ...manifest.entry.imports];
  for (const id of LANDING_ROUTES) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`the manifest has no route ${id}`);
    pending.push(route.module, ...(route.imports ?? []));
  }
  const js = new Set();
  const css = new Set();
  while (pending.length > 0) {
    const url = pending.pop();
    if (js.has(url)) continue;
    js.add(url);
    const text = readFileSync(toFile(url), "utf8");
    for (const [, imported] of text.matchAll(/(?:from|import)\s*"(\/build\/[^"]+\.js)"/g)) pending.push(imported);
    for (const [stylesheet] of text.matchAll(/\/build\/_assets\/[^"']+\.css/g)) css.add(stylesheet);
  }
  if (manifest.cssBundleHref) css.add(manifest.cssBundleHref);

  const measure = (url) => {
    const bytes = readFileSync(toFile(url));
    return { url, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const jsFiles = [...js].map(measure).sort((a, b) => b.gzip - a.gzip);
  const cssFiles = [...css].filter((url) => existsSync(toFile(url))).map(measure);
  const sum = (files, key) => files.reduce((total, file) => total + file[key], 0);
  return {
    // A development build's manifest names the live-reload (HMR) runtime.
    development: Boolean(manifest.hmr),
    jsFiles,
    cssFiles,
    js: { bytes: sum(jsFiles, "bytes"), gzip: sum(jsFiles, "gzip") },
    css: { bytes: sum(cssFiles, "bytes"), gzip: sum(cssFiles, "gzip") },
  };
}

export function printLandingBundle(projectRoot = root) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`.padStart(10);
  let result;
  try {
    result = measureLandingBundle(projectRoot);
  } catch (error) {
    console.log(`Landing page bundle: not measured (${error.message})`);
    return null;
  }
  const { jsFiles, cssFiles, js, css, development } = result;
  if (development) {
    // `npm run dev`'s `remix watch` writes unminified files with the live-reload runtime into the
    // same folder: their size says nothing about what a customer downloads.
    console.log("Landing page bundle: not measured (public/build holds a development build from `npm run dev`; run `npm run build` first)");
    return null;
  }
  console.log("Landing page `/` as the browser downloads it (public/build of the last `npm run build`; gzip level 9)");
  console.log(`${"file".padEnd(48)}${"raw".padStart(10)}${"gzip".padStart(10)}`);
  for (const file of [...jsFiles, ...cssFiles]) console.log(`${file.url.padEnd(48)}${kb(file.bytes)}${kb(file.gzip)}`);
  console.log(`${`JavaScript, ${jsFiles.length} files`.padEnd(48)}${kb(js.bytes)}${kb(js.gzip)}`);
  console.log(`${`CSS, ${cssFiles.length} file${cssFiles.length === 1 ? "" : "s"}`.padEnd(48)}${kb(css.bytes)}${kb(css.gzip)}`);
  const verdict = js.gzip <= LANDING_JS_BUDGET_BYTES ? "within" : "OVER";
  console.log(`JavaScript ${verdict} the ${LANDING_JS_BUDGET_BYTES / 1024} KB gzip budget (${((100 * js.gzip) / LANDING_JS_BUDGET_BYTES).toFixed(0)} %)`);
  return result;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) printLandingBundle();
