/**
 * The print-ready PDF of a book: title page, dedication page, then one sketch per page.
 *
 * Page: US Letter (8.5 x 11 in) trim with 0.125 in bleed on every side, so each page's MediaBox
 * is 8.75 x 11.25 in (630 x 810 pt) and the TrimBox marks the cut. Nothing is drawn in the
 * bleed (the pages are white paper), and everything stays inside the safe area: 0.375 in from
 * the trim, 0.625 in on the left, where the spiral's holes are punched (pages are printed one
 * side, bound on the left edge).
 *
 * Sketches are placed as large as the safe area allows, centred, and turned a quarter
 * anticlockwise when wider than tall (the usual book convention: the picture's top at the
 * spine), so a landscape sketch fills a portrait page. Our print-size sketches (3300 px long
 * edge) come out at 322-340 dpi, at or above the printer's 300.
 *
 * Text: the title in Lato Bold (44 pt, smaller down to 24 pt if it needs more than five
 * lines), the dedication in Lato Italic (16 pt down to 10), both centred on the page with
 * balanced line breaks; the fonts are embedded (fonts.ts), letters as text.ts explains (WinAnsi).
 *
 * Memory: one page's PNG at a time (loaded by the caller's loader only when its page is
 * written) and the sink's one buffered part; the PDF itself is never held.
 */
import type { CoverSize } from "../../../app/core/contracts/print";
import { readPngForPdf } from "./png";
import type { ByteSink } from "./sink";
import { bookFonts, embedFont, type BookFont } from "./fonts";
import { pdfLiteral, pdfUnicodeString, textWidth, toWinAnsi, wrapBalanced } from "./text";
import { PdfWriter, pdfNumber } from "./writer";

const POINTS_PER_INCH = 72;
const TRIM_WIDTH_IN = 8.5;
const TRIM_HEIGHT_IN = 11;
const BLEED_IN = 0.125;
const BINDING_MARGIN_IN = 0.625;
const OUTER_MARGIN_IN = 0.375;

const pt = (inches: number) => inches * POINTS_PER_INCH;
const BLEED = pt(BLEED_IN);
export const PAGE_WIDTH_PT = pt(TRIM_WIDTH_IN + 2 * BLEED_IN);
export const PAGE_HEIGHT_PT = pt(TRIM_HEIGHT_IN + 2 * BLEED_IN);

/** The safe area in page coordinates (origin at the bottom left of the bleed). */
export const SAFE_AREA = {
  left: BLEED + pt(BINDING_MARGIN_IN),
  bottom: BLEED + pt(OUTER_MARGIN_IN),
  right: PAGE_WIDTH_PT - BLEED - pt(OUTER_MARGIN_IN),
  top: PAGE_HEIGHT_PT - BLEED - pt(OUTER_MARGIN_IN),
};
const SAFE_WIDTH = SAFE_AREA.right - SAFE_AREA.left;
const SAFE_HEIGHT = SAFE_AREA.top - SAFE_AREA.bottom;
/**
 * Text is centred on the page, not on the safe area (which sits off-centre for the binding),
 * so it looks centred; its measure is what the safe area allows on both sides of the middle.
 */
const PAGE_MIDDLE = PAGE_WIDTH_PT / 2;
const CENTRED_MEASURE = 2 * Math.min(PAGE_MIDDLE - SAFE_AREA.left, SAFE_AREA.right - PAGE_MIDDLE);

const TITLE = { font: "bold" as const, largest: 44, smallest: 24, maxLines: 5, leading: 1.2, measure: CENTRED_MEASURE };
/** A dedication reads as a short centred block in italics: a 5 in measure. */
const DEDICATION = { font: "italic" as const, largest: 16, smallest: 10, leading: 1.5, measure: Math.min(CENTRED_MEASURE, pt(5)) };

const BOXES =
  `/MediaBox [0 0 ${PAGE_WIDTH_PT} ${PAGE_HEIGHT_PT}] /BleedBox [0 0 ${PAGE_WIDTH_PT} ${PAGE_HEIGHT_PT}] ` +
  `/TrimBox [${BLEED} ${BLEED} ${PAGE_WIDTH_PT - BLEED} ${PAGE_HEIGHT_PT - BLEED}]`;

export interface BookPdfInput {
  title: string;
  /** The personal message; the dedication page stays blank without one. */
  dedication: string | null;
  /** One loader per sketch page, in book order; each is called only when its page is written. */
  pages: ReadonlyArray<() => Promise<Uint8Array>>;
  /**
   * Single-sided, for the print partner (decision 028): every page followed by a blank one, so
   * each colouring page is on a sheet of its own with a white back (markers bleed through paper).
   */
  blankBacks?: boolean;
}

