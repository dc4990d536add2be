/** Books of the visitor's session: creating, finding (404 for anyone else's), processing. */
import { and, count, eq, inArray } from "drizzle-orm";
import type { BookDto, BookProgress } from "~/lib/api-client";
import type { BookFormInput } from "~/lib/schemas";
import { API_MESSAGES } from "~/lib/constants";
import type { SketchJob } from "../../workers/sketch/contract";
import type { Database } from "./db.server";
import { books, images, type Book } from "./db/schema";
import type { Env } from "./env.server";
import { jsonError, notFound } from "./http.server";

export function bookDto(book: Book): BookDto {
  return {
    id: book.id,
    title: book.title,
    personalMessage: book.personalMessage,
    status: book.status,
    totalPages: book.totalPages,
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
 * Queues one job per image still `pending`. The sketch Worker moves each image on from there
 * and is idempotent, so pressing the button twice costs a little work and no harm.
 */
export async function startProcessing(env: Env, db: Database, book: Book): Promise<{ queued: number }> {
  const rows = await db
    .select({ id: images.id, processingStatus: images.processingStatus })
    .from(images)
    .where(eq(images.bookId, book.id))
    .orderBy(images.id);
  if (rows.length === 0) throw jsonError(400, API_MESSAGES.bookHasNoImages);
  const pending = rows.filter((row) => row.processingStatus === "pending");
  if (pending.length === 0) return { queued: 0 };
  // Queue first: if sending fails the book is still a draft and the request can be retried.
  await env.SKETCH_QUEUE.sendBatch(pending.map((row) => ({ body: { imageId: row.id } satisfies SketchJob })));
  await db
    .update(books)
    .set({ status: "processing" })
    .where(and(eq(books.id, book.id), inArray(books.status, ["draft", "ready"])));
  return { queued: pending.length };
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
