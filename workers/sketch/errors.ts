import { PROCESSING_FAILURES } from "../../app/core/engine-messages";

/**
 * A failure that no retry can fix (not an image, corrupt or truncated data, too many pixels,
 * no such image). The consumer marks the image failed with `message` and acks, instead of
 * spending retries on it. Messages are shown to the customer, so they say what to do and never
 * quote a codec or storage; an internal detail worth logging goes in `cause`.
 */
export class PermanentSketchError extends Error {
  override name = "PermanentSketchError";
}

/** Said wherever a JPEG turns out to end before its image does (header walk or entropy decoder). */
export const TRUNCATED_JPEG_REASON = "The JPEG file is incomplete (truncated); please upload it again.";

export function isPermanent(error: unknown): error is PermanentSketchError {
  return error instanceof PermanentSketchError;
}

/** A short, single-line description for the LOG (internal: may quote D1, R2 or a codec). */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause !== undefined ? ` (cause: ${describeError(error.cause)})` : "";
  return `${text.replace(/\s+/g, " ").trim() || "Unknown error"}${cause}`.slice(0, 500);
}

/**
 * What images.error may say, for the customer: a permanent error's own message (written for
 * them), anything else (a bug, D1, R2) the generic reason. Internal text never gets through.
 */
export function customerReason(error: unknown): string {
  if (!isPermanent(error)) return PROCESSING_FAILURES.gaveUp;
  return error.message.replace(/\s+/g, " ").trim().slice(0, 500) || PROCESSING_FAILURES.gaveUp;
}