export interface BookPdfResult {
  pageCount: number;
  /** Characters of the title or dedication that the book's fonts (WinAnsi) could not show (left out). */
  missingCharacters: string[];
  /** Effective resolution of the least sharp sketch page (dpi), or null without sketch pages. */
  lowestDpi: number | null;
}

/** Writes the whole PDF to `sink` and closes it; aborts the sink if anything fails. */
export async function writeBookPdf(sink: ByteSink, input: BookPdfInput): Promise<BookPdfResult> {
  try {
    const result = await writeBook(new PdfWriter(sink), input);
    await sink.close();
    return result;
  } catch (error) {
    await sink.abort().catch(() => undefined);
    throw error;
  }
}

async function writeBook(pdf: PdfWriter, input: BookPdfInput): Promise<BookPdfResult> {
  await pdf.begin();
  const catalog = pdf.allocate();
  const pageTree = pdf.allocate();
  const info = pdf.allocate();
  await pdf.object(catalog, `<< /Type /Catalog /Pages ${pageTree} 0 R >>`);
  await pdf.object(info, `<< /Title ${pdfUnicodeString(input.title)} /Producer (coloring-book-shop) >>`);
  const titleFont = await embedFont(pdf, bookFonts()[TITLE.font]);
  const textFont = await embedFont(pdf, bookFonts()[DEDICATION.font]);

  const kids: number[] = [];
  const missing = new Set<string>();
  const fonts = `/Font << /F1 ${titleFont} 0 R /F2 ${textFont} 0 R >>`;

  // Each Kids entry must be a page object of its own, so every blank back is its own (tiny) page.
  const addPage = async (page: number) => {
    kids.push(page);
    if (input.blankBacks) kids.push(await textPage(pdf, pageTree, fonts, ""));
  };

  const title = toWinAnsi(input.title);
  title.missing.forEach((char) => missing.add(char));
  await addPage(await textPage(pdf, pageTree, fonts, titlePageContent(title.bytes)));

  const paragraphs = (input.dedication ?? "").trim().split(/\r?\n/).map(toWinAnsi);
  paragraphs.forEach((paragraph) => paragraph.missing.forEach((char) => missing.add(char)));
  await addPage(await textPage(pdf, pageTree, fonts, dedicationPageContent(paragraphs.map((p) => p.bytes))));

  let lowestDpi: number | null = null;
  for (const load of input.pages) {
    const { page, dpi } = await sketchPage(pdf, pageTree, await load());
    await addPage(page);
    lowestDpi = lowestDpi === null ? dpi : Math.min(lowestDpi, dpi);
  }

  await pdf.object(pageTree, `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(" ")}] /Count ${kids.length} >>`);
  await pdf.finish(`/Root ${catalog} 0 R /Info ${info} 0 R`);
  return { pageCount: kids.length, missingCharacters: [...missing], lowestDpi };
}

async function textPage(pdf: PdfWriter, pageTree: number, fonts: string, content: string): Promise<number> {
  const page = pdf.allocate();
  const contents = pdf.allocate();
  await pdf.object(page, `<< /Type /Page /Parent ${pageTree} 0 R ${BOXES} /Resources << ${fonts} >> /Contents ${contents} 0 R >>`);
  await pdf.textStream(contents, "", content);
  return page;
}

interface SetLines {
  lines: Uint8Array[];
  size: number;
}

/** The largest size from `largest` down to `smallest` at which the text wraps into `maxLines`. */
function fitText(paragraphs: Uint8Array[], style: { font: "bold" | "italic"; largest: number; smallest: number; measure: number }, maxLines: number): SetLines {
  const { largest, smallest, measure } = style;
  const font = bookFonts()[style.font];
  let best: SetLines = { lines: [], size: smallest };
  for (let size = largest; size >= smallest; size -= 2) {
    // An empty paragraph is an empty line: the customer's blank lines stay.
    const lines = paragraphs.flatMap((paragraph) => {
      const wrapped = wrapBalanced(paragraph, font, size, measure);
      return wrapped.length ? wrapped : [new Uint8Array(0)];
    });
    best = { lines, size };
    if (lines.length <= maxLines) break;
  }
  return best;
}

