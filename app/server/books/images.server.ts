/**
 * A book's images: the upload (validated on the stream, all or nothing), the list, selection,
 * and the ownership check behind `/images/<key>` (docs/product.md §5.7, §5.8; docs/design.md §4).
 */
import { and, asc, count, eq, inArray, or, sql } from "drizzle-orm";
import { ACCEPTED_BOOK_UPLOAD_TYPES, MAX_PHOTOS_PER_BOOK, MAX_UPLOAD_BYTES } from "~/lib/shop-rules";
import { API_MESSAGES, MESSAGES } from "~/lib/customer-copy";
import { type DetailLevel } from "~/core/engine-limits";
import type { ImageDto } from "~/lib/api-types";
import { isSafeText } from "~/lib/text-rules";
import { MIME_TYPES, pixelLimitFor, readImageHeader, type ImageHeader } from "~/core/images/image-header";
import { sketchKeyLevel } from "~/core/contracts/sketch";
import { stripMetadata } from "~/core/images/strip-metadata";
import type { Database } from "~/core/db/database.server";
import { books, images, uploads, type Book, type Image } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import type { StoredBytesCharge } from "~/server/limits/shop-limits.server";
import { jsonError, notFound } from "~/server/http/http.server";
import { drainBody, joinChunks, REFUSED_BODY_DRAIN_BYTES } from "~/server/http/bytes.server";
import { MalformedMultipartError, multipartBoundary, readMultipart } from "~/server/http/multipart.server";
import { bookPagesEditable, requirePagesEditable } from "~/server/payments/paid-pages.server";
import { deleteImages, imageUrl, newOriginalKey, putImage } from "~/server/uploads/storage.server";

export const UPLOAD_FIELD = "images";

/** An image of the visitor's own book, with the book's level (what a page without its own follows). */
export type OwnedImage = Image & { bookDetailLevel: DetailLevel };

export function imageDto(image: Image, bookDetailLevel: DetailLevel): ImageDto {
  return {
    id: image.id,
    bookId: image.bookId,
    originalFilename: image.originalFilename,
    originalUrl: imageUrl(image.originalKey),
    sketchUrl: imageUrl(image.sketchKey),
    isSelected: image.isSelected,
    processingStatus: image.processingStatus,
    qualityScore: image.qualityScore,
    fileSize: image.fileSize,
    width: image.width,
    height: image.height,
    // Only a failed image has a reason to show; the writers (sketch consumer, processing sweep)
    // store customer-facing text only, never D1/R2/codec messages (docs/product.md §9).
    error: image.processingStatus === "failed" ? image.error : null,
    detailLevel: image.detailLevel ?? bookDetailLevel,
    ownDetailLevel: image.detailLevel,
    sketchDetailLevel: sketchKeyLevel(image.sketchKey),
    createdAt: image.createdAt.toISOString(),
  };
}

export function listImages(db: Database, bookId: number): Promise<Image[]> {
  return db.select().from(images).where(eq(images.bookId, bookId)).orderBy(asc(images.id));
}

/** Multipart framing and a few small text fields on top of the files themselves. */
const MULTIPART_OVERHEAD_PER_FILE = 16 * 1024;
const MAX_NON_FILE_BYTES = 64 * 1024;

interface StoredOriginal {
  key: string;
  filename: string;
  size: number;
  header: ImageHeader;
}

/**
 * Stores the files of a multipart request (field `images`, repeated) as new `pending` images.
 *
 * All or nothing: each file is checked as it streams in (count, size counted byte by byte,
 * type by magic bytes, pixel cap) and only a valid file is put in R2 - one at a time, so memory
 * stays near one file (15 MB), not the whole request. Any refusal deletes what this request put
 * and writes no row; the rows are then written by one conditional statement that inserts all of
 * them or none, so a concurrent upload cannot push the book past the limit either, nor add pages
 * to a book whose checkout opened meanwhile (decision 018).
 */
