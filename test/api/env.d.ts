import type { Env as AppEnv } from "~/server/http/env.server";

// `env` from cloudflare:test is typed as Cloudflare.Env.
declare global {
  namespace Cloudflare {
    interface Env extends AppEnv {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
