import { applyD1Migrations, env } from "cloudflare:test";

// Storage is isolated per test file; migrations are idempotent, so each file gets the schema.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