export async function addImages(
  env: Env,
  db: Database,
  book: Book,
  request: Request,
  chargeStoredBytes: StoredBytesCharge,
  now = new Date(),
): Promise<Image[]> {
  await requirePagesEditable(db, book.id, now);
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!request.body) throw jsonError(400, API_MESSAGES.noImagesUploaded);
  if (!boundary) throw jsonError(400, API_MESSAGES.unreadableUpload);

  const [{ existing }] = await db.select({ existing: count() }).from(images).where(eq(images.bookId, book.id));
  const slots = MAX_PHOTOS_PER_BOOK - existing;
  // A body already declared bigger than every free slot filled to the limit is refused unread.
  const declaredLength = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (declaredLength > Math.max(slots, 1) * (MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_PER_FILE)) {
    throw jsonError(413, API_MESSAGES.uploadTooLarge);
  }

  const stored: StoredOriginal[] = [];
  try {
    let file: { filename: string; chunks: Uint8Array[]; size: number } | null = null;
    let nonFileBytes = 0;
    for await (const event of readMultipart(request.body, boundary)) {
      if (event.type === "part") {
        const { name, filename } = event.headers;
        file = name === UPLOAD_FIELD && filename !== null ? { filename: displayName(filename), chunks: [], size: 0 } : null;
        if (file && filename !== "" && stored.length >= slots) {
          throw jsonError(400, MESSAGES.tooManyImagesPerBook);
        }
      } else if (event.type === "data") {
        if (!file) {
          nonFileBytes += event.bytes.length;
          if (nonFileBytes > MAX_NON_FILE_BYTES) throw jsonError(413, API_MESSAGES.uploadTooLarge);
          continue;
        }
        file.size += event.bytes.length;
        if (file.size > MAX_UPLOAD_BYTES) throw jsonError(413, MESSAGES.fileTooLarge(file.filename));
        file.chunks.push(event.bytes);
      } else if (file) {
        const { filename, chunks, size } = file;
        file = null;
        if (size === 0 && filename === "") continue; // a file input the visitor left empty
        stored.push(await storeOriginal(env, filename, joinChunks(chunks, size)));
      }
    }
    // The epilogue after the closing boundary (at least a CRLF) is read too. A body left unread
    // when the answer goes makes the runtime close the connection with unread bytes in it, and
    // that reset can destroy the answer on its way (`npm run load` saw it: 503s under wrangler dev).
    await drainBody(request.body, MAX_NON_FILE_BYTES);
    if (stored.length === 0) throw jsonError(400, API_MESSAGES.noImagesUploaded);
    // Counted once the request's photos are all in: refused, they are deleted below and no row is written.
    await chargeStoredBytes(stored.reduce((total, original) => total + original.size, 0));

    const inserted = await insertImagesIfRoom(db, book.id, stored, now);
    if (!inserted) {
      await requirePagesEditable(db, book.id, now);
      throw jsonError(400, MESSAGES.tooManyImagesPerBook);
    }
    return await db
      .select()
      .from(images)
      .where(inArray(images.originalKey, stored.map((original) => original.key)))
      .orderBy(asc(images.id));
  } catch (error) {
    await drainBody(request.body, REFUSED_BODY_DRAIN_BYTES);
    await deleteImages(env.IMAGES, stored.map((original) => original.key));
    if (error instanceof MalformedMultipartError) throw jsonError(400, API_MESSAGES.unreadableUpload);
    throw error;
  }
}

async function storeOriginal(env: Env, filename: string, bytes: Uint8Array): Promise<StoredOriginal> {
  const header = readImageHeader(bytes);
  if (!header || !(ACCEPTED_BOOK_UPLOAD_TYPES as readonly string[]).includes(MIME_TYPES[header.format])) {
    throw jsonError(400, MESSAGES.unsupportedBookUpload(filename));
  }
  const pixelLimit = pixelLimitFor(header.format);
  if (header.width * header.height > pixelLimit) {
    throw jsonError(400, API_MESSAGES.imageTooManyPixels(filename, pixelLimit));
  }
  // Family photos carry GPS positions and camera serials: none of it is stored or served.
  const clean = stripMetadata(bytes, header.format);
  const key = newOriginalKey(header.format);
  await putImage(env.IMAGES, key, clean, header.format);
  // fileSize stays what the visitor uploaded: it is their file's size they recognise.
  return { key, filename, size: bytes.length, header };
}

