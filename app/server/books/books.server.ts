/** Books of the visitor's session: creating, finding (404 for anyone else's), processing (docs/product.md §5.7, §5.8, §7.1). */
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { BookDto, BookProgress } from "~/lib/api-types";
import type { BookFormInput } from "~/lib/schemas";
import { API_MESSAGES } from "~/lib/customer-copy";
import { type DetailLevel } from "~/core/engine-limits";
import type { SketchJob } from "~/core/contracts/sketch";
import type { Database } from "~/core/db/database.server";
import { books, images, type Book } from "~/core/db/schema.server";
import { pageDetailLevel } from "~/core/db/page-detail-level.server";
import type { Env } from "~/server/http/env.server";
import { jsonError, notFound } from "~/server/http/http.server";

export function bookDto(book: Book): BookDto {
  return {
    id: book.id,
    title: book.title,
    personalMessage: book.personalMessage,
    status: book.status,
    totalPages: book.totalPages,
    detailLevel: book.detailLevel,
    createdAt: book.createdAt.toISOString(),
  };
}

export async function createBook(db: Database, sessionId: string, input: BookFormInput): Promise<Book> {
  const [book] = await db
    .insert(books)
    .values({ sessionId, title: input.title, personalMessage: input.personalMessage ?? null })
    .returning();
  return book;
}

/** The book if it belongs to this session; otherwise a thrown 404. */
export async function requireBook(db: Database, sessionId: string, bookId: number): Promise<Book> {
  const book = await db.query.books.findFirst({
    where: and(eq(books.id, bookId), eq(books.sessionId, sessionId)),
  });
  if (!book) throw notFound();
  return book;
}

/** A paid book is at the printer: its photos and selection no longer change (409). */
export function requireEditableBook(book: Pick<Book, "status">): void {
  if (book.status === "ordered") throw jsonError(409, API_MESSAGES.bookAlreadyOrdered);
}

/**
 * Queues every image still `pending` and not yet queued. The UPDATE that marks them queued is
 * the statement that picks them, so pressing the button twice (or two tabs) queues nothing twice.
 */
export async function startProcessing(env: Env, db: Database, book: Book): Promise<{ queued: number }> {
  const queued = await queuePendingImages(env, db, book.id);
  if (queued === 0 && (await db.$count(images, eq(images.bookId, book.id))) === 0) {
    throw jsonError(400, API_MESSAGES.bookHasNoImages);
  }
  if (queued > 0) await markBookProcessing(db, book.id);
  return { queued };
}

async function markBookProcessing(db: Database, bookId: number): Promise<void> {
  await db
    .update(books)
    .set({ status: "processing" })
    .where(and(eq(books.id, bookId), inArray(books.status, ["draft", "ready"])));
}

/**
 * What the preview page does when it is opened: the photos of the book never sent to be drawn
 * (uploaded, then the upload page left without Next, and the preview reached from the history
 * or a bookmark) are sent now, as /process would send them. Sends only photos never sent, so a
 * reload sends nothing twice; a queue that refuses leaves them for the next visit (or Next).
 * Returns how many were sent.
 */
export async function drawWaitingPhotos(env: Env, db: Database, bookId: number): Promise<number> {
  try {
    const queued = await queuePendingImages(env, db, bookId);
    if (queued > 0) await markBookProcessing(db, bookId);
    return queued;
  } catch (error) {
    console.error("sending a book's waiting photos to be drawn failed", bookId, error);
    return 0;
  }
}

export { pageDetailLevel };

/** Picks and queues a book's unqueued pending images; returns how many. If sending fails they are unpicked. */
export async function queuePendingImages(env: Env, db: Database, bookId: number, now = new Date()): Promise<number> {
  const picked = await db
    .update(images)
    // Every send counts toward MAX_PROCESS_ATTEMPTS (the stuck-image sweep's cap).
    .set({ queuedAt: now, processAttempts: sql`${images.processAttempts} + 1` })
    .where(and(eq(images.bookId, bookId), eq(images.processingStatus, "pending"), isNull(images.queuedAt)))
    .returning({ id: images.id, detail: pageDetailLevel });
  await sendPickedPages(env, db, picked);
  return picked.length;
}

/**
 * One sketch job per page just picked (queued_at set by the statement that picked it). If the
 * queue refuses, the pages are unpicked, so the next /process sends them, and the error goes on.
 */
export async function sendPickedPages(env: Env, db: Database, picked: { id: number; detail: DetailLevel }[]): Promise<void> {
  if (picked.length === 0) return;
  try {
    await env.SKETCH_QUEUE.sendBatch(sketchJobs(picked));
  } catch (error) {
    await db.update(images).set({ queuedAt: null }).where(inArray(images.id, picked.map((page) => page.id)));
    throw error;
  }
}

/** The queue messages for pages and the levels they are drawn at. */
export function sketchJobs(pages: { id: number; detail: DetailLevel }[]): MessageSendRequest<SketchJob>[] {
  return pages.map((page) => ({ body: { imageId: page.id, detail: page.detail } }));
}

export async function bookProgress(db: Database, book: Book): Promise<BookProgress> {
  const rows = await db
    .select({ processingStatus: images.processingStatus, n: count() })
    .from(images)
    .where(eq(images.bookId, book.id))
    .groupBy(images.processingStatus);
  let processedImages = 0;
  let totalImages = 0;
  for (const row of rows) {
    totalImages += row.n;
    if (row.processingStatus === "completed" || row.processingStatus === "failed") processedImages += row.n;
  }
  return { processedImages, totalImages };
}
