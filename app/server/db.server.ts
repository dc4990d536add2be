import { drizzle } from "drizzle-orm/d1";
import * as schema from "./db/schema";

/** A Drizzle client over one D1 binding; cheap to make, so make one per request. */
export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}
export type Database = ReturnType<typeof database>;
export { schema };
