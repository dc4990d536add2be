/**
 * One vitest project running in workerd (@cloudflare/vitest-pool-workers) for a Worker of ours:
 * its wrangler.toml, the repo's D1 migrations applied before each test file, APP_ENV=test.
 * Shared by test/api (the app Worker) and test/sketch (the sketch Worker).
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import path from "node:path";
import { defineConfig } from "vitest/config";
import type { WorkerOptions } from "miniflare";

export const root = path.resolve(import.meta.dirname, "..");

interface WorkerdProject {
  name: string;
  /** The Worker under test, relative to the repo root. */
  wranglerConfig: string;
  /** More Workers beside it (Miniflare worker options). */
  workers?: WorkerOptions[];
  testTimeout?: number;
}

export function workerdProject({ name, wranglerConfig, workers, testTimeout }: WorkerdProject) {
  return defineConfig({
    // In projects mode vitest roots a project at its config file unless told otherwise; the
    // Workers' wasm imports and the `~` alias resolve from the repo root.
    root,
    resolve: { alias: { "~": path.join(root, "app") }, preserveSymlinks: true },
    plugins: [
      cloudflareTest(async () => ({
        wrangler: { configPath: path.join(root, wranglerConfig) },
        miniflare: {
          bindings: {
            APP_ENV: "test",
            LOCAL_TEST_CHECKOUT: "on",
            // Verifies webhooks only; with no STRIPE_SECRET_KEY the local test checkout stays the provider.
            STRIPE_WEBHOOK_SECRET: "whsec_test_only_secret",
            // The orders desk's local sign-in (/admin/sign-in), which exists only in dev and tests.
            ADMIN_LOCAL_PASSWORD: "test-desk-password",
            TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
          },
          ...(workers ? { workers } : {}),
        },
      })),
    ],
    test: {
      name,
      root,
      dir: root,
      include: [`test/${name}/**/*.test.ts`],
      // Storage is isolated per test file, so each file gets the schema applied.
      setupFiles: [path.join(root, "test/apply-d1-migrations.ts")],
      ...(testTimeout ? { testTimeout } : {}),
    },
  });
}
