/**
 * The D1 database through Drizzle (docs/design.md §3): the factory both Workers call with their
 * DB binding, and the one helper that reads D1's errors.
 */
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema.server";

/** A Drizzle client over one D1 binding; cheap to make, so make one per request. */
export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}
export type Database = ReturnType<typeof database>;
export { schema };

/** Whether a D1 error (however Drizzle wrapped it) is a unique-index refusal naming `column`. */
export function isUniqueViolation(error: unknown, column: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const message = current instanceof Error ? current.message : String(current);
    if (message.includes("UNIQUE constraint failed") && message.includes(column)) return true;
  }
  return false;
}
