/**
 * Presigned upload tickets (docs/product.md §6: GET /api/upload-complete, POST /api/upload-file),
 * S3-style but served by ourselves: a ticket is an `uploads` row plus a URL signed with the
 * session secret that accepts one PUT of one image before it expires.
 *
 * The free preview and the create-book page both upload through tickets; both ways in (a PUT
 * of the raw bytes, or the JSON data URL of /api/upload-file) end in `uploadToTicket`, so the
 * checks exist once: signature, expiry, owner, still unused, 15 MB counted on the stream,
 * type by magic bytes, pixel cap, metadata stripped.
 */
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { ACCEPTED_PREVIEW_TYPES, MAX_PHOTOS_PER_BOOK, MAX_UPLOAD_BYTES, UPLOAD_TICKET_TTL_SECONDS } from "~/lib/shop-rules";
import { API_MESSAGES, MESSAGES, PREVIEW_API_MESSAGES } from "~/lib/customer-copy";
import { MIME_TYPES, pixelLimitFor, readImageHeader } from "~/core/images/image-header";
import { stripMetadata } from "~/core/images/strip-metadata";
import { ORIGINALS_PREFIX } from "~/core/contracts/sketch";
import type { Database } from "~/core/db/database.server";
import { BOOK_TYPES, uploads, type BookType, type Upload } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { jsonError, notFound, validationError } from "~/server/http/http.server";
import { displayName } from "~/server/books/images.server";
import { countDailyUse, requesterOf, requireWithinBurst, type Requester } from "~/server/limits/preview-limits.server";
import { requireShopAllowance, type StoredBytesCharge } from "~/server/limits/shop-limits.server";
import { hmacBase64Url, verifyHmacBase64Url } from "~/server/http/signing.server";
import { readBodyUpTo } from "~/server/http/bytes.server";

export const TICKET_ROUTE_PREFIX = "/api/uploads/";
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The query of GET /api/upload-complete. */
export const ticketRequestSchema = z.object({
  count: z
    .string({ required_error: PREVIEW_API_MESSAGES.invalidCount })
    .regex(/^[0-9]{1,3}$/, PREVIEW_API_MESSAGES.invalidCount)
    .transform(Number)
    .pipe(z.number().int().min(1, PREVIEW_API_MESSAGES.invalidCount).max(MAX_PHOTOS_PER_BOOK, PREVIEW_API_MESSAGES.invalidCount)),
  sessionId: z.string().max(100, PREVIEW_API_MESSAGES.invalidSessionId).optional(),
  bookType: z.enum(BOOK_TYPES, { errorMap: () => ({ message: PREVIEW_API_MESSAGES.invalidBookType }) }).optional(),
});
export type TicketRequest = z.infer<typeof ticketRequestSchema>;

