// Vite inlines `?inline` imports as a base64 data URL (the photo fixtures of pipeline.test.ts).
declare module "*?inline" {
  const dataUrl: string;
  export default dataUrl;
}
