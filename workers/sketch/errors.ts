/**
 * A failure that no retry can fix (not an image, corrupt or truncated data, too many pixels,
 * no such image). The consumer marks the image failed with `message` and acks, instead of
 * spending retries on it. Messages are shown to the customer, so they say what to do.
 */
export class PermanentSketchError extends Error {
  override name = "PermanentSketchError";
}

/** Said wherever a JPEG turns out to end before its image does (header walk or entropy decoder). */
export const TRUNCATED_JPEG_REASON = "The JPEG file is incomplete (truncated); please upload it again.";

export function isPermanent(error: unknown): error is PermanentSketchError {
  return error instanceof PermanentSketchError;
}

/** A short, single-line reason for images.error and logs. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim().slice(0, 500) || "Unknown error";
}
