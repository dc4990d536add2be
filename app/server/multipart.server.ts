/**
 * A streaming multipart/form-data reader. `request.formData()` buffers the whole body before we
 * can look at it, so it can neither count a file's bytes as they arrive nor stop reading the
 * moment a file is too big; this reader hands out each part's bytes as they come off the wire.
 */

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
          const headers = parsePartHeaders(decoder.decode(buffer.subarray(2, Math.max(2, end))));
          buffer = buffer.subarray(end + CRLF_CRLF.length);
          state = "body";
          yield { type: "part", headers };
          progressed = true;
        }
      }
      if (state === "done") return;
      const { value, done } = await reader.read();
      if (done) throw new MalformedMultipartError("body ended before the closing boundary");
      buffer = concat(buffer, value);
    }
  } finally {
    // Hands the rest of the body back: a refusal half-way drains it (drainBody) so the client's
    // connection stays usable; cancelling would leave its unread bytes in the way of its next request.
    reader.releaseLock();
  }
}

function parsePartHeaders(text: string): PartHeaders {
  let disposition = "";
  let contentType: string | null = null;
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value;
  }
  if (!/^form-data\b/i.test(disposition)) throw new MalformedMultipartError("part is not form-data");
  const params = dispositionParams(disposition);
  const name = params.get("name");
  if (name === undefined) throw new MalformedMultipartError("part has no name");
  const extended = params.get("filename*");
  const filename = extended !== undefined ? decodeExtendedValue(extended) : (params.get("filename") ?? null);
  return { name, filename, contentType };
}

function dispositionParams(disposition: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let match = pattern.exec(disposition); match; match = pattern.exec(disposition)) {
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : match[3].trim();
    params.set(match[1].toLowerCase(), value);
  }
  return params;
}

/** RFC 5987 `UTF-8''percent-encoded`; falls back to the raw text if it is not that. */
function decodeExtendedValue(value: string): string {
  const match = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(value);
  if (!match) return value;
  try {
    return decodeURIComponent(match[2]);
  } catch {
    return match[2];
  }
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
