/**
 * The body of POST /api/upload-file (docs/product.md §6): JSON `{ imageData, presignedUrl, filename }`
 * where imageData is a base64 data URL of up to 15 MB of image (about 21 MB of text).
 *
 * JSON.parse on such a body would hold it three times over as strings (the text, the parsed
 * value, then the binary string of atob) next to the bytes: near 80 MB of a Worker's 128 MB. So
 * the top-level object is walked over the raw bytes instead; the small fields are parsed as
 * JSON, and the data URL is decoded from base64 straight out of the body into the file's bytes.
 */
import { z } from "zod";
import { API_MESSAGES, MESSAGES, PREVIEW_API_MESSAGES } from "~/lib/customer-copy";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILE_BODY_BYTES } from "~/lib/shop-rules";
import { jsonError, validationError, requireJsonContentType } from "~/server/http/http.server";
import { readBodyUpTo } from "~/server/http/bytes.server";
import type { UploadSource } from "~/server/uploads/upload-tickets.server";

/** POST /api/upload-file: the fields other than imageData, which is checked as bytes below. */
export const uploadFileFieldsSchema = z.object({
  presignedUrl: z.string().min(1).max(2000),
  filename: z.string().max(1000).optional(),
});

/** POST /api/convert-sketch (the older free-preview call): just the file. */
export const convertSketchFieldsSchema = z.object({
  filename: z.string().max(1000).optional(),
});

/** Larger than any real ticket URL or file name: anything bigger here is not our client. */
const MAX_SMALL_FIELD_BYTES = 8 * 1024;
const DATA_URL_PATTERN = /^data:[a-z0-9.+/-]*(;[a-z0-9=.+-]*)*;base64,/i;

export interface DataUrlUpload<Fields> {
  fields: Fields;
  source: UploadSource;
}

