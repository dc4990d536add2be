import type { Env } from "~/server/http/env.server";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext };
    /** The signed-cookie visitor id that owns books, images, quotes and orders. */
    sessionId: string;
    /** This response's Content-Security-Policy nonce, for Remix's own inline scripts. */
    cspNonce: string;
  }
}
