// Vite inlines `?inline` imports as a base64 data URL (the photo fixtures of pipeline.test.ts).
declare module "*?inline" {
  const dataUrl: string;
  export default dataUrl;
}

// Vite imports `?raw` as the file's text (the wrangler.toml files of deploy-config.test.ts).
declare module "*?raw" {
  const text: string;
  export default text;
}
