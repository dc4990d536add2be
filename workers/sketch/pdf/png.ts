/**
 * Reads what a PDF image XObject needs from a PNG without decoding it: the size and the IDAT
 * chunks. A PNG's IDAT bodies, concatenated, are one zlib stream of scanlines that each start
 * with a PNG filter byte, which is exactly what PDF's FlateDecode with /Predictor 15 reads
 * (PDF 32000-1 7.4.4.4). So the pixels go into the PDF as stored: no inflate, no re-encode.
 */
export interface PngForPdf {
  width: number;
  height: number;
  /** 1 for grey (our sketches), 3 for RGB. */
  colors: 1 | 3;
  /** Bits per sample: 1 for our black-and-white pages, 8 for grey or RGB photos. */
  bitsPerComponent: 1 | 2 | 4 | 8;
  /** The IDAT bodies, in order, as views into the file (no copies). */
  idat: Uint8Array[];
  /** Sum of the IDAT lengths: the image stream's /Length. */
  idatLength: number;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

export class UnsupportedPngError extends Error {}

export function readPngForPdf(png: Uint8Array): PngForPdf {
  if (png.length < 8 + 25 || SIGNATURE.some((byte, i) => png[i] !== byte)) throw new UnsupportedPngError("not a PNG file");
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  let header: ReturnType<typeof readHeader> | null = null;
  const idat: Uint8Array[] = [];
  let idatLength = 0;
  while (offset + 12 <= png.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(png[offset + 4], png[offset + 5], png[offset + 6], png[offset + 7]);
    const body = offset + 8;
    if (body + length + 4 > png.length) throw new UnsupportedPngError(`PNG chunk ${type} runs past the end of the file`);
    if (type === "IHDR") header = readHeader(view, body);
    else if (type === "IDAT") {
      idat.push(png.subarray(body, body + length));
      idatLength += length;
    } else if (type === "PLTE") throw new UnsupportedPngError("palette PNGs are not supported");
    else if (type === "IEND") break;
    offset = body + length + 4; // + CRC
  }
  if (!header) throw new UnsupportedPngError("PNG without IHDR");
  if (idatLength === 0) throw new UnsupportedPngError("PNG without image data");
  return { ...header, idat, idatLength };
}

function readHeader(view: DataView, at: number) {
  const width = view.getUint32(at);
  const height = view.getUint32(at + 4);
  const bitDepth = view.getUint8(at + 8);
  const colourType = view.getUint8(at + 9);
  const interlace = view.getUint8(at + 12);
  // Only layouts whose scanlines PDF's predictor reads as they are: grey at 1, 2, 4 or 8 bits
  // (our pages are 1-bit black and white), 8-bit RGB; no alpha (PDF wants it as a separate
  // soft mask) and no Adam7 interlacing.
  const grey = colourType === 0 && [1, 2, 4, 8].includes(bitDepth);
  const rgb = colourType === 2 && bitDepth === 8;
  if (!(grey || rgb) || interlace !== 0) {
    throw new UnsupportedPngError(`PNG bit depth ${bitDepth}, colour type ${colourType}, interlace ${interlace}: not embeddable as is`);
  }
  if (width < 1 || height < 1) throw new UnsupportedPngError("empty PNG");
  return { width, height, colors: (grey ? 1 : 3) as 1 | 3, bitsPerComponent: bitDepth as 1 | 2 | 4 | 8 };
}
