/**
 * The free preview's conversion (docs/product.md §6: POST /api/convert-image, and the older
 * POST /api/convert-sketch) and the debug view of the caller's last conversion.
 *
 * Conversion is synchronous: the sketch Worker's RPC `convert` (service binding SKETCHER)
 * turns the uploaded original into a page while the visitor waits. Every attempt counts
 * against the burst and daily limits first (preview-limits.server.ts), so a script cannot
 * use the shop as a free sketch service.
 */
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { PREVIEW_API_MESSAGES, PREVIEW_MESSAGES } from "~/lib/customer-copy";
import { debugKeysFor, type ConvertOutcome } from "~/core/contracts/sketch";
import type { Database } from "~/core/db/database.server";
import { uploads, type Upload } from "~/core/db/schema.server";
import { isLocalEnvironment, type Env } from "~/server/http/env.server";
import { jsonError, notFound } from "~/server/http/http.server";
import { countDailyUse, requireWithinBurst, type Requester } from "~/server/limits/preview-limits.server";
import { imageUrl, serveImage } from "~/server/uploads/storage.server";

/** The debug view is for developers: on locally, off in production unless DEBUG_VIEW = "on". */
export function debugViewEnabled(env: Env): boolean {
  return isLocalEnvironment(env) || env.DEBUG_VIEW === "on";
}

/** An upload of this session that is not part of a book, else a thrown 404. */
async function requirePreviewUpload(db: Database, sessionId: string, key: string): Promise<Upload> {
  const upload = await db.query.uploads.findFirst({
    where: and(eq(uploads.key, key), eq(uploads.sessionId, sessionId), isNull(uploads.bookId)),
  });
  if (!upload) throw notFound();
  return upload;
}

/**
 * Converts the uploaded photo `key` and answers the sketch's URL. A photo already converted is
 * answered again without counting; a failure marks the upload `failed` with its reason (422).
 */
export async function convertUpload(
  env: Env,
  db: Database,
  requester: Requester,
  key: string,
  now: Date,
): Promise<{ convertedImageUrl: string }> {
  const upload = await requirePreviewUpload(db, requester.sessionId, key);
  if (upload.status === "converted" && upload.sketchKey) return { convertedImageUrl: imageUrl(upload.sketchKey) };
  if (upload.status === "ticketed") throw jsonError(409, PREVIEW_API_MESSAGES.notUploadedYet);

  await requireWithinBurst(env, "free-conversion", requester);
  await countDailyUse(env, db, "free-conversion", requester, now);

  const debug = debugViewEnabled(env);
  let outcome: ConvertOutcome;
  try {
    outcome = await env.SKETCHER.convert(upload.key, { debug });
  } catch (error) {
    // The call itself failed (the sketch Worker was killed, a lost connection): the platform's
    // words are for the log, the customer gets ours.
    console.error(`free preview: converting ${upload.key} failed in the platform`, error);
    outcome = { ok: false, reason: PREVIEW_MESSAGES.conversionErrorDefault };
  }
  if (!outcome.ok) {
    await db.update(uploads).set({ status: "failed", error: outcome.reason }).where(eq(uploads.key, upload.key));
    throw jsonError(422, outcome.reason);
  }
  const { result } = outcome;
  await db
    .update(uploads)
    .set({
      status: "converted",
      sketchKey: result.sketchKey,
      debugKey: result.debug ? upload.key : null,
      error: null,
      convertedAt: now,
    })
    .where(eq(uploads.key, upload.key));
  return { convertedImageUrl: imageUrl(result.sketchKey) };
}

/** The caller's latest free-preview conversion that has debug planes. */
async function latestDebugConversion(db: Database, sessionId: string): Promise<Upload | null> {
  const [upload] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.sessionId, sessionId), isNull(uploads.bookId), eq(uploads.status, "converted"), isNotNull(uploads.debugKey)))
    .orderBy(desc(uploads.convertedAt))
    .limit(1);
  return upload ?? null;
}

/** GET /api/debug-files: `{ latest }`, the timestamp naming the caller's last debug images. */
export async function latestDebugTimestamp(env: Env, db: Database, sessionId: string): Promise<number | null> {
  if (!debugViewEnabled(env)) throw notFound();
  const upload = await latestDebugConversion(db, sessionId);
  return upload?.convertedAt?.getTime() ?? null;
}

export const DEBUG_PLANES = ["image", "mask", "sketch"] as const;
export type DebugPlane = (typeof DEBUG_PLANES)[number];
const DEBUG_FILE_PATTERN = /^debug-(image|mask|sketch)-([0-9]{1,16})\.png$/;

/** `/debug/debug-{plane}-{timestamp}.png` of the caller's own conversion, else a thrown 404. */
export async function serveDebugFile(env: Env, db: Database, sessionId: string, file: string, request: Request): Promise<Response> {
  if (!debugViewEnabled(env)) throw notFound();
  const match = DEBUG_FILE_PATTERN.exec(file);
  if (!match) throw notFound();
  const plane = match[1] as DebugPlane;
  const convertedAt = new Date(Number(match[2]));
  const upload = await db.query.uploads.findFirst({
    where: and(eq(uploads.sessionId, sessionId), eq(uploads.convertedAt, convertedAt), isNotNull(uploads.debugKey)),
  });
  if (!upload?.debugKey || !upload.sketchKey) throw notFound();
  const planes = debugKeysFor(upload.debugKey);
  const key = plane === "image" ? planes.imageKey : plane === "mask" ? planes.maskKey : upload.sketchKey;
  return (await serveImage(env.IMAGES, key, request)) ?? notFound();
}
