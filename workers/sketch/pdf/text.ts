/**
 * Text for the title and dedication pages: WinAnsi bytes for the book's embedded TrueType fonts
 * (fonts.ts; a simple font with WinAnsiEncoding), widths for wrapping, and the PDF string syntax.
 *
 * Letters outside WinAnsi (Western European: English, French, German, Spanish, Nordic, ...) are
 * transliterated, not drawn with another font: accents WinAnsi lacks are dropped through Unicode
 * decomposition (ő → o, ą → a, č → c), a few letters get their usual Latin spelling (ł → l,
 * đ → d), and what has no Latin spelling at all (Greek, Cyrillic, CJK, emoji) is left out and
 * reported to the caller, which logs it for the order. A font covering every script is megabytes
 * and would need subsetting and a CID font; the titles and messages the shop sees are Latin
 * script, so this was the trade. The document's /Title
 * metadata keeps the exact text (UTF-16).
 */

/** WinAnsi's codes 128..159 that are not Latin-1 control codes, by Unicode code point. */
const WIN_ANSI_HIGH: ReadonlyMap<number, number> = new Map([
  [0x20ac, 128], [0x201a, 130], [0x0192, 131], [0x201e, 132], [0x2026, 133], [0x2020, 134], [0x2021, 135],
  [0x02c6, 136], [0x2030, 137], [0x0160, 138], [0x2039, 139], [0x0152, 140], [0x017d, 142], [0x2018, 145],
  [0x2019, 146], [0x201c, 147], [0x201d, 148], [0x2022, 149], [0x2013, 150], [0x2014, 151], [0x02dc, 152],
  [0x2122, 153], [0x0161, 154], [0x203a, 155], [0x0153, 156], [0x017e, 158], [0x0178, 159],
]);

/** Latin letters whose decomposition keeps no base letter WinAnsi has. */
const LATIN_SPELLINGS: Readonly<Record<string, string>> = {
  Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i", Ŀ: "L", ŀ: "l", Ŧ: "T", ŧ: "t",
  Ŋ: "N", ŋ: "n", ĸ: "k", Ĳ: "IJ", ĳ: "ij", ſ: "s", Ǝ: "E", ə: "e", Ə: "E",
  "\u2032": "'", "\u2033": '"', "\u2212": "-", "\u2010": "-", "\u2011": "-",
};

function winAnsiCode(codePoint: number): number | null {
  if (codePoint >= 0x20 && codePoint <= 0x7e) return codePoint;
  if (codePoint >= 0xa0 && codePoint <= 0xff) return codePoint;
  return WIN_ANSI_HIGH.get(codePoint) ?? null;
}

const WIN_ANSI_HIGH_CODE_POINTS: ReadonlyMap<number, number> = new Map([...WIN_ANSI_HIGH].map(([codePoint, code]) => [code, codePoint]));

/** The Unicode code point WinAnsi's `code` stands for; null for its unused codes. */
export function winAnsiCodePoint(code: number): number | null {
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  return WIN_ANSI_HIGH_CODE_POINTS.get(code) ?? null;
}

export interface WinAnsiText {
  /** One byte per glyph, WinAnsi codes. */
  bytes: Uint8Array;
  /** Characters that could not be written even after transliteration (left out). */
  missing: string[];
}

/** Text as WinAnsi bytes; line breaks and tabs become spaces (the caller splits paragraphs first). */
export function toWinAnsi(text: string): WinAnsiText {
  const out: number[] = [];
  const missing: string[] = [];
  for (const char of text.normalize("NFC")) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0d) {
      out.push(0x20);
      continue;
    }
    const direct = winAnsiCode(codePoint);
    if (direct !== null) {
      out.push(direct);
      continue;
    }
    const spelled = LATIN_SPELLINGS[char] ?? char.normalize("NFKD").replace(/\p{M}/gu, "");
    const codes = [...spelled].map((c) => winAnsiCode(c.codePointAt(0)!));
    if (spelled.length > 0 && codes.every((code) => code !== null)) out.push(...(codes as number[]));
    else if (!/\p{M}|\p{Cc}|\p{Cf}/u.test(char)) missing.push(char);
  }
  return { bytes: Uint8Array.from(out), missing };
}

/** A font's advance widths (1/1000 em) for WinAnsi codes 32..255 (index = code - 32). */
export interface FontWidths {
  widths: readonly number[];
}

/** Width in points of WinAnsi bytes set in `font` at `size`: the widths the PDF embeds. */
export function textWidth(bytes: Uint8Array, font: FontWidths, size: number): number {
  let units = 0;
  for (const byte of bytes) units += byte >= 32 ? font.widths[byte - 32] : 0;
  return (units * size) / 1000;
}

const SPACE = 0x20;

/**
 * Greedy line breaking at spaces; a word wider than the line is broken between letters.
 * Returns the lines as WinAnsi bytes, without leading or trailing spaces.
 */
export function wrapLines(bytes: Uint8Array, font: FontWidths, size: number, maxWidth: number): Uint8Array[] {
  const words = splitWords(bytes);
  const lines: Uint8Array[] = [];
  let line: number[] = [];
  const fits = (candidate: number[]) => textWidth(Uint8Array.from(candidate), font, size) <= maxWidth;
  for (const word of words) {
    const candidate = line.length ? [...line, SPACE, ...word] : [...word];
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line.length) lines.push(Uint8Array.from(line));
    line = [];
    // A single word longer than the line: as many letters per line as fit.
    let rest = [...word];
    while (!fits(rest)) {
      let take = 1;
      while (take < rest.length && fits(rest.slice(0, take + 1))) take++;
      lines.push(Uint8Array.from(rest.slice(0, take)));
      rest = rest.slice(take);
    }
    line = rest;
  }
  if (line.length) lines.push(Uint8Array.from(line));
  return lines;
}

/**
 * Like wrapLines, into as few lines, but with lines of even length: the narrowest measure that
 * still needs no more lines (so a last line is not one lonely word).
 */
export function wrapBalanced(bytes: Uint8Array, font: FontWidths, size: number, maxWidth: number): Uint8Array[] {
  const greedy = wrapLines(bytes, font, size, maxWidth);
  if (greedy.length < 2) return greedy;
  let low = 0;
  let high = maxWidth;
  // Halving to a tenth of a point: about 12 rounds for a page-wide measure.
  while (high - low > 0.1) {
    const middle = (low + high) / 2;
    if (wrapLines(bytes, font, size, middle).length <= greedy.length) high = middle;
    else low = middle;
  }
  return wrapLines(bytes, font, size, high);
}

function splitWords(bytes: Uint8Array): number[][] {
  const words: number[][] = [];
  let word: number[] = [];
  for (const byte of bytes) {
    if (byte === SPACE) {
      if (word.length) words.push(word);
      word = [];
    } else word.push(byte);
  }
  if (word.length) words.push(word);
  return words;
}

/** A PDF literal string of WinAnsi bytes, ASCII only (bytes above 126 as octal escapes). */
export function pdfLiteral(bytes: Uint8Array): string {
  let out = "(";
  for (const byte of bytes) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte < 32 || byte > 126) out += `\\${byte.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(byte);
  }
  return `${out})`;
}

/** A PDF text string in UTF-16BE with its byte-order mark, as hex: any Unicode text (metadata). */
export function pdfUnicodeString(text: string): string {
  let hex = "<FEFF";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0").toUpperCase();
  return `${hex}>`;
}
