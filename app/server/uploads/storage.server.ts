/**
 * Bytes live in R2, keys in D1. Keys are random (never a customer's file name) and every URL the
 * API hands out is built here from a key, so the resource route `/images/*` is the only door in.
 */
import { ORIGINALS_PREFIX } from "~/core/contracts/sketch";
import { FILE_EXTENSIONS, MIME_TYPES, type ImageFormat } from "~/core/images/image-header";

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
 * Streams an object with its stored Content-Type, shown in the page (never downloaded as
 * something else). An original's key is new for every upload and a sketch's key belongs to one
 * original, so the browser may keep either for a year; "private" because it is someone's family
 * photo. A matching If-None-Match answers 304; a failed If-Match or If-Unmodified-Since 412.
 */
export async function serveImage(bucket: R2Bucket, key: string, request: Request): Promise<Response | null> {
  const object = await bucket.get(key, { onlyIf: request.headers });
  if (!object) return null;
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("Content-Type", object.httpMetadata?.contentType ?? "application/octet-stream");
  headers.set("Content-Disposition", "inline");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Cache-Control", IMMUTABLE_PRIVATE);
  headers.set("ETag", object.httpEtag);
  if (!("body" in object)) {
    // R2 answers a failed precondition without a body, whichever header failed.
    const status = failedWritePrecondition(request.headers, object) ? 412 : 304;
    return new Response(null, { status, headers });
  }
  headers.set("Content-Length", String(object.size));
  if (request.method === "HEAD") {
    await object.body.cancel();
    return new Response(null, { headers });
  }
  return new Response(object.body, { headers });
}

/** If-Match / If-Unmodified-Since failed (412), as opposed to a fresh If-None-Match (304). */
function failedWritePrecondition(headers: Headers, object: R2Object): boolean {
  const ifMatch = headers.get("If-Match");
  if (ifMatch) {
    const tags = ifMatch.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
    if (!tags.includes("*") && !tags.includes(object.httpEtag) && !tags.includes(`"${object.etag}"`)) return true;
  }
  const ifUnmodifiedSince = headers.get("If-Unmodified-Since");
  if (ifUnmodifiedSince) {
    const since = Date.parse(ifUnmodifiedSince);
    if (Number.isFinite(since) && object.uploaded.getTime() > since + 999) return true;
  }
  return false;
}
