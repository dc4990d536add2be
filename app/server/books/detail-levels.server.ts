/**
 * Redrawing pages (docs/product.md §5.8, decision 016): a book's detail level, a page's own level,
 * and trying a failed photo again.
 *
 * Like /process, the UPDATE that picks the pages to redraw is the one that flips them back to
 * `pending` and marks them queued, so a double click or a second tab never picks a page twice
 * for one change. The page keeps its old sketch (sketch_key) until the new one is stored, so the
 * preview shows it, dimmed, while it is redrawn.
 */
import { and, eq, getTableColumns, inArray, isNull, ne, not, sql, type SQL } from "drizzle-orm";
import { API_MESSAGES, DETAIL_LEVEL_MESSAGES } from "~/lib/customer-copy";
import { type DetailLevel } from "~/core/engine-limits";
import { ENGINE_VERSION } from "~/core/contracts/sketch";
import { pageDetailLevel, sendPickedPages } from "./books.server";
import type { Database } from "~/core/db/database.server";
import { books, images, type Book, type Image } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { jsonError } from "~/server/http/http.server";
import type { OwnedImage } from "./images.server";
import { bookPagesEditable, pagesLock, requirePagesEditable } from "~/server/payments/paid-pages.server";

/**
 * The page's book is neither paid for nor under an open checkout (decision 018); checked inside each
 * statement, so a payment cannot slip in between.
 */
const bookIsEditable = (now: Date) => bookPagesEditable(images.bookId, now);

/**
 * Pages with a sketch drawn or on its way. A failed page waits for "Try again"; a page never sent
 * to the queue is drawn at whatever level it has when /process sends it.
 */
const hasOrGetsSketch = and(
  ne(images.processingStatus, "failed"),
  not(and(eq(images.processingStatus, "pending"), isNull(images.queuedAt))!),
)!;

/**
 * What picking a page for the queue writes, in the statement that picks it. A customer's redraw
 * or retry is a new drawing: its send is the first of its own, so the stuck-image sweep gives it
 * its full number of tries (MAX_PROCESS_ATTEMPTS) however often the level was changed before.
 */
function requeued(now: Date) {
  return {
    processingStatus: "pending" as const,
    queuedAt: now,
    processAttempts: 1,
    error: null,
  };
}

/** The updated row and the level it is drawn at, as the statement left them. */
const withDrawnLevel = { ...getTableColumns(images), detail: pageDetailLevel };

/**
 * Sets the book's level and redraws the pages that follow it, only if the level really changes
 * (pages with their own level keep it). One D1 batch (a transaction): the pick reads the book's
 * old level before the second statement writes the new one.
 */
export async function setBookDetailLevel(
  env: Env,
  db: Database,
  book: Book,
  detailLevel: DetailLevel,
  now = new Date(),
): Promise<{ detailLevel: DetailLevel; redrawing: number }> {
  await requirePagesEditable(db, book.id, now);
  const oldLevel = sql`(SELECT ${books.detailLevel} FROM ${books} WHERE ${books.id} = ${images.bookId})`;
  const [picked, updated] = await db.batch([
    db
      .update(images)
      .set(requeued(now))
      .where(
        and(
          eq(images.bookId, book.id),
          isNull(images.detailLevel),
          hasOrGetsSketch,
          sql`${oldLevel} != ${detailLevel}`,
          bookIsEditable(now),
        ),
      )
      .returning({ id: images.id }),
    db
      .update(books)
      .set({ detailLevel })
      .where(and(eq(books.id, book.id), bookPagesEditable(book.id, now)))
      .returning({ id: books.id }),
  ]);
  if (updated.length === 0) {
    // It was editable a moment ago; a checkout opened or a payment landed in between.
    await requirePagesEditable(db, book.id, now);
    throw jsonError(409, API_MESSAGES.bookAlreadyOrdered);
  }
  await sendPickedPages(env, db, picked.map((page) => ({ id: page.id, detail: detailLevel })));
  return { detailLevel, redrawing: picked.length };
}

/**
 * Sets one page's own level (null: follow the book) and redraws it if the level it is drawn at
 * changes. Choosing the level it already has redraws nothing.
 */
