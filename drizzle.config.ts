import { defineConfig } from "drizzle-kit";

// One migrations folder: drizzle-kit writes it, wrangler applies it, the tests read it.
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/core/db/schema.server.ts",
  out: "./migrations",
});
