/// <reference types="vite/client" />
// Vite turns `?inline` imports into data: URLs; the tests load the shared photo fixtures this
// way because workerd has no file system.
declare module "*?inline" {
  const dataUrl: string;
  export default dataUrl;
}
