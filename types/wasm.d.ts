declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}

// TrueType fonts embedded in the print PDFs (workers/sketch/pdf/fonts.ts): bundled as Data
// modules (wrangler.toml [[rules]]), so the bytes arrive as an ArrayBuffer. Declared by path:
// Remix types every `*.ttf` import as an asset URL, and the longest matching prefix wins.
declare module "../../../node_modules/@expo-google-fonts/lato/*" {
  const bytes: ArrayBuffer;
  export default bytes;
}