export async function setPageDetailLevel(
  env: Env,
  db: Database,
  image: OwnedImage,
  detailLevel: DetailLevel | null,
  now = new Date(),
): Promise<Image> {
  const bookLevel = sql`(SELECT ${books.detailLevel} FROM ${books} WHERE ${books.id} = ${images.bookId})`;
  const newLevel: SQL = detailLevel === null ? bookLevel : sql`${detailLevel}`;
  const [picked, updated] = await db.batch([
    db
      .update(images)
      .set(requeued(now))
      .where(and(eq(images.id, image.id), hasOrGetsSketch, sql`${pageDetailLevel} != ${newLevel}`, bookIsEditable(now)))
      .returning({ id: images.id }),
    db
      .update(images)
      .set({ detailLevel })
      .where(and(eq(images.id, image.id), bookIsEditable(now)))
      .returning(withDrawnLevel),
  ]);
  const [row] = updated;
  // The image is the visitor's (requireImage), so only a locked book writes nothing.
  if (!row) {
    await requirePagesEditable(db, image.bookId, now);
    throw jsonError(409, API_MESSAGES.bookAlreadyOrdered);
  }
  await sendPickedPages(env, db, picked.map((page) => ({ id: page.id, detail: row.detail })));
  return row;
}

/** A failed photo goes back into the queue at the level it is drawn at (409 unless it failed). */
export async function retryFailedImage(env: Env, db: Database, image: OwnedImage, now = new Date()): Promise<Image> {
  const [picked] = await db
    .update(images)
    .set(requeued(now))
    .where(and(eq(images.id, image.id), eq(images.processingStatus, "failed"), bookIsEditable(now)))
    .returning(withDrawnLevel);
  if (!picked) {
    await requirePagesEditable(db, image.bookId, now);
    throw jsonError(409, DETAIL_LEVEL_MESSAGES.onlyFailedRetried);
  }
  await sendPickedPages(env, db, [{ id: picked.id, detail: picked.detail }]);
  return picked;
}

/**
 * What the preview page needs beyond loadVisitorBook: the book's level, whether its pages can
 * change, and if not while a checkout is open, why (the page says so instead of offering changes).
 */
export async function bookDetailSettings(
  db: Database,
  bookId: number,
  now = new Date(),
): Promise<{ detailLevel: DetailLevel; editable: boolean; lockedWhilePaying: boolean }> {
  const [book] = await db.select({ detailLevel: books.detailLevel }).from(books).where(eq(books.id, bookId));
  const lock = await pagesLock(db, bookId, now);
  return { detailLevel: book.detailLevel, editable: lock === null, lockedWhilePaying: lock === "paying" };
}

/**
 * A finished page whose sketch an older engine drew (its key names another ENGINE_VERSION,
 * app/core/contracts/sketch.ts). Its quality score is on that engine's scale, not today's, so
 * "Select High Quality Only" could keep a grey pencil page that today's score would drop.
 */
const drawnByOlderEngine = and(
  eq(images.processingStatus, "completed"),
  sql`${images.sketchKey} NOT LIKE ${`%.${ENGINE_VERSION}-%`}`,
)!;

/**
 * Redraws, with today's engine, the pages of an unpaid book that an older engine drew: called
 * when the customer opens the book's preview, so the pages they are choosing from, and their
 * scores, are today's (a paid book's pages, or those of an open checkout, are the ones the
 * customer approved and stay as they are). One statement picks and requeues them, so a reload queues nothing twice; each page keeps
 * its old sketch, dimmed, until the new one is stored, as on a level change. Returns how many.
 */
export async function redrawOlderEnginePages(env: Env, db: Database, bookId: number, now = new Date()): Promise<number> {
  const picked = await db
    .update(images)
    .set(requeued(now))
    .where(and(eq(images.bookId, bookId), drawnByOlderEngine, bookIsEditable(now)))
    .returning({ id: images.id, detail: pageDetailLevel });
  try {
    await sendPickedPages(env, db, picked);
  } catch (error) {
    // The preview still opens: the pages go back to finished with their old sketch, and the
    // next visit tries again.
    console.error("redrawing older-engine pages failed", bookId, error);
    await db.update(images).set({ processingStatus: "completed" }).where(inArray(images.id, picked.map((page) => page.id)));
    return 0;
  }
  return picked.length;
}