/** Lines centred on the page, the block's middle at `centreY`. */
function centredLines({ lines, size }: SetLines, font: "F1" | "F2", face: BookFont, leading: number, centreY: number): string {
  const lineHeight = size * leading;
  // Baseline of the first line: half the block above the centre, less the cap height (≈ 0.72 em).
  const firstBaseline = centreY + ((lines.length - 1) * lineHeight) / 2 - size * 0.36;
  let content = "0 g\n";
  lines.forEach((line, i) => {
    if (line.length === 0) return;
    const x = PAGE_MIDDLE - textWidth(line, face, size) / 2;
    const y = firstBaseline - i * lineHeight;
    content += `BT /${font} ${size} Tf 1 0 0 1 ${pdfNumber(x)} ${pdfNumber(y)} Tm ${pdfLiteral(line)} Tj ET\n`;
  });
  return content;
}

function titlePageContent(title: Uint8Array): string {
  const set = fitText([title], TITLE, TITLE.maxLines);
  // A little above the middle, where a title page's title sits to the eye.
  return centredLines(set, "F1", bookFonts()[TITLE.font], TITLE.leading, SAFE_AREA.bottom + SAFE_HEIGHT * 0.58);
}

function dedicationPageContent(paragraphs: Uint8Array[]): string {
  if (paragraphs.every((paragraph) => paragraph.length === 0)) return "";
  const maxLines = Math.floor(SAFE_HEIGHT / (DEDICATION.smallest * DEDICATION.leading));
  const set = fitText(paragraphs, DEDICATION, Math.min(maxLines, 24));
  return centredLines(set, "F2", bookFonts()[DEDICATION.font], DEDICATION.leading, SAFE_AREA.bottom + SAFE_HEIGHT * 0.6);
}

/** One sketch page: the PNG's compressed scanlines as a Flate image with PNG predictors. */
async function sketchPage(pdf: PdfWriter, pageTree: number, png: Uint8Array): Promise<{ page: number; dpi: number }> {
  const image = readPngForPdf(png);
  const page = pdf.allocate();
  const contents = pdf.allocate();
  const xobject = pdf.allocate();
  const placement = placeImage(image.width, image.height);
  await pdf.object(
    page,
    `<< /Type /Page /Parent ${pageTree} 0 R ${BOXES} /Resources << /XObject << /Im1 ${xobject} 0 R >> >> /Contents ${contents} 0 R >>`,
  );
  await pdf.textStream(contents, "", `q ${placement.matrix.map(pdfNumber).join(" ")} cm /Im1 Do Q\n`);
  await pdf.stream(
    xobject,
    `/Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} ` +
      `/ColorSpace /${image.colors === 1 ? "DeviceGray" : "DeviceRGB"} /BitsPerComponent ${image.bitsPerComponent} /Filter /FlateDecode ` +
      `/DecodeParms << /Predictor 15 /Colors ${image.colors} /BitsPerComponent ${image.bitsPerComponent} /Columns ${image.width} >>`,
    image.idatLength,
    image.idat,
  );
  return { page, dpi: placement.dpi };
}

/**
 * The `cm` matrix that maps the image's unit square onto the page: fitted into the safe area,
 * centred, and turned a quarter anticlockwise when the image is landscape.
 */
export function placeImage(width: number, height: number): { matrix: number[]; dpi: number; rotated: boolean } {
  const rotated = width > height;
  // The image's extent on the page, before scaling: a turned image swaps its sides.
  const across = rotated ? height : width;
  const up = rotated ? width : height;
  const scale = Math.min(SAFE_WIDTH / across, SAFE_HEIGHT / up); // points per pixel
  const placedAcross = across * scale;
  const placedUp = up * scale;
  const x = SAFE_AREA.left + (SAFE_WIDTH - placedAcross) / 2;
  const y = SAFE_AREA.bottom + (SAFE_HEIGHT - placedUp) / 2;
  const dpi = POINTS_PER_INCH / scale;
  if (!rotated) return { matrix: [placedAcross, 0, 0, placedUp, x, y], dpi, rotated };
  // Image x (u) runs up the page, image y (v, its top at 1) runs leftwards: top at the spine.
  return { matrix: [0, placedUp, -placedAcross, 0, x + placedAcross, y], dpi, rotated };
}

/**
 * The cover (docs/decisions/028): one page, back and front side by side with no spine (a coil
 * binding has none), 0.125 in bleed around: 17.25 x 11.25 in (1242 x 810 pt). The back stays
 * white; the front (the right half) carries the title at the top and one of the book's pages
 * below it, inside the same 0.375 in safety margin the interior keeps from the trim.
 */
export const COVER_WIDTH_PT = pt(2 * TRIM_WIDTH_IN + 2 * BLEED_IN);
export const COVER_HEIGHT_PT = PAGE_HEIGHT_PT;
export const COVER_FRONT_SAFE_AREA = coverFrontSafeArea(COVER_WIDTH_PT, COVER_HEIGHT_PT);

