/**
 * A streaming multipart/form-data reader (decisions 006 and 022). `request.formData()` buffers the
 * whole body, and @remix-run/multipart-parser hands out a part only once its whole body is read,
 * so neither can refuse a photo past the book's limit at its headers, a text field past 64 KB on
 * its 64th KB, or name the file that passed 15 MB. This reader hands out each part's headers first
 * and its bytes as they come off the wire; what a part's headers say is read by the library.
 */
import { MultipartPart, type MultipartHeaders } from "@remix-run/multipart-parser";

export interface PartHeaders {
  name: string;
  /** null for a plain field; "" for a file input the browser sent without a file. */
  filename: string | null;
  contentType: string | null;
}

export type MultipartEvent =
  | { type: "part"; headers: PartHeaders }
  | { type: "data"; bytes: Uint8Array }
  | { type: "end" };

export class MalformedMultipartError extends Error {}

const MAX_HEADER_BYTES = 16 * 1024;
const CR = 13;
const LF = 10;
const DASH = 45;
const CRLF = new Uint8Array([CR, LF]);
const CRLF_CRLF = new Uint8Array([CR, LF, CR, LF]);

/** The boundary of a multipart/form-data Content-Type, or null if it is not one. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : null;
}

/**
 * Yields `part` (headers), then its `data` chunks, then `end`, for every part in order. The data
 * chunks are views into buffers that are never written again, so they may be kept as they are.
 * Throws MalformedMultipartError for a body that is not well-formed multipart.
 */
export async function* readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
): AsyncGenerator<MultipartEvent, void, undefined> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  // Every delimiter is CRLF "--" boundary; the first one has no CRLF before it, so prepend one.
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const reader = body.getReader();
  let buffer: Uint8Array = CRLF;
  type State = "preamble" | "after-delimiter" | "headers" | "body" | "done";
  let state = "preamble" as State;

  try {
    for (;;) {
      let progressed = true;
      while (progressed && state !== "done") {
        progressed = false;
        if (state === "preamble" || state === "body") {
          const at = indexOf(buffer, delimiter);
          const keep = delimiter.length - 1; // a delimiter may straddle two chunks
          if (at === -1) {
            if (buffer.length > keep) {
              if (state === "body") yield { type: "data", bytes: buffer.subarray(0, buffer.length - keep) };
              buffer = buffer.subarray(buffer.length - keep);
            }
            break;
          }
          if (state === "body") {
            if (at > 0) yield { type: "data", bytes: buffer.subarray(0, at) };
            yield { type: "end" };
          }
          buffer = buffer.subarray(at + delimiter.length);
          state = "after-delimiter";
          progressed = true;
        } else if (state === "after-delimiter") {
          if (buffer.length < 2) break;
          if (buffer[0] === DASH && buffer[1] === DASH) {
            state = "done";
            break;
          }
          // Transport padding (spaces, tabs) may follow a delimiter before its line break.
          const lineEnd = indexOf(buffer, CRLF);
          if (lineEnd === -1) {
            if (buffer.length > 256) throw new MalformedMultipartError("bad delimiter line");
            break;
          }
          if (!/^[ \t]*$/.test(decoder.decode(buffer.subarray(0, lineEnd)))) {
            throw new MalformedMultipartError("bad delimiter line");
          }
          buffer = buffer.subarray(lineEnd); // keep the CRLF: headers are searched as CRLF ... CRLF CRLF
          state = "headers";
          progressed = true;
        } else if (state === "headers") {
          const end = indexOf(buffer, CRLF_CRLF);
          if (end === -1) {
            if (buffer.length > MAX_HEADER_BYTES) throw new MalformedMultipartError("part headers too long");
            break;
          }
          const headers = parsePartHeaders(buffer.subarray(2, Math.max(2, end)));
          buffer = buffer.subarray(end + CRLF_CRLF.length);
          state = "body";
          yield { type: "part", headers };
          progressed = true;
        }
      }
      if (state === "done") return;
      const { value, done } = await reader.read();
      if (done) throw new MalformedMultipartError("body ended before the closing boundary");
      // Between delimiters only the last few bytes are held back, in case a delimiter starts in
      // them. Unless one does, they are settled by looking at the seam alone, and the new chunk is
      // then used as it came: copying every chunk onto them cost a second 15 MB per photo (022).
      const keep = delimiter.length - 1;
      if ((state === "preamble" || state === "body") && buffer.length > 0 && value.length >= keep) {
        const at = indexOf(concat(buffer, value.subarray(0, keep)), delimiter);
        if (at === -1 || at >= buffer.length) {
          if (state === "body") yield { type: "data", bytes: buffer };
          buffer = value;
          continue;
        }
      }
      buffer = concat(buffer, value);
    }
  } finally {
    // Hands the rest of the body back: a refusal half-way drains it (drainBody) so the client's
    // connection stays usable; cancelling would leave its unread bytes in the way of its next request.
    reader.releaseLock();
  }
}

/**
 * What a part's header block says, read by the library (RFC 7578 and RFC 6266: quoted names,
 * `filename*` preferred over `filename`). The library reads headers only as UTF-8, which is what
 * browsers send; other bytes are not a form we made, so they are refused as unreadable.
 */
function parsePartHeaders(headerBytes: Uint8Array): PartHeaders {
  const part = new MultipartPart(headerBytes, []);
  let headers: MultipartHeaders;
  try {
    headers = part.headers;
  } catch {
    throw new MalformedMultipartError("part headers are not UTF-8");
  }
  if (!/^form-data\b/i.test(headers["content-disposition"] ?? "")) throw new MalformedMultipartError("part is not form-data");
  const name = part.name;
  if (name === undefined) throw new MalformedMultipartError("part has no name");
  return { name, filename: part.filename ?? null, contentType: headers["content-type"] ?? null };
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  const last = haystack.length - needle.length;
  for (let i = haystack.indexOf(needle[0]); i !== -1 && i <= last; i = haystack.indexOf(needle[0], i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
