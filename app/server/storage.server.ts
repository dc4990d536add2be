/**
 * Bytes live in R2, keys in D1. Keys are random (never a customer's file name) and every URL the
 * API hands out is built here from a key, so the resource route `/images/*` is the only door in.
 */
import { ORIGINALS_PREFIX } from "../../workers/sketch/contract";
import { FILE_EXTENSIONS, MIME_TYPES, type ImageFormat } from "../../workers/sketch/image-header";

export const IMAGE_ROUTE_PREFIX = "/images/";

export function newOriginalKey(format: ImageFormat): string {
  return `${ORIGINALS_PREFIX}${crypto.randomUUID()}.${FILE_EXTENSIONS[format]}`;
}

export function imageUrl(key: string): string;
export function imageUrl(key: string | null): string | null;
export function imageUrl(key: string | null): string | null {
  return key === null ? null : `${IMAGE_ROUTE_PREFIX}${key}`;
}

export function putImage(bucket: R2Bucket, key: string, bytes: Uint8Array, format: ImageFormat) {
  return bucket.put(key, bytes, { httpMetadata: { contentType: MIME_TYPES[format] } });
}

/** Best-effort cleanup of objects no row points at (a refused or failed upload). */
export async function deleteImages(bucket: R2Bucket, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  try {
    await bucket.delete(keys);
  } catch (error) {
    console.error("could not delete orphaned upload objects", keys, error);
  }
}

const IMMUTABLE_PRIVATE = "private, max-age=31536000, immutable";

/**
 * Streams an object with its stored Content-Type. An original's key is new for every upload and
 * a sketch's key belongs to one original, so the browser may keep either for a year; "private"
 * because it is someone's family photo. Answers 304 to a matching If-None-Match.
 */
export async function serveImage(bucket: R2Bucket, key: string, request: Request): Promise<Response | null> {
  const object = await bucket.get(key, { onlyIf: request.headers });
  if (!object) return null;
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("Content-Type", object.httpMetadata?.contentType ?? "application/octet-stream");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Cache-Control", IMMUTABLE_PRIVATE);
  headers.set("ETag", object.httpEtag);
  if (!("body" in object)) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(object.size));
  if (request.method === "HEAD") {
    await object.body.cancel();
    return new Response(null, { headers });
  }
  return new Response(object.body, { headers });
}