/**
 * One INSERT ... SELECT over a JSON array (D1 binds at most 100 parameters, 50 rows need more),
 * guarded by the book's current count and its pages' lock: SQLite runs a statement atomically,
 * so either every row goes in with room to spare or none does.
 */
async function insertImagesIfRoom(db: Database, bookId: number, originals: StoredOriginal[], now: Date): Promise<boolean> {
  const rows = JSON.stringify(
    originals.map((original) => ({
      filename: original.filename,
      key: original.key,
      size: original.size,
      mimeType: MIME_TYPES[original.header.format],
      width: original.header.width,
      height: original.header.height,
    })),
  );
  const result = await db.run(sql`
    INSERT INTO images (book_id, original_filename, original_key, file_size, mime_type, width, height)
    SELECT ${bookId}, json_extract(value, '$.filename'), json_extract(value, '$.key'),
           json_extract(value, '$.size'), json_extract(value, '$.mimeType'),
           json_extract(value, '$.width'), json_extract(value, '$.height')
    FROM json_each(${rows})
    WHERE (SELECT count(*) FROM images WHERE book_id = ${bookId}) + ${originals.length} <= ${MAX_PHOTOS_PER_BOOK}
      AND ${bookPagesEditable(bookId, now)}
    ORDER BY json_each.key`);
  return result.meta.changes === originals.length;
}

/** The file name as the visitor knows it: no folders (old browsers send a path), bounded. */
export function displayName(filename: string): string {
  const base = filename.slice(Math.max(filename.lastIndexOf("/"), filename.lastIndexOf("\\")) + 1).trim();
  const name = (base || "image").slice(0, 255);
  if (!isSafeText(name)) {
    // Named without the offending characters, so the message itself is safe to show.
    throw jsonError(400, MESSAGES.unsafeFileName(name.replace(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, "")));
  }
  return name;
}

/** The image if its book belongs to this session; otherwise a thrown 404. */
export async function requireImage(db: Database, sessionId: string, imageId: number): Promise<OwnedImage> {
  const [row] = await db
    .select({ image: images, bookDetailLevel: books.detailLevel })
    .from(images)
    .innerJoin(books, eq(books.id, images.bookId))
    .where(and(eq(images.id, imageId), eq(books.sessionId, sessionId)));
  if (!row) throw notFound();
  return { ...row.image, bookDetailLevel: row.bookDetailLevel };
}

/**
 * docs/product.md §7.2: only completed images can be selected or deselected, and only while the book
 * is neither paid for nor under an open checkout (else 409).
 */
export async function setImageSelection(db: Database, image: Image, isSelected: boolean, now = new Date()): Promise<Image> {
  // Conditional in the same statement, so a concurrent change cannot slip between check and write.
  const [updated] = await db
    .update(images)
    .set({ isSelected })
    .where(
      and(
        eq(images.id, image.id),
        eq(images.processingStatus, "completed"),
        bookPagesEditable(images.bookId, now),
      ),
    )
    .returning();
  if (updated) return updated;
  await requirePagesEditable(db, image.bookId, now);
  throw jsonError(409, API_MESSAGES.onlyCompletedSelectable);
}

/** Whether an R2 key is an original or sketch of this session's books or free-preview uploads. */
export async function sessionOwnsImageKey(db: Database, sessionId: string, key: string): Promise<boolean> {
  const [ofBook] = await db
    .select({ id: images.id })
    .from(images)
    .innerJoin(books, eq(books.id, images.bookId))
    .where(and(or(eq(images.originalKey, key), eq(images.sketchKey, key)), eq(books.sessionId, sessionId)))
    .limit(1);
  if (ofBook) return true;
  const [ofUpload] = await db
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(or(eq(uploads.key, key), eq(uploads.sketchKey, key)), eq(uploads.sessionId, sessionId)))
    .limit(1);
  return Boolean(ofUpload);
}