export function parseTicketRequest(url: URL): TicketRequest {
  const result = ticketRequestSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export interface Ticket {
  url: string;
  key: string;
}

function keyOf(id: string): string {
  return `${ORIGINALS_PREFIX}${id}`;
}

/** What the signature covers: the key, when it stops, and whose cookie session may use it. */
function ticketMessage(key: string, expires: number, sessionId: string): string {
  return `${key}|${expires}|${sessionId}`;
}

/**
 * Counts `count` tickets against this visitor's limits or throws 429; answers who asked. Every
 * ticket is an uploads row and admits 15 MB into R2: the free preview's (no book type) under its
 * own strict limits (decision 009), a book's photos under the shop's (decision 012), per ticket.
 */
export async function requireTicketAllowance(
  env: Env,
  db: Database,
  request: Request,
  sessionId: string,
  { bookType, count }: Pick<TicketRequest, "bookType" | "count">,
  now: Date,
): Promise<Requester> {
  if (bookType) return requireShopAllowance(env, db, request, sessionId, "upload-ticket", count, now);
  const requester = await requesterOf(env, request, sessionId);
  await requireWithinBurst(env, "free-ticket", requester);
  await countDailyUse(env, db, "free-ticket", requester, now, count);
  return requester;
}

/**
 * Mints `count` tickets for this cookie session as `ticketed` rows (one statement, however many),
 * each with its own signed URL.
 */
export async function mintTickets(
  env: Env,
  db: Database,
  options: { sessionId: string; browserSessionId: string | null; bookType: BookType | null; count: number; clientHash: string; now: Date },
): Promise<Ticket[]> {
  const { sessionId, browserSessionId, bookType, count, clientHash, now } = options;
  const createdAt = Math.floor(now.getTime() / 1000);
  const expires = createdAt + UPLOAD_TICKET_TTL_SECONDS;
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  const keys = ids.map(keyOf);
  // json_each keeps it one statement with six parameters, under D1's 100 per statement.
  await db.run(sql`
    INSERT INTO uploads (key, session_id, browser_session_id, book_type, status, client_hash, expires_at, created_at)
    SELECT value, ${sessionId}, ${browserSessionId}, ${bookType}, 'ticketed', ${clientHash}, ${expires}, ${createdAt}
    FROM json_each(${JSON.stringify(keys)})`);
  return Promise.all(
    ids.map(async (id, i) => {
      const signature = await hmacBase64Url(env, ticketMessage(keys[i], expires, sessionId));
      const query = new URLSearchParams({ expires: String(expires), signature });
      return { url: `${TICKET_ROUTE_PREFIX}${id}?${query}`, key: keys[i] };
    }),
  );
}

/**
 * The unused ticket a URL names, if it is genuine, unexpired and this session's; else a thrown
 * 404 (whatever the reason: a stranger learns nothing about other tickets), or 409 once used.
 */
export async function requireTicket(env: Env, db: Database, sessionId: string, ticketUrl: string, now: Date): Promise<Upload> {
  let url: URL;
  try {
    url = new URL(ticketUrl, "http://ticket.invalid");
  } catch {
    throw notFound();
  }
  const id = url.pathname.startsWith(TICKET_ROUTE_PREFIX) ? url.pathname.slice(TICKET_ROUTE_PREFIX.length) : "";
  const expires = Number(url.searchParams.get("expires"));
  const signature = url.searchParams.get("signature") ?? "";
  if (!UUID_PATTERN.test(id) || !Number.isSafeInteger(expires)) throw notFound();
  const key = keyOf(id);
  if (!(await verifyHmacBase64Url(env, ticketMessage(key, expires, sessionId), signature))) throw notFound();
  const nowSeconds = now.getTime() / 1000;
  if (expires <= nowSeconds) throw notFound();
  const ticket = await db.query.uploads.findFirst({ where: and(eq(uploads.key, key), eq(uploads.sessionId, sessionId)) });
  if (!ticket || (ticket.expiresAt && ticket.expiresAt.getTime() / 1000 <= nowSeconds)) throw notFound();
  if (ticket.status !== "ticketed") throw jsonError(409, PREVIEW_API_MESSAGES.ticketAlreadyUsed);
  return ticket;
}

/**
 * 404 unless this session holds a ticket that has not expired: the part of requireTicket that can
 * run before a body naming the ticket is read (POST /api/upload-file carries it inside the JSON).
 * A used one counts too, so a second upload to it still learns why (409) from requireTicket.
 */
export async function requireUnexpiredTicketOfSession(db: Database, sessionId: string, now: Date): Promise<void> {
  const [ticket] = await db
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(eq(uploads.sessionId, sessionId), gt(uploads.expiresAt, now)))
    .limit(1);
  if (!ticket) throw notFound();
}

/** The file of an upload: its name as the visitor knows it, and its bytes (read on demand, capped). */
export interface UploadSource {
  filename: string | null;
  read(): Promise<Uint8Array>;
}

export interface UploadResult {
  key: string;
  filename: string;
  size: number;
  width: number;
  height: number;
}

