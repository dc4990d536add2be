import type { SketchJob, SketcherRpc } from "~/core/contracts/sketch";
import type { PrintJob, PrintSubmission } from "~/core/contracts/print";

/** Bindings and variables of the app Worker (wrangler.toml). */
export interface Env {
  DB: D1Database;
  IMAGES: R2Bucket;
  SKETCH_QUEUE: Queue<SketchJob>;
  /** A paid order's print-ready PDF is built by the sketch Worker (workers/sketch/pdf). */
  PRINT_QUEUE: Queue<PrintJob>;
  /** A paid order whose PDF exists goes to the print partner (docs/decisions/028); consumed here. */
  PRINT_SUBMIT_QUEUE: Queue<PrintSubmission>;
  SKETCHER: Fetcher & SketcherRpc;
  ASSETS?: Fetcher;
  /** "production" unless wrangler dev or the tests say otherwise. */
  APP_ENV?: string;
  SESSION_SECRET?: string;
  /** Comma-separated secrets being rotated out: they still verify cookies, SESSION_SECRET signs. */
  SESSION_SECRET_PREVIOUS?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /**
   * "on" switches on the free local test checkout when no Stripe key is set. It is refused
   * outside development and tests, so one wrong variable in a deploy cannot give books away.
   */
  LOCAL_TEST_CHECKOUT?: string;
  /** Burst limit of the free preview (wrangler.toml [[ratelimits]]); keys are ours to choose. */
  PREVIEW_LIMITER?: RateLimit;
  /** Bursts of the shop's own actions: books, quotes, uploads, processing (decision 012). */
  API_LIMITER?: RateLimit;
  /** "on" shows the debug view of the last conversion in production (always on locally). */
  DEBUG_VIEW?: string;
  /**
   * Overrides every per-address daily cap (free preview and SHOP_DAILY_LIMITS): under `npm run
   * dev`, the browser tests and `npm run load`, every visitor is one address (127.0.0.1).
   */
  DAILY_LIMIT_PER_ADDRESS?: string;
  /**
   * Order emails (app/server/orders/order-emails.server.ts) are sent through Resend when this secret is
   * set together with EMAIL_FROM; without them they stay in the local outbox that /admin shows.
   */
  RESEND_API_KEY?: string;
  /** The sender, e.g. `Coloring Book Shop <orders@shop.example>` (a domain verified at Resend). */
  EMAIL_FROM?: string;
  /**
   * The shop's public address (`https://shop.example`), for links in emails: they are written
   * outside any request (payment webhook, cron), so they cannot take the request's origin.
   * Needed in production; locally it falls back to LOCAL_SHOP_ORIGIN.
   */
  PUBLIC_ORIGIN?: string;
  /**
   * The orders desk (/admin) sits behind Cloudflare Access in production. ACCESS_TEAM_DOMAIN is
   * the Zero Trust team domain ("yourshop.cloudflareaccess.com"): its certs verify the
   * Cf-Access-Jwt-Assertion header and it is the token's issuer. Unset, nobody reaches /admin.
   */
  ACCESS_TEAM_DOMAIN?: string;
  /** The Access application's audience (AUD) tag: a token for another application is refused. */
  ACCESS_AUD?: string;
  /**
   * The password of /admin/sign-in, which exists only in development and tests (set by
   * `npm run dev` and the tests); in production it is ignored and the page answers 404.
   */
  ADMIN_LOCAL_PASSWORD?: string;
  /**
   * The Lulu Print API (docs/decisions/028): with both set, every paid order goes to Lulu by
   * itself. LULU_API_BASE picks the sandbox (https://api.sandbox.lulu.com) or production (default).
   */
  LULU_CLIENT_KEY?: string;
  LULU_CLIENT_SECRET?: string;
  LULU_API_BASE?: string;
  /** The product printed; defaults to the coil-bound letter book (lulu.server.ts). */
  LULU_POD_PACKAGE_ID?: string;
  /** MAIL (default), PRIORITY_MAIL, GROUND, EXPEDITED, EXPRESS ... */
  LULU_SHIPPING_LEVEL?: string;
  /** The shop's contact for the printer; the phone goes to the carrier (our form asks for none). */
  PRINT_CONTACT_EMAIL?: string;
  PRINT_CONTACT_PHONE?: string;
  /**
   * "on" in development and tests, with no Lulu keys: the local test printer takes the jobs and
   * the desk's Test printer page plays the partner's part. Refused in production.
   */
  LOCAL_TEST_PRINTER?: string;
}

export function isLocalEnvironment(env: Pick<Env, "APP_ENV">): boolean {
  return env.APP_ENV === "development" || env.APP_ENV === "test";
}
