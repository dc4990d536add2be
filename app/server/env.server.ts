import type { SketchJob, SketcherRpc } from "../../workers/sketch/contract";

/** Bindings and variables of the app Worker (wrangler.toml). */
export interface Env {
  DB: D1Database;
  IMAGES: R2Bucket;
  SKETCH_QUEUE: Queue<SketchJob>;
  SKETCHER: Fetcher & SketcherRpc;
  ASSETS?: Fetcher;
  /** "production" unless wrangler dev or the tests say otherwise. */
  APP_ENV?: string;
  SESSION_SECRET?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
}

export function isLocalEnvironment(env: Pick<Env, "APP_ENV">): boolean {
  return env.APP_ENV === "development" || env.APP_ENV === "test";
}
