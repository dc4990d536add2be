/**
 * A small PDF reader for the tests, written against ISO 32000-1 (not against our writer's
 * habits where it can help it): the trailer and cross-reference table, every object checked to
 * start where the table says, pages with their boxes, images with their size and stream bytes,
 * and the text shown by content streams. Enough to check a print file without a PDF library.
 */
import { expect } from "vitest";

export interface ParsedImage {
  objectNumber: number;
  width: number;
  height: number;
  dictionary: string;
  data: Uint8Array;
}

export interface ParsedPage {
  objectNumber: number;
  mediaBox: number[];
  trimBox: number[] | null;
  content: string;
  image: ParsedImage | null;
}

export interface ParsedPdf {
  version: string;
  objects: Map<number, { offset: number; body: string }>;
  pages: ParsedPage[];
  /** Count of objects whose dictionary says /Type /Page (not /Pages). */
  pageObjectCount: number;
  trailer: string;
  info: string | null;
}

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

export function parsePdf(bytes: Uint8Array): ParsedPdf {
  // latin1 keeps one character per byte, so string offsets are byte offsets.
  const text = latin1(bytes);
  const header = /^%PDF-(\d\.\d)/.exec(text);
  expect(header, "PDF header").not.toBeNull();
  expect(text.trimEnd().endsWith("%%EOF"), "ends with %%EOF").toBe(true);

  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text);
  expect(startxref, "startxref").not.toBeNull();
  const xrefOffset = Number(startxref![1]);
  expect(text.startsWith("xref", xrefOffset), "startxref points at the xref table").toBe(true);

  // One subsection (0 N) of 20-byte entries, as written by a single-pass writer.
  const subsection = /^xref\r?\n(\d+) (\d+)\r?\n/.exec(text.slice(xrefOffset));
  expect(subsection, "xref subsection header").not.toBeNull();
  expect(Number(subsection![1])).toBe(0);
  const count = Number(subsection![2]);
  const entriesAt = xrefOffset + subsection![0].length;
  const objects = new Map<number, { offset: number; body: string }>();
  for (let n = 0; n < count; n++) {
    const entry = text.slice(entriesAt + n * 20, entriesAt + (n + 1) * 20);
    const match = /^(\d{10}) (\d{5}) ([nf])[ \r][\r\n]$/.exec(entry);
    expect(match, `xref entry ${n}: ${JSON.stringify(entry)}`).not.toBeNull();
    if (n === 0) {
      expect(match![3]).toBe("f");
      continue;
    }
    expect(match![3], `object ${n} in use`).toBe("n");
    const offset = Number(match![1]);
    expect(text.startsWith(`${n} 0 obj`, offset), `object ${n} starts at its xref offset ${offset}`).toBe(true);
    const end = text.indexOf("endobj", offset);
    expect(end).toBeGreaterThan(offset);
    objects.set(n, { offset, body: text.slice(offset + `${n} 0 obj`.length, end) });
  }
  const trailerStart = text.indexOf("trailer", entriesAt + (count - 1) * 20);
  const trailer = text.slice(trailerStart, text.indexOf("startxref", trailerStart));
  expect(Number(/\/Size (\d+)/.exec(trailer)?.[1])).toBe(count);

  const streamOf = (n: number): Uint8Array => {
    const { offset, body } = objects.get(n)!;
    const length = Number(/\/Length (\d+)/.exec(body)?.[1]);
    const keyword = body.indexOf("stream");
    expect(keyword, `object ${n} is a stream`).toBeGreaterThan(0);
    // "stream" is followed by CRLF or LF, then exactly /Length bytes, then EOL "endstream".
    let start = offset + `${n} 0 obj`.length + keyword + "stream".length;
    if (text[start] === "\r") start++;
    expect(text[start]).toBe("\n");
    start++;
    expect(text.slice(start + length, start + length + 11).trim().startsWith("endstream"), `object ${n}: /Length ${length} ends at endstream`).toBe(true);
    return bytes.subarray(start, start + length);
  };
  const ref = (dictionary: string, key: string) => Number(new RegExp(`/${key} (\\d+) 0 R`).exec(dictionary)?.[1]);
  const numbers = (dictionary: string, key: string) => {
    const match = new RegExp(`/${key} \\[([^\\]]*)\\]`).exec(dictionary);
    return match ? match[1].trim().split(/\s+/).map(Number) : null;
  };

  const root = objects.get(ref(trailer, "Root"));
  expect(root?.body).toMatch(/\/Type \/Catalog/);
  const tree = objects.get(ref(root!.body, "Pages"))!;
  expect(tree.body).toMatch(/\/Type \/Pages/);
  const kids = [...(/\/Kids \[([^\]]*)\]/.exec(tree.body)?.[1] ?? "").matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
  expect(Number(/\/Count (\d+)/.exec(tree.body)?.[1])).toBe(kids.length);

  const pages = kids.map((objectNumber): ParsedPage => {
    const page = objects.get(objectNumber)!.body;
    expect(page).toMatch(/\/Type \/Page\b/);
    const content = latin1(streamOf(ref(page, "Contents")));
    const imageRef = /\/XObject << \/Im1 (\d+) 0 R >>/.exec(page);
    let image: ParsedImage | null = null;
    if (imageRef) {
      const number = Number(imageRef[1]);
      const dictionary = objects.get(number)!.body;
      expect(dictionary).toMatch(/\/Subtype \/Image/);
      image = {
        objectNumber: number,
        width: Number(/\/Width (\d+)/.exec(dictionary)?.[1]),
        height: Number(/\/Height (\d+)/.exec(dictionary)?.[1]),
        dictionary,
        data: streamOf(number),
      };
    }
    return { objectNumber, mediaBox: numbers(page, "MediaBox")!, trimBox: numbers(page, "TrimBox"), content, image };
  });
  const pageObjectCount = [...objects.values()].filter((object) => /\/Type \/Page\b/.test(object.body)).length;
  const infoNumber = ref(trailer, "Info");
  return {
    version: header![1],
    objects,
    pages,
    pageObjectCount,
    trailer,
    info: Number.isFinite(infoNumber) ? (objects.get(infoNumber)?.body ?? null) : null,
  };
}

/** The strings a content stream shows with Tj, literal escapes undone, as WinAnsi (≈ latin1) text. */
export function shownText(content: string): string[] {
  return [...content.matchAll(/\(((?:[^()\\]|\\.)*)\) Tj/g)].map((m) =>
    m[1].replace(/\\([0-7]{3}|.)/g, (_, escaped: string) => (escaped.length === 3 ? String.fromCharCode(parseInt(escaped, 8)) : escaped)),
  );
}

/** Inflates a FlateDecode stream and undoes PNG predictors (one filter byte per row): the raw samples. */
export async function decodeFlatePngPredicted(data: Uint8Array, width: number, height: number, colors = 1): Promise<Uint8Array> {
  const inflated = new Uint8Array(await new Response(new Blob([data.slice()]).stream().pipeThrough(new DecompressionStream("deflate"))).arrayBuffer());
  const stride = width * colors;
  expect(inflated.length).toBe(height * (stride + 1));
  const out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = inflated[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const raw = inflated[y * (stride + 1) + 1 + x];
      const left = x >= colors ? out[y * stride + x - colors] : 0;
      const up = y > 0 ? out[(y - 1) * stride + x] : 0;
      const upLeft = y > 0 && x >= colors ? out[(y - 1) * stride + x - colors] : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      } else expect(filter, `row ${y} filter`).toBe(0);
      out[y * stride + x] = (raw + predicted) & 255;
    }
  }
  return out;
}