/** The front is the right trim width of the cover: measured from its right edge, whatever the width. */
function coverFrontSafeArea(width: number, height: number) {
  return {
    left: width - BLEED - pt(TRIM_WIDTH_IN) + pt(OUTER_MARGIN_IN),
    right: width - BLEED - pt(OUTER_MARGIN_IN),
    bottom: BLEED + pt(OUTER_MARGIN_IN),
    top: height - BLEED - pt(OUTER_MARGIN_IN),
  };
}
const COVER_TITLE = { font: "bold" as const, largest: 40, smallest: 22, maxLines: 3, leading: 1.15 };

export interface CoverPdfInput {
  title: string;
  /** The page shown on the front. */
  front: () => Promise<Uint8Array>;
  /**
   * The whole cover, bleed included, as the print partner gives it for the product and page
   * count (Lulu's /cover-dimensions/); COVER_WIDTH_PT x COVER_HEIGHT_PT when absent. The front is
   * the right half, laid out from the right and bottom edges as above.
   */
  size?: CoverSize;
}

/** Writes the cover and answers the size it was made at. */
export async function writeCoverPdf(sink: ByteSink, input: CoverPdfInput): Promise<CoverSize> {
  try {
    const pdf = new PdfWriter(sink);
    await pdf.begin();
    const catalog = pdf.allocate();
    const pageTree = pdf.allocate();
    const font = await embedFont(pdf, bookFonts()[COVER_TITLE.font]);
    const page = pdf.allocate();
    const contents = pdf.allocate();
    const xobject = pdf.allocate();
    await pdf.object(catalog, `<< /Type /Catalog /Pages ${pageTree} 0 R >>`);
    await pdf.object(pageTree, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);

    const width = input.size?.widthPt ?? COVER_WIDTH_PT;
    const height = input.size?.heightPt ?? COVER_HEIGHT_PT;
    const safe = coverFrontSafeArea(width, height);
    const measure = safe.right - safe.left;
    const middle = (safe.left + safe.right) / 2;
    const set = fitText([toWinAnsi(input.title).bytes], { ...COVER_TITLE, measure }, COVER_TITLE.maxLines);
    const lineHeight = set.size * COVER_TITLE.leading;
    const titleTop = safe.top - set.size * 0.72;
    let text = "0 g\n";
    set.lines.forEach((line, i) => {
      if (line.length === 0) return;
      const x = middle - textWidth(line, bookFonts()[COVER_TITLE.font], set.size) / 2;
      text += `BT /F1 ${set.size} Tf 1 0 0 1 ${pdfNumber(x)} ${pdfNumber(titleTop - i * lineHeight)} Tm ${pdfLiteral(line)} Tj ET\n`;
    });
    // The picture fills what is left of the front below the title, with a title's line of air.
    const image = readPngForPdf(await input.front());
    const pictureTop = titleTop - (set.lines.length - 1) * lineHeight - set.size;
    const boxHeight = pictureTop - safe.bottom;
    const scale = Math.min(measure / image.width, boxHeight / image.height);
    const pictureWidth = image.width * scale;
    const pictureHeight = image.height * scale;
    const x = safe.left + (measure - pictureWidth) / 2;
    const y = safe.bottom + (boxHeight - pictureHeight) / 2;
    const picture = `q ${[pictureWidth, 0, 0, pictureHeight, x, y].map(pdfNumber).join(" ")} cm /Im1 Do Q\n`;

    await pdf.object(
      page,
      `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 ${pdfNumber(width)} ${pdfNumber(height)}] /BleedBox [0 0 ${pdfNumber(width)} ${pdfNumber(height)}] ` +
        `/TrimBox [${BLEED} ${BLEED} ${pdfNumber(width - BLEED)} ${pdfNumber(height - BLEED)}] ` +
        `/Resources << /Font << /F1 ${font} 0 R >> /XObject << /Im1 ${xobject} 0 R >> >> /Contents ${contents} 0 R >>`,
    );
    await pdf.textStream(contents, "", picture + text);
    await pdf.stream(
      xobject,
      `/Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} ` +
        `/ColorSpace /${image.colors === 1 ? "DeviceGray" : "DeviceRGB"} /BitsPerComponent ${image.bitsPerComponent} /Filter /FlateDecode ` +
        `/DecodeParms << /Predictor 15 /Colors ${image.colors} /BitsPerComponent ${image.bitsPerComponent} /Columns ${image.width} >>`,
      image.idatLength,
      image.idat,
    );
    await pdf.finish(`/Root ${catalog} 0 R`);
    await sink.close();
    return { widthPt: width, heightPt: height };
  } catch (error) {
    await sink.abort().catch(() => undefined);
    throw error;
  }
}