/**
 * The one way a file reaches a ticket. The ticket is checked before a byte of the file is
 * read; the row becomes `uploaded` through an UPDATE guarded by `status = 'ticketed'`, so of
 * two racing uploads exactly one wins (the other gets 409) and only the winner writes to R2.
 */
export async function uploadToTicket(
  env: Env,
  db: Database,
  sessionId: string,
  ticketUrl: string,
  source: UploadSource,
  now: Date,
  chargeStoredBytes?: StoredBytesCharge,
): Promise<UploadResult> {
  const ticket = await requireTicket(env, db, sessionId, ticketUrl, now);
  const filename = displayName(source.filename ?? "");
  const bytes = await source.read();
  if (bytes.length === 0) throw jsonError(400, PREVIEW_API_MESSAGES.emptyUpload);
  if (bytes.length > MAX_UPLOAD_BYTES) throw jsonError(413, MESSAGES.previewTooLarge);
  // A create-book photo is kept with its book; a free preview's goes within a day (its own limits).
  if (ticket.bookType && chargeStoredBytes) await chargeStoredBytes(bytes.length);
  const header = readImageHeader(bytes);
  if (!header || !(ACCEPTED_PREVIEW_TYPES as readonly string[]).includes(MIME_TYPES[header.format])) {
    throw jsonError(400, MESSAGES.unsupportedPreviewUpload(filename));
  }
  const pixelLimit = pixelLimitFor(header.format);
  if (header.width * header.height > pixelLimit) {
    throw jsonError(400, API_MESSAGES.imageTooManyPixels(filename, pixelLimit));
  }
  // Family photos carry GPS positions and camera serials: none of it is stored or served.
  const clean = stripMetadata(bytes, header.format);
  const mimeType = MIME_TYPES[header.format];

  const [claimed] = await db
    .update(uploads)
    .set({ status: "uploaded", filename, size: bytes.length, mimeType, width: header.width, height: header.height })
    .where(and(eq(uploads.key, ticket.key), eq(uploads.status, "ticketed")))
    .returning({ key: uploads.key });
  if (!claimed) throw jsonError(409, PREVIEW_API_MESSAGES.ticketAlreadyUsed);
  try {
    await env.IMAGES.put(ticket.key, clean, { httpMetadata: { contentType: mimeType } });
  } catch (error) {
    // Give the ticket back, so the visitor can simply try again.
    await db
      .update(uploads)
      .set({ status: "ticketed", filename: null, size: null, mimeType: null, width: null, height: null })
      .where(eq(uploads.key, ticket.key));
    throw error;
  }
  return { key: ticket.key, filename, size: bytes.length, width: header.width, height: header.height };
}

/** The file of a PUT: the raw body, and the name from `X-Filename` (encodeURIComponent). */
export function putUploadSource(request: Request): UploadSource {
  let filename: string | null = null;
  const header = request.headers.get("X-Filename");
  if (header) {
    try {
      filename = decodeURIComponent(header);
    } catch {
      filename = header;
    }
  }
  return {
    filename,
    read: () => readBodyUpTo(request, MAX_UPLOAD_BYTES, () => jsonError(413, MESSAGES.previewTooLarge)),
  };
}

/**
 * Uploads of this session that are `uploaded` and not yet part of a book, in the order of
 * `keys`; keys that are not such an upload are simply absent. For the create-book checkout.
 */
export async function findUploadedUploads(db: Database, sessionId: string, keys: string[]): Promise<Upload[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select()
    .from(uploads)
    .where(
      and(inArray(uploads.key, keys), eq(uploads.sessionId, sessionId), eq(uploads.status, "uploaded"), isNull(uploads.bookId)),
    );
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return keys.flatMap((key) => {
    const row = byKey.get(key);
    if (!row) return [];
    byKey.delete(key); // a key listed twice is one upload
    return [row];
  });
}
