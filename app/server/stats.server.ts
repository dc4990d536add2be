/**
 * The landing page's live statistics (SPEC section 3, "Stats response"), counted from the tables
 * themselves rather than kept as counters, so they can never drift from the data (DESIGN.md 3).
 */
import { count, countDistinct, eq } from "drizzle-orm";
import type { ShopStats } from "~/lib/api-client";
import type { Database } from "./db.server";
import { books, images } from "./db/schema";

export async function shopStats(db: Database): Promise<ShopStats> {
  // One round trip to D1 for the three counts.
  const [bookCounts, photoCounts] = await db.batch([
    // A visitor with at least one book is a customer: SPEC shows happyFamilies as "unique customers".
    db.select({ booksCreated: count(), happyFamilies: countDistinct(books.sessionId) }).from(books),
    db.select({ photosConverted: count() }).from(images).where(eq(images.processingStatus, "completed")),
  ]);
  return {
    booksCreated: bookCounts[0]?.booksCreated ?? 0,
    happyFamilies: bookCounts[0]?.happyFamilies ?? 0,
    photosConverted: photoCounts[0]?.photosConverted ?? 0,
  };
}
