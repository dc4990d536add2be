/**
 * The book's fonts, embedded in every print PDF (the print partner rejects files with fonts that
 * are not embedded; docs/decisions/028): Lato Bold for titles, Lato Italic for the dedication.
 * Lato is under the SIL Open Font License 1.1, which allows embedding; the files come from the
 * npm package @expo-google-fonts/lato (Google Fonts' static TTFs) and are bundled as Data modules
 * (wrangler.toml [[rules]]), so nothing is fetched at run time and no system font is needed.
 */
import { deflateSync } from "node:zlib";
import latoBold from "../../../node_modules/@expo-google-fonts/lato/700Bold/Lato_700Bold.ttf";
import latoItalic from "../../../node_modules/@expo-google-fonts/lato/400Regular_Italic/Lato_400Regular_Italic.ttf";
import { readTrueType, type TrueTypeFont } from "./truetype";
import type { PdfWriter } from "./writer";

export type BookFont = TrueTypeFont;

let loaded: { bold: BookFont; italic: BookFont } | null = null;

/** Read once per isolate: the tables are small, the bytes are the module's own. */
export function bookFonts(): { bold: BookFont; italic: BookFont } {
  loaded ??= { bold: readTrueType(latoBold), italic: readTrueType(latoItalic) };
  return loaded;
}

/**
 * Writes the font as a simple TrueType font with WinAnsiEncoding, its widths, its descriptor and
 * the whole file as /FontFile2 (deflated); answers the font dictionary's object number.
 */
export async function embedFont(pdf: PdfWriter, font: BookFont): Promise<number> {
  const dictionary = pdf.allocate();
  const descriptor = pdf.allocate();
  const file = pdf.allocate();
  await pdf.object(
    dictionary,
    `<< /Type /Font /Subtype /TrueType /BaseFont /${font.postScriptName} /FirstChar 32 /LastChar 255 ` +
      `/Widths [${font.widths.join(" ")}] /Encoding /WinAnsiEncoding /FontDescriptor ${descriptor} 0 R >>`,
  );
  // Flags: nonsymbolic (bit 6, the WinAnsi codes map through the font's Unicode cmap), italic (bit 7).
  const flags = 32 + (font.italic ? 64 : 0);
  await pdf.object(
    descriptor,
    `<< /Type /FontDescriptor /FontName /${font.postScriptName} /Flags ${flags} /FontBBox [${font.bbox.join(" ")}] ` +
      `/ItalicAngle ${font.italicAngle} /Ascent ${font.ascent} /Descent ${font.descent} /CapHeight ${font.capHeight} ` +
      `/StemV ${font.bold ? 140 : 80} /FontFile2 ${file} 0 R >>`,
  );
  const deflated = deflateSync(font.bytes);
  await pdf.stream(file, `/Length1 ${font.bytes.length} /Filter /FlateDecode`, deflated.length, [deflated]);
  return dictionary;
}
