/**
 * What a PDF needs to embed a TrueType font as a simple font with WinAnsiEncoding (ISO 32000-1
 * 9.6.3, 9.8, 9.9): the advance width of the glyph of each WinAnsi code, the font's box and
 * metrics for its /FontDescriptor, and its PostScript name. Read from the font's own tables
 * (head, hhea, hmtx, cmap format 4, OS/2, post, name), so what the text is measured with is what
 * the reader draws with. The whole file is embedded (/FontFile2); no subsetting: a face is
 * about 75 KB, beside megabytes of page images.
 */
import { winAnsiCodePoint } from "./text";

export interface TrueTypeFont {
  /** The file as embedded. */
  bytes: Uint8Array;
  postScriptName: string;
  /** Advance widths in 1/1000 em for WinAnsi codes 32..255 (index = code - 32); 0 without a glyph. */
  widths: number[];
  /** In 1/1000 em, as /FontDescriptor wants them. */
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
  italic: boolean;
  bold: boolean;
}

export function readTrueType(file: ArrayBuffer | Uint8Array): TrueTypeFont {
  const bytes = file instanceof Uint8Array ? file : new Uint8Array(file);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, number>();
  const tableCount = view.getUint16(4);
  for (let i = 0; i < tableCount; i++) {
    const record = 12 + 16 * i;
    const tag = String.fromCharCode(...bytes.subarray(record, record + 4));
    tables.set(tag, view.getUint32(record + 8));
  }
  const table = (tag: string) => {
    const offset = tables.get(tag);
    if (offset === undefined) throw new Error(`TrueType font without a ${tag} table`);
    return offset;
  };

  const head = table("head");
  const unitsPerEm = view.getUint16(head + 18);
  const em = (units: number) => Math.round((units * 1000) / unitsPerEm);
  const bbox: [number, number, number, number] = [
    em(view.getInt16(head + 36)),
    em(view.getInt16(head + 38)),
    em(view.getInt16(head + 40)),
    em(view.getInt16(head + 42)),
  ];
  const hhea = table("hhea");
  const metricCount = view.getUint16(hhea + 34);
  const hmtx = table("hmtx");
  const advance = (glyph: number) => view.getUint16(hmtx + 4 * Math.min(glyph, metricCount - 1));

  const os2 = table("OS/2");
  const weightClass = view.getUint16(os2 + 4);
  const fsType = view.getUint16(os2 + 8);
  // Bit 1 alone: restricted licence, no embedding. Every other value allows it in a print file.
  if ((fsType & 0x000f) === 0x0002) throw new Error("the font's licence does not allow embedding");
  const version = view.getUint16(os2);
  const ascent = em(view.getInt16(os2 + 68));
  const descent = em(view.getInt16(os2 + 70));
  const capHeight = version >= 2 ? em(view.getInt16(os2 + 88)) : ascent;
  const post = table("post");
  const italicAngle = view.getInt32(post + 4) / 65536;

  const glyphOf = unicodeCmap(view, table("cmap"));
  const widths: number[] = [];
  for (let code = 32; code <= 255; code++) {
    const codePoint = winAnsiCodePoint(code);
    const glyph = codePoint === null ? 0 : glyphOf(codePoint);
    widths.push(glyph === 0 ? 0 : em(advance(glyph)));
  }
  return {
    bytes,
    postScriptName: postScriptName(view, bytes, table("name")),
    widths,
    bbox,
    ascent,
    descent,
    capHeight,
    italicAngle,
    italic: italicAngle !== 0,
    bold: weightClass >= 600,
  };
}

/** The (3,1) Unicode BMP subtable, format 4: code point to glyph id (0: none). */
function unicodeCmap(view: DataView, cmap: number): (codePoint: number) => number {
  const count = view.getUint16(cmap + 2);
  for (let i = 0; i < count; i++) {
    const platform = view.getUint16(cmap + 4 + 8 * i);
    const encoding = view.getUint16(cmap + 6 + 8 * i);
    const at = cmap + view.getUint32(cmap + 8 + 8 * i);
    if (platform !== 3 || encoding !== 1 || view.getUint16(at) !== 4) continue;
    const segments = view.getUint16(at + 6) / 2;
    const ends = at + 14;
    const starts = ends + 2 * segments + 2;
    const deltas = starts + 2 * segments;
    const rangeOffsets = deltas + 2 * segments;
    return (codePoint) => {
      for (let s = 0; s < segments; s++) {
        if (codePoint > view.getUint16(ends + 2 * s)) continue;
        const start = view.getUint16(starts + 2 * s);
        if (codePoint < start) return 0;
        const delta = view.getInt16(deltas + 2 * s);
        const rangeOffset = view.getUint16(rangeOffsets + 2 * s);
        if (rangeOffset === 0) return (codePoint + delta) & 0xffff;
        const glyph = view.getUint16(rangeOffsets + 2 * s + rangeOffset + 2 * (codePoint - start));
        return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
      }
      return 0;
    };
  }
  throw new Error("TrueType font without a Unicode (3,1) format 4 cmap");
}

/** Name id 6, from the Windows (UTF-16BE) or Macintosh (Roman) record. */
function postScriptName(view: DataView, bytes: Uint8Array, name: number): string {
  const count = view.getUint16(name + 2);
  const strings = name + view.getUint16(name + 4);
  for (let i = 0; i < count; i++) {
    const record = name + 6 + 12 * i;
    if (view.getUint16(record + 6) !== 6) continue;
    const platform = view.getUint16(record);
    const length = view.getUint16(record + 8);
    const at = strings + view.getUint16(record + 10);
    const raw = bytes.subarray(at, at + length);
    const text = platform === 3 ? String.fromCharCode(...Array.from({ length: length / 2 }, (_, k) => (raw[2 * k] << 8) | raw[2 * k + 1])) : String.fromCharCode(...raw);
    // A PDF name: printable ASCII without delimiters.
    const clean = text.replace(/[^!-~]|[()<>[\]{}/%#]/g, "");
    if (clean) return clean;
  }
  throw new Error("TrueType font without a PostScript name");
}
