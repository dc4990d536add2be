/**
 * Request bodies read off the wire: always through a cap, counted on the stream (a chunked body
 * declares no length), and a refused body drained only a little (docs/decisions/012).
 */
import { MB } from "~/lib/shop-rules";

/**
 * What a refused upload may still send that we read and discard (decision 012), so a
 * well-behaved client's keep-alive connection stays usable; past it the body is cut off.
 */
export const REFUSED_BODY_DRAIN_BYTES = 16 * MB;

/** One contiguous copy of chunks read off a stream. */
export function joinChunks(chunks: Uint8Array[], totalLength: number): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(totalLength);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

/**
 * The whole body of `request`, refused with `tooLarge` unread if it declares more than `limit`
 * bytes, and the moment it passes `limit` if it does not say (chunked) or says less than it sends.
 */
export async function readBodyUpTo(request: Request, limit: number, tooLarge: () => Response): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get("Content-Length")) > limit) throw tooLarge();
  return readStreamUpTo(request.body, limit, tooLarge);
}

/** A request body read whole, refused with `tooLarge` the moment it passes `limit` bytes. */
export async function readStreamUpTo(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  tooLarge: () => Response,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    length += read.value.length;
    if (length > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  return joinChunks(chunks, length);
}

/**
 * Reads and discards what is left of a request body we refused half-way, up to `limit` bytes,
 * so that the client's keep-alive connection is ready for its next request; past the limit the
 * rest is cancelled (a client sending that much after a refusal is not worth the bandwidth).
 */
export async function drainBody(body: ReadableStream<Uint8Array> | null, limit: number): Promise<void> {
  if (!body || body.locked) return;
  const reader = body.getReader();
  let read = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      read += chunk.value.length;
      if (read > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to keep usable.
  }
}
