/**
 * The level a page is drawn at: its own, else its book's. Shared by the app (the statements that
 * pick pages for the queue read it, so a job carries the level as it is at that moment) and the
 * sketch Worker (which draws a job only while it is still the level the page wants).
 */
import { sql } from "drizzle-orm";
import type { DetailLevel } from "../engine-limits";
import { books, images } from "./schema.server";

export const pageDetailLevel = sql<DetailLevel>`coalesce(${images.detailLevel}, (SELECT ${books.detailLevel} FROM ${books} WHERE ${books.id} = ${images.bookId}))`;