/** A JSON body carrying `imageData` (a data URL) and small fields checked by `schema`. */
export async function readDataUrlUpload<Fields extends { filename?: string }>(
  request: Request,
  schema: z.ZodType<Fields, z.ZodTypeDef, unknown>,
): Promise<DataUrlUpload<Fields>> {
  const tooLarge = () => jsonError(413, MESSAGES.previewTooLarge);
  requireJsonContentType(request);
  const body = await readBodyUpTo(request, MAX_UPLOAD_FILE_BODY_BYTES, tooLarge);
  const fields = topLevelFields(body);
  if (!fields) throw jsonError(400, API_MESSAGES.invalidJson);

  const small: Record<string, unknown> = {};
  let imageData: { start: number; end: number } | null = null;
  for (const [name, range] of fields) {
    if (name === "imageData") {
      imageData = range;
      continue;
    }
    if (range.end - range.start > MAX_SMALL_FIELD_BYTES) throw jsonError(400, API_MESSAGES.invalidJson);
    // The walk above only delimits a value; `tru` or `01` is delimited but is no JSON: the
    // sender's mistake, a 400, never a 500.
    try {
      small[name] = JSON.parse(new TextDecoder().decode(body.subarray(range.start, range.end)));
    } catch {
      throw jsonError(400, API_MESSAGES.invalidJson);
    }
  }
  const parsed = schema.safeParse(small);
  if (!parsed.success) throw validationError(parsed.error);
  if (!imageData || body[imageData.start] !== QUOTE) throw jsonError(400, PREVIEW_API_MESSAGES.invalidDataUrl);

  // Inside the quotes; a data URL has nothing JSON would escape.
  const start = imageData.start + 1;
  const end = imageData.end - 1;
  const prefix = new TextDecoder().decode(body.subarray(start, Math.min(end, start + 200)));
  const match = DATA_URL_PATTERN.exec(prefix);
  if (!match) throw jsonError(400, PREVIEW_API_MESSAGES.invalidDataUrl);
  const base64Start = start + match[0].length;
  return {
    fields: parsed.data,
    source: {
      filename: parsed.data.filename ?? null,
      async read() {
        const bytes = decodeBase64(body, base64Start, end);
        if (!bytes) throw jsonError(400, PREVIEW_API_MESSAGES.invalidDataUrl);
        if (bytes.length > MAX_UPLOAD_BYTES) throw tooLarge();
        return bytes;
      },
    },
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(byte: number) {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * The members of a top-level JSON object as byte ranges of their values (names decoded), or
 * null when the body is not one object. Values are only delimited here; the caller parses them.
 */
export function topLevelFields(bytes: Uint8Array): Map<string, { start: number; end: number }> | null {
  const fields = new Map<string, { start: number; end: number }>();
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== 0x7b) return null; // {
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === 0x7d) return skipSpace(bytes, i + 1) === bytes.length ? fields : null;
  for (;;) {
    if (bytes[i] !== QUOTE) return null;
    const nameEnd = stringEnd(bytes, i);
    if (nameEnd < 0) return null;
    let name: unknown;
    try {
      name = JSON.parse(new TextDecoder().decode(bytes.subarray(i, nameEnd)));
    } catch {
      return null;
    }
    i = skipSpace(bytes, nameEnd);
    if (bytes[i] !== 0x3a) return null; // :
    const start = skipSpace(bytes, i + 1);
    const end = bytes[start] === QUOTE ? stringEnd(bytes, start) : valueEnd(bytes, start);
    if (end < 0 || end === start) return null;
    fields.set(String(name), { start, end });
    i = skipSpace(bytes, end);
    if (bytes[i] === 0x2c) {
      i = skipSpace(bytes, i + 1);
      continue;
    }
    if (bytes[i] === 0x7d) return skipSpace(bytes, i + 1) === bytes.length ? fields : null;
    return null;
  }
}

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

/** Index just past the closing quote of the string opening at `i`, or -1. */
function stringEnd(bytes: Uint8Array, i: number): number {
  for (let j = i + 1; j < bytes.length; j++) {
    const byte = bytes[j];
    if (byte === BACKSLASH) j++;
    else if (byte === QUOTE) return j + 1;
  }
  return -1;
}

/** Index just past a non-string value (number, literal, array or object) starting at `i`, or -1. */
function valueEnd(bytes: Uint8Array, i: number): number {
  let depth = 0;
  for (let j = i; j < bytes.length; j++) {
    const byte = bytes[j];
    if (byte === QUOTE) {
      j = stringEnd(bytes, j) - 1;
      if (j < 0) return -1;
    } else if (byte === 0x5b || byte === 0x7b) depth++;
    else if (byte === 0x5d || byte === 0x7d) {
      if (depth === 0) return j;
      depth--;
      if (depth === 0) return j + 1;
    } else if (depth === 0 && (byte === 0x2c || isSpace(byte))) return j;
  }
  return depth === 0 ? bytes.length : -1;
}

const BASE64_VALUES = (() => {
  const table = new Int16Array(256).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/** Standard base64 (with or without padding) of bytes[start, end) into a new array, or null. */
export function decodeBase64(bytes: Uint8Array, start: number, end: number): Uint8Array<ArrayBuffer> | null {
  while (end > start && bytes[end - 1] === 0x3d) end--; // "=" padding
  const length = end - start;
  if (length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((length * 3) / 4));
  let o = 0;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    const a = BASE64_VALUES[bytes[i]];
    const b = BASE64_VALUES[bytes[i + 1]];
    const c = BASE64_VALUES[bytes[i + 2]];
    const d = BASE64_VALUES[bytes[i + 3]];
    if ((a | b | c | d) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  const rest = end - i;
  if (rest > 0) {
    const a = BASE64_VALUES[bytes[i]];
    const b = BASE64_VALUES[bytes[i + 1]];
    const c = rest === 3 ? BASE64_VALUES[bytes[i + 2]] : 0;
    if ((a | b | c) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6);
    out[o++] = n >> 16;
    if (rest === 3) out[o++] = (n >> 8) & 255;
  }
  return out;
}
