/**
 * Our own JPEG decoder, for what the sketch needs: the luma (Y) plane, reduced by N/8 in the DCT
 * domain (jpeg/idct.ts) so a 24 MP photo never exists at full size in memory, and on request
 * (decodeJpegPlanes) the chroma (Cb, Cr) planes, reduced the same way to about half the luma plane's
 * resolution (chromaScaleFor): the region stage reads colour on its analysis grid, which is
 * coarser than the luma plane, so finer chroma would be decoded only to be averaged away.
 *
 * Supported: baseline and extended sequential (SOF0/SOF1) and progressive (SOF2) Huffman JPEGs,
 * 8-bit, one component (grey) or three (YCbCr, any sampling; without chroma wanted, the chroma is
 * entropy-decoded only as far as needed to stay in step, and chroma-only scans are skipped
 * unread), restart markers.
 * Anything else (arithmetic coding, 12-bit, lossless, hierarchical, CMYK/YCCK, RGB-coded JPEGs)
 * throws UnsupportedJpegError so the caller can fall back to jSquash when that fits in memory.
 *
 * Memory: baseline writes each block's pixels straight into the output planes (no coefficient
 * buffer); progressive must keep coefficients until the last scan, then runs the scaled IDCT over
 * them. Of each block (luma and chroma alike) it keeps only the N x N coefficients its N/8 IDCT
 * reads, and one bit per coefficient saying whether it is non-zero (a refinement scan reads a
 * correction bit for each non-zero one, kept or not): 17 bytes a block at 2/8, where all 64
 * coefficients took 128. A 24 MP progressive photo read at 2/8 held 48 MB of luma coefficients
 * that way, half the job's peak memory (bench/memory.mjs); now 5 MB.
 *
 * Hostile files: every length, table, sampling factor and scan parameter is checked before it is
 * used, and the work is bounded before it is done: at most JPEG_MAX_SCANS scans, and each scan's
 * block visits times its spectral band are counted against JPEG_MAX_COEFFICIENT_PASSES passes over
 * the frame (app/core/engine-limits.ts), so a small file of end-of-band runs cannot walk a 24 MP frame
 * hundreds of times.
 */
import { JPEG_LIMIT_MESSAGES } from "../../../../app/core/engine-messages";
import { JPEG_MAX_COEFFICIENT_PASSES, JPEG_MAX_SCANS, MAX_SOURCE_PIXELS } from "../../../../app/core/engine-limits";
import { PermanentSketchError } from "../../errors";
import { BitReader, buildHuffmanTable, findMarkerAfterScan, prepareFastAc, SHAPE_KEEPER_TABLE, type HuffmanTable, type SparseCoefficients } from "./huffman";
import type { ChromaPlanes } from "../../kernel/plane";
import { ScaledIdct } from "./idct";

/** A JPEG we do not decode ourselves; the message says what it is. */
export class UnsupportedJpegError extends PermanentSketchError {
  override name = "UnsupportedJpegError";
}

export interface LumaPlane {
  data: Uint8Array;
  width: number;
  height: number;
  /** The JPEG's own size; width/height are these times scale/8, rounded up. */
  sourceWidth: number;
  sourceHeight: number;
  /** Eighths: 8 = full size, 4 = half, 1 = one pixel per 8x8 block. */
  scale: number;
}

/** The luma plane and, for a colour JPEG, its Cb and Cr planes (128 = no colour). */
export interface JpegPlanes extends LumaPlane {
  /** Absent for a grey (one-component) JPEG. Each plane covers the whole photo, at its own size. */
  chroma?: ChromaPlanes;
}

/** Natural (row-major) index of the k-th coefficient in zigzag order. */
const ZIGZAG = new Uint8Array([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
  28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
  54, 47, 55, 62, 63,
]);

/**
 * Smallest scale (in eighths) that keeps the long edge at least minLongEdge, or 8 (full size)
 * when the photo is smaller than that already.
 */
export function jpegScaleFor(width: number, height: number, minLongEdge: number): number {
  const longEdge = Math.max(width, height);
  for (let scale = 1; scale < 8; scale++) if (Math.ceil((longEdge * scale) / 8) >= minLongEdge) return scale;
  return 8;
}

interface Component {
  id: number;
  /** Where a chroma component's pixels go when chroma is wanted; null for luma, or chroma read past. */
  chroma: ChromaOutput | null;
  h: number;
  v: number;
  quantTable: number;
  /** Blocks that hold image data (a non-interleaved scan covers exactly these). */
  blocksWide: number;
  blocksHigh: number;
  dcTable: number;
  acTable: number;
  predictor: number;
}

interface Frame {
  progressive: boolean;
  width: number;
  height: number;
  components: Component[];
  maxH: number;
  maxV: number;
  mcusWide: number;
  mcusHigh: number;
  /** Blocks a pass over every component visits (padded to whole MCUs): the work budget's unit. */
  blocks: number;
}

/**
 * Objects that live as long as the isolate (decoding is synchronous, so one of each serves every
 * photo): made per photo or per scan, their V8 shapes died at each garbage collection and took the
 * decoder's optimised code with them (--trace-deopt: 'weak objects', then 'insufficient type
 * feedback'), some 30 ms of compiling per small photo.
 */
const EMPTY = new Uint8Array(0);
const sharedReader = new BitReader(EMPTY, 0);
const idctForScale: (ScaledIdct | undefined)[] = [];
const idctFor = (scale: number) => (idctForScale[scale] ??= new ScaledIdct(scale));
/** Read here so the bundler keeps it: see SHAPE_KEEPER_TABLE. */
export const keptShapes = [SHAPE_KEEPER_TABLE];

const damaged = (what: string) => new PermanentSketchError(JPEG_LIMIT_MESSAGES.damaged(what));

/** At most this many blocks in one interleaved MCU (ITU T.81 B.2.3); libjpeg refuses more too. */
const MAX_BLOCKS_PER_MCU = 10;

/**
 * Decodes the luma of a JPEG at scale/8 of its size (scale 1..8), reading past its chroma.
 * Orientation is not applied here (see exif.ts); the plane is as stored.
 */
export function decodeJpegLuma(bytes: Uint8Array, scale = 8): LumaPlane {
  return decodeGuarded(bytes, scale, false);
}

/**
 * Decodes the luma of a JPEG at scale/8 of its size, and the chroma of a colour JPEG at about half
 * the luma plane's resolution (chromaScaleFor). Orientation is not applied here.
 */
export function decodeJpegPlanes(bytes: Uint8Array, scale = 8): JpegPlanes {
  return decodeGuarded(bytes, scale, true);
}

function decodeGuarded(bytes: Uint8Array, scale: number, withChroma: boolean): JpegPlanes {
  try {
    return decodePlanes(bytes, scale, withChroma);
  } finally {
    // The shared reader and scan state must not keep the photo's memory alive until the next photo.
    sharedReader.reset(EMPTY, 0);
    sharedScan.release();
  }
}

function decodePlanes(bytes: Uint8Array, scale: number, withChroma: boolean): JpegPlanes {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw damaged("no start of image");
  const quantTables: (Uint16Array | undefined)[] = [];
  const dcTables: (HuffmanTable | undefined)[] = [];
  const acTables: (HuffmanTable | undefined)[] = [];
  let restartInterval = 0;
  let adobeTransform = -1;
  let frame: Frame | undefined;
  let luma: LumaState | undefined;
  let scans = 0;
  let position = 2;

  while (position < bytes.length) {
    if (bytes[position] !== 0xff) {
      // Tolerate junk between segments (some encoders leave a stray byte), as libjpeg does.
      position++;
      continue;
    }
    const marker = bytes[position + 1];
    position += 2;
    if (marker === 0xff) {
      position--; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd9) break; // end of image
    if (position + 2 > bytes.length) break;
    const length = (bytes[position] << 8) | bytes[position + 1];
    const start = position + 2;
    const end = position + length;
    if (length < 2 || end > bytes.length) throw damaged("segment runs past the end");

    if (marker === 0xdb) {
      for (let p = start; p < end; ) {
        const precision = bytes[p] >> 4;
        const id = bytes[p] & 15;
        if (precision > 1 || id > 3) throw damaged("bad quantisation table");
        if (p + 1 + 64 * (precision + 1) > end) throw damaged("quantisation table runs past its segment");
        p++;
        const table = new Uint16Array(64);
        for (let k = 0; k < 64; k++) {
          table[k] = precision ? (bytes[p] << 8) | bytes[p + 1] : bytes[p];
          p += precision ? 2 : 1;
        }
        quantTables[id] = table;
      }
    } else if (marker === 0xc4) {
      for (let p = start; p < end; ) {
        const tableClass = bytes[p] >> 4;
        const id = bytes[p] & 15;
        if (tableClass > 1 || id > 3) throw damaged("bad Huffman table");
        if (p + 17 > end) throw damaged("Huffman table runs past its segment");
        const counts = bytes.subarray(p + 1, p + 17);
        let total = 0;
        for (let i = 0; i < 16; i++) total += counts[i];
        // 256 symbols at most: a byte each, and each at most once.
        if (total > 256) throw damaged("bad Huffman table");
        if (p + 17 + total > end) throw damaged("Huffman table runs past its segment");
        const symbols = bytes.subarray(p + 17, p + 17 + total);
        (tableClass === 0 ? dcTables : acTables)[id] = buildHuffmanTable(counts, symbols);
        p += 17 + total;
      }
    } else if (marker === 0xdd) {
      if (length < 4) throw damaged("bad restart interval");
      restartInterval = (bytes[start] << 8) | bytes[start + 1];
    } else if (marker === 0xee && length >= 14 && String.fromCharCode(...bytes.subarray(start, start + 5)) === "Adobe") {
      adobeTransform = bytes[start + 11];
    } else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (frame) throw new UnsupportedJpegError("The JPEG has more than one frame (hierarchical), which we do not decode.");
      if (marker !== 0xc0 && marker !== 0xc1 && marker !== 0xc2) {
        const kind = marker === 0xc3 || marker === 0xc7 || marker === 0xcb || marker === 0xcf ? "lossless" : marker >= 0xc9 ? "arithmetic-coded" : "hierarchical";
        throw new UnsupportedJpegError(`The JPEG is ${kind}, a rare kind we do not decode ourselves.`);
      }
      frame = readFrame(bytes, start, end, marker === 0xc2, adobeTransform);
      luma = startLuma(frame, scale, quantTables);
      if (withChroma) startChroma(frame, scale);
    } else if (marker === 0xda) {
      if (!frame || !luma) throw damaged("scan before the frame header");
      if (++scans > JPEG_MAX_SCANS) throw new PermanentSketchError(JPEG_LIMIT_MESSAGES.tooManyScans);
      position = decodeScan(bytes, start, end, frame, luma, dcTables, acTables, restartInterval);
      continue;
    }
    position = end;
  }
  if (!frame || !luma) throw damaged("no frame header");
  if (frame.progressive) finishProgressive(frame, luma, quantTables);
  const planes: JpegPlanes = {
    data: luma.plane,
    width: luma.width,
    height: luma.height,
    sourceWidth: frame.width,
    sourceHeight: frame.height,
    scale,
  };
  const [, cb, cr] = frame.components;
  if (cb?.chroma && cr?.chroma) {
    planes.chroma = {
      cb: { data: cb.chroma.plane, width: cb.chroma.width, height: cb.chroma.height },
      cr: { data: cr.chroma.plane, width: cr.chroma.width, height: cr.chroma.height },
    };
  }
  return planes;
}

function readFrame(bytes: Uint8Array, start: number, end: number, progressive: boolean, adobeTransform: number): Frame {
  if (end - start < 6) throw damaged("frame header too short");
  const precision = bytes[start];
  const height = (bytes[start + 1] << 8) | bytes[start + 2];
  const width = (bytes[start + 3] << 8) | bytes[start + 4];
  const count = bytes[start + 5];
  if (precision !== 8) throw new UnsupportedJpegError(`The JPEG has ${precision}-bit samples, which we do not decode ourselves.`);
  if (height === 0 || width === 0) throw new UnsupportedJpegError("The JPEG gives its height only after the image data (DNL).");
  if (count !== 1 && count !== 3) {
    throw new UnsupportedJpegError(`The JPEG has ${count} colour components (CMYK?), which we do not decode ourselves.`);
  }
  if (end - start < 6 + count * 3) throw damaged("frame header too short");
  // decode/index.ts refuses this from the file's header already; the decoder allocates from the frame
  // it reads itself, so it checks again (a file can disagree with itself).
  if (width * height > MAX_SOURCE_PIXELS) throw damaged("the frame is larger than its header says");
  const components: Component[] = [];
  for (let i = 0; i < count; i++) {
    const p = start + 6 + i * 3;
    const h = bytes[p + 1] >> 4;
    const v = bytes[p + 1] & 15;
    if (h < 1 || h > 4 || v < 1 || v > 4) throw damaged("bad sampling factors");
    components.push({ id: bytes[p], chroma: null, h, v, quantTable: bytes[p + 2] & 3, blocksWide: 0, blocksHigh: 0, dcTable: 0, acTable: 0, predictor: 0 });
  }
  const ids = components.map((c) => c.id);
  if (new Set(ids).size !== ids.length) throw damaged("two components with the same id");
  if (count === 3 && (adobeTransform === 0 || (ids[0] === 0x52 && ids[1] === 0x47 && ids[2] === 0x42))) {
    throw new UnsupportedJpegError("The JPEG stores RGB rather than YCbCr, which we do not decode ourselves.");
  }
  const maxH = Math.max(...components.map((c) => c.h));
  const maxV = Math.max(...components.map((c) => c.v));
  if (count > 1 && (components[0].h !== maxH || components[0].v !== maxV)) {
    throw new UnsupportedJpegError("The JPEG's luma is subsampled, which we do not decode ourselves.");
  }
  for (const c of components) {
    c.blocksWide = Math.ceil(Math.ceil((width * c.h) / maxH) / 8);
    c.blocksHigh = Math.ceil(Math.ceil((height * c.v) / maxV) / 8);
  }
  // A single-component frame is never interleaved: its "MCU" is one block.
  const single = count === 1;
  const blocksPerMcu = components.reduce((sum, c) => sum + c.h * c.v, 0);
  if (!single && blocksPerMcu > MAX_BLOCKS_PER_MCU) throw damaged("bad sampling factors");
  const mcusWide = Math.ceil(width / (8 * (single ? 1 : maxH)));
  const mcusHigh = Math.ceil(height / (8 * (single ? 1 : maxV)));
  return {
    progressive,
    width,
    height,
    components,
    maxH: single ? 1 : maxH,
    maxV: single ? 1 : maxV,
    mcusWide,
    mcusHigh,
    blocks: single ? components[0].blocksWide * components[0].blocksHigh : mcusWide * mcusHigh * blocksPerMcu,
  };
}

interface LumaState {
  plane: Uint8Array;
  width: number;
  height: number;
  idct: ScaledIdct;
  /** Padded to whole MCUs: blocks per row of the coefficient store. */
  stride: number;
  /** Progressive only (empty otherwise): the coefficients the IDCT reads, before dequantisation. */
  coefficients: KeptCoefficients;
  block: Int32Array;
  quantTables: (Uint16Array | undefined)[];
  /** Coefficient visits so far (blocks visited times their spectral band), and the most allowed. */
  work: number;
  workBudget: number;
}

function startLuma(frame: Frame, scale: number, quantTables: (Uint16Array | undefined)[]): LumaState {
  const width = Math.ceil((frame.width * scale) / 8);
  const height = Math.ceil((frame.height * scale) / 8);
  const y = frame.components[0];
  const single = frame.components.length === 1;
  const stride = single ? y.blocksWide : frame.mcusWide * y.h;
  const rows = single ? y.blocksHigh : frame.mcusHigh * y.v;
  return {
    plane: new Uint8Array(width * height),
    width,
    height,
    idct: idctFor(scale),
    stride,
    coefficients: new KeptCoefficients(frame.progressive ? stride * rows : 0, scale),
    // 64 coefficients and the spare slot for those the scaled IDCT does not read (placeFor).
    block: new Int32Array(65),
    quantTables,
    work: 0,
    workBudget: JPEG_MAX_COEFFICIENT_PASSES * 64 * frame.blocks,
  };
}

/**
 * The N/8 scale of a chroma component's IDCT: the smallest that gives at least half the luma
 * plane's resolution along both axes (a 4:2:0 component's block covers twice the luma block's
 * pixels, so it takes the luma's own scale; a 4:4:4 one half of it, rounded up), at least 1 (each
 * block's mean alone, from its DC).
 */
export function chromaScaleFor(lumaScale: number, maxH: number, maxV: number, h: number, v: number): number {
  const subsampling = Math.max(maxH / h, maxV / v);
  return Math.min(8, Math.max(1, Math.ceil((lumaScale * subsampling) / 2)));
}

/**
 * A progressive component's coefficients, only those its N/8 IDCT reads, in the layout
 * SparseCoefficients describes. One class for luma and chroma, so the scan readers see one shape.
 */
class KeptCoefficients implements SparseCoefficients {
  kept: Int16Array;
  keptPerBlock: number;
  /** keptSlot[k]: the zigzag-k coefficient's place among a block's kept ones, or -1. */
  keptSlot: Int8Array;
  /** Two words per block, bit k set when zigzag-k (1..63) is non-zero. */
  nonZero: Uint32Array;
  /** Per block, the highest zigzag index holding a non-zero coefficient. */
  lastNonZero: Uint8Array;

  constructor(blocks: number, scale: number) {
    this.keptPerBlock = keptZigzag[scale].length;
    this.kept = new Int16Array(blocks * this.keptPerBlock);
    this.keptSlot = keptSlotFor[scale];
    this.nonZero = new Uint32Array(blocks * 2);
    this.lastNonZero = new Uint8Array(blocks);
  }
}

/** A chroma component's output plane, its IDCT, and (progressive) the coefficients that IDCT reads. */
class ChromaOutput {
  plane: Uint8Array;
  width: number;
  height: number;
  idct: ScaledIdct;
  /** placeFor and lastKeptFor of the IDCT's scale. */
  place: Uint8Array;
  lastKept: Uint8Array;
  /** The component's quantisation table, looked up per scan (a file may define it late). */
  quant: Uint16Array = NO_QUANT;
  /** Blocks per row of the coefficient store (padded to whole MCUs, as the luma's). */
  stride: number;
  /** Progressive only (empty otherwise): the coefficients the IDCT reads, before dequantisation. */
  coefficients: KeptCoefficients;

  constructor(frame: Frame, c: Component, scale: number) {
    this.width = Math.ceil((Math.ceil((frame.width * c.h) / frame.maxH) * scale) / 8);
    this.height = Math.ceil((Math.ceil((frame.height * c.v) / frame.maxV) * scale) / 8);
    this.plane = new Uint8Array(this.width * this.height);
    this.idct = idctFor(scale);
    this.place = placeFor[scale];
    this.lastKept = lastKeptFor[scale];
    this.stride = frame.mcusWide * c.h;
    this.coefficients = new KeptCoefficients(frame.progressive ? this.stride * frame.mcusHigh * c.v : 0, scale);
  }
}

/** Gives each chroma component of a colour frame its output (a grey frame has none). */
function startChroma(frame: Frame, lumaScale: number): void {
  if (frame.components.length !== 3) return;
  for (const c of frame.components.slice(1)) {
    c.chroma = new ChromaOutput(frame, c, chromaScaleFor(lumaScale, frame.maxH, frame.maxV, c.h, c.v));
  }
}

/** keepMasks[N][k] = 1 when the zigzag-k coefficient is inside the N x N an N/8 IDCT reads. */
const keepMasks = Array.from({ length: 9 }, (_, n) => Uint8Array.from({ length: 64 }, (_, k) => ((ZIGZAG[k] & 7) < n && ZIGZAG[k] >> 3 < n ? 1 : 0)));
/**
 * placeFor[N][k]: where a sequential block's zigzag-k coefficient goes in the IDCT's block: its
 * natural position when the N/8 IDCT reads it, else the spare slot 64 (never read).
 */
const placeFor = keepMasks.map((mask) => Uint8Array.from(mask, (keep, k) => (keep ? ZIGZAG[k] : 64)));
/** lastKeptFor[N][k]: the highest zigzag index at most k that the N/8 IDCT reads. */
const lastKeptFor = keepMasks.map((mask) => {
  let last = 0;
  return Uint8Array.from(mask, (keep, k) => (last = keep ? k : last));
});
/** keptZigzag[N]: the zigzag indices keepMasks[N] marks, in order. */
const keptZigzag = keepMasks.map((mask) => Uint8Array.from(Array.from(mask).flatMap((kept, k) => (kept ? [k] : []))));
/** keptUpTo[N][k]: how many of keptZigzag[N] are at most k. */
const keptUpTo = keepMasks.map((mask) => {
  let kept = 0;
  return Uint8Array.from(mask, (keep) => (kept += keep));
});

/** keptSlotFor[N][k]: the zigzag-k coefficient's index among keptZigzag[N], or -1 when not kept. */
const keptSlotFor = keptZigzag.map((kept) => {
  const slots = new Int8Array(64).fill(-1);
  kept.forEach((k, slot) => (slots[k] = slot));
  return slots;
});

/** Decodes one scan; returns the position of the marker after it. */
function decodeScan(
  bytes: Uint8Array,
  start: number,
  end: number,
  frame: Frame,
  luma: LumaState,
  dcTables: (HuffmanTable | undefined)[],
  acTables: (HuffmanTable | undefined)[],
  restartInterval: number,
): number {
  const count = bytes[start];
  if (count < 1 || count > frame.components.length || end - start !== 4 + count * 2) throw damaged("bad scan header");
  const scan: Component[] = [];
  for (let i = 0; i < count; i++) {
    const id = bytes[start + 1 + i * 2];
    const component = frame.components.find((c) => c.id === id);
    if (!component) throw damaged("scan names an unknown component");
    if (scan.includes(component)) throw damaged("scan names a component twice");
    component.dcTable = bytes[start + 2 + i * 2] >> 4;
    component.acTable = bytes[start + 2 + i * 2] & 15;
    scan.push(component);
  }
  const p = start + 1 + count * 2;
  const spectralStart = bytes[p];
  const spectralEnd = bytes[p + 1];
  const high = bytes[p + 2] >> 4;
  const low = bytes[p + 2] & 15;
  checkScanParameters(frame.progressive, count, spectralStart, spectralEnd, high, low);
  const lumaComponent = frame.components[0];
  const wanted = scan.some((c) => c === lumaComponent || c.chroma !== null);
  // A progressive AC scan holds one component; at 1/8 each of its blocks' pixel is its DC alone.
  const acScale = frame.progressive && spectralStart > 0 ? (scan[0] === lumaComponent ? luma.idct.size : scan[0].chroma?.idct.size) : 0;

  // A scan of nothing wanted is read past, not decoded (its entropy data ends at the next
  // marker); so is a progressive AC scan that the IDCT at 1/8 would not read.
  if (!wanted || acScale === 1) return findMarkerAfterScan(bytes, end);

  // The work this scan will do is known before it starts: its blocks times its band.
  const blocksVisited =
    count === 1 ? scan[0].blocksWide * scan[0].blocksHigh : frame.mcusWide * frame.mcusHigh * scan.reduce((sum, c) => sum + c.h * c.v, 0);
  luma.work += blocksVisited * (frame.progressive ? spectralEnd - spectralStart + 1 : 64);
  if (luma.work > luma.workBudget) throw new PermanentSketchError(JPEG_LIMIT_MESSAGES.tooMuchWork);

  const reader = sharedReader;
  reader.reset(bytes, end);
  const progressive = frame.progressive;
  const dcFirst = progressive && spectralStart === 0 && high === 0;
  for (const c of scan) {
    c.predictor = 0;
    const needsDc = !progressive || dcFirst;
    const needsAc = !progressive || (spectralStart !== 0);
    if (needsDc && !dcTables[c.dcTable]) throw damaged("missing DC Huffman table");
    if (needsAc && !acTables[c.acTable]) throw damaged("missing AC Huffman table");
    // Sequential and first AC passes read coefficients with values (refinements do not).
    if (!progressive || (spectralStart !== 0 && high === 0)) prepareFastAc(acTables[c.acTable]!);
  }
  const quant = luma.quantTables[lumaComponent.quantTable];
  if (!progressive && !quant && scan.includes(lumaComponent)) throw damaged("missing quantisation table");
  for (const c of scan) {
    if (!c.chroma || progressive) continue;
    const table = luma.quantTables[c.quantTable];
    if (!table) throw damaged("missing quantisation table");
    c.chroma.quant = table;
  }

  const state = sharedScan;
  state.progressive = progressive;
  state.dcFirst = dcFirst;
  state.acFirst = progressive && spectralStart !== 0 && high === 0;
  state.spectralStart = spectralStart;
  state.spectralEnd = spectralEnd;
  state.low = low;
  state.restartInterval = restartInterval;
  state.lumaComponent = lumaComponent;
  state.dcTables = dcTables;
  state.acTables = acTables;
  state.quant = quant ?? NO_QUANT;
  state.coefficients = luma.coefficients;
  state.block = luma.block;
  state.idct = luma.idct;
  state.scale = luma.idct.size;
  // Coefficients the scaled IDCT reads: row and column below the scale (all of them at 8/8).
  state.place = placeFor[luma.idct.size];
  state.lastKept = lastKeptFor[luma.idct.size];
  state.plane = luma.plane;
  state.planeWidth = luma.width;
  state.planeHeight = luma.height;
  state.stride = luma.stride;

  if (progressive && spectralStart !== 0) {
    const c = scan[0];
    if (c === lumaComponent) decodeProgressiveAcScan(state, c, luma.coefficients, luma.stride);
    else decodeProgressiveAcScan(state, c, c.chroma!.coefficients, c.chroma!.stride);
  } else if (scan.length === 1) {
    // Non-interleaved: every block of the component is its own MCU.
    const c = scan[0];
    let unit = 0;
    for (let row = 0; row < c.blocksHigh; row++) {
      for (let column = 0; column < c.blocksWide; column++, unit++) {
        restartIfDue(state, scan, unit);
        decodeBlock(state, c, row, column);
      }
    }
  } else {
    let unit = 0;
    for (let mcuRow = 0; mcuRow < frame.mcusHigh; mcuRow++) {
      for (let mcuColumn = 0; mcuColumn < frame.mcusWide; mcuColumn++, unit++) {
        restartIfDue(state, scan, unit);
        for (const c of scan) {
          for (let v = 0; v < c.v; v++) {
            for (let h = 0; h < c.h; h++) decodeBlock(state, c, mcuRow * c.v + v, mcuColumn * c.h + h);
          }
        }
      }
    }
  }
  return reader.endOfScan();
}

const NO_QUANT = new Uint16Array(0);
/** An empty store, for the scan state between photos (its type stays the same). */
const NO_COEFFICIENTS = new KeptCoefficients(0, 8);
const NO_TABLES: (HuffmanTable | undefined)[] = [];

/**
 * What decoding a block needs of its scan. Module-level functions take it explicitly (closures
 * made per scan were compiled again after every garbage collection), and there is one for the
 * isolate's life, filled per scan and emptied after each photo (`release`) so it holds no
 * photo's memory; every field keeps one type (empty arrays rather than undefined).
 */
class ScanState {
  reader = sharedReader;
  progressive = false;
  dcFirst = false;
  acFirst = false;
  spectralStart = 0;
  spectralEnd = 0;
  /** Successive approximation: the bit position this scan writes. */
  low = 0;
  restartInterval = 0;
  lumaComponent: Component | null = null;
  dcTables: (HuffmanTable | undefined)[] = NO_TABLES;
  acTables: (HuffmanTable | undefined)[] = NO_TABLES;
  quant: Uint16Array = NO_QUANT;
  /** The luma's store (progressive). */
  coefficients: KeptCoefficients = NO_COEFFICIENTS;
  block: Int32Array = new Int32Array(0);
  idct = idctFor(8);
  scale = 8;
  /** Where acCoefficients stores zigzag-k: see placeFor. */
  place: Uint8Array = EMPTY;
  /** lastKeptFor[scale] (see there). */
  lastKept: Uint8Array = EMPTY;
  plane: Uint8Array = EMPTY;
  planeWidth = 0;
  planeHeight = 0;
  /** Blocks per row of the coefficient buffer. */
  stride = 0;

  release(): void {
    this.lumaComponent = null;
    this.dcTables = NO_TABLES;
    this.acTables = NO_TABLES;
    this.quant = NO_QUANT;
    this.coefficients = NO_COEFFICIENTS;
    this.plane = EMPTY;
  }
}
const sharedScan = new ScanState();

/**
 * A progressive AC scan (one component; decodeScan skipped those not wanted) in one loop: the
 * blocks of an end-of-band run cost a decrement each, without the per-block dispatch of
 * decodeBlock (the scans of libjpeg's script visit every luma block six times or so).
 */
function decodeProgressiveAcScan(state: ScanState, c: Component, store: KeptCoefficients, stride: number): void {
  const reader = state.reader;
  const ac = state.acTables[c.acTable]!;
  const start = state.spectralStart;
  const end = state.spectralEnd;
  const low = state.low;
  const first = state.acFirst;
  const interval = state.restartInterval;
  let endOfBandRun = 0;
  let unit = 0;
  for (let row = 0; row < c.blocksHigh; row++) {
    for (let column = 0; column < c.blocksWide; column++, unit++) {
      if (interval !== 0 && unit > 0 && unit % interval === 0) {
        // A restart interval's end: the reader steps over the marker, and any run ends.
        reader.restart();
        c.predictor = 0;
        endOfBandRun = 0;
      }
      const block = row * stride + column;
      if (first) {
        if (endOfBandRun > 0) endOfBandRun--;
        else endOfBandRun = reader.acFirstPass(ac, store, block, start, end, low);
      } else {
        endOfBandRun = reader.acRefinement(ac, store, block, start, end, low, endOfBandRun);
        if (endOfBandRun < 0) throw damaged("bad refinement code");
      }
    }
  }
}

/** At a restart interval's end: the reader steps over the marker, and predictions start afresh. */
function restartIfDue(state: ScanState, scan: Component[], unit: number): void {
  const interval = state.restartInterval;
  if (interval !== 0 && unit > 0 && unit % interval === 0) {
    state.reader.restart();
    for (const c of scan) c.predictor = 0;
  }
}

/** One block of a component; (row, column) in blocks. */
function decodeBlock(state: ScanState, c: Component, row: number, column: number): void {
  if (state.progressive) decodeProgressiveBlock(state, c, row, column);
  else decodeSequentialBlock(state, c, row, column);
}

function decodeSequentialBlock(state: ScanState, c: Component, row: number, column: number): void {
  const reader = state.reader;
  const dc = state.dcTables[c.dcTable]!;
  const ac = state.acTables[c.acTable]!;
  if (c !== state.lumaComponent) {
    const chroma = c.chroma;
    if (chroma === null) {
      reader.skip(reader.symbol(dc));
      reader.skipAcCoefficients(ac);
    } else {
      decodeSequentialChromaBlock(state, c, chroma, row, column);
    }
    return;
  }
  const block = state.block;
  const quant = state.quant;
  c.predictor += reader.signed(reader.symbol(dc));
  block[0] = c.predictor * quant[0];
  // The last non-zero coefficient the IDCT reads: a block whose others are all outside its
  // N x N is still DC-only to it.
  const last = state.lastKept[reader.acCoefficients(ac, block, quant, state.place)];
  const scale = state.scale;
  // The IDCT leaves the block zeroed for the next.
  state.idct.run(block, state.plane, state.planeWidth, column * scale, row * scale, state.planeWidth, state.planeHeight, last);
}

/** A chroma block of a sequential scan, dequantised and drawn at its own scale into its plane. */
function decodeSequentialChromaBlock(state: ScanState, c: Component, chroma: ChromaOutput, row: number, column: number): void {
  const reader = state.reader;
  const block = state.block;
  const quant = chroma.quant;
  c.predictor += reader.signed(reader.symbol(state.dcTables[c.dcTable]!));
  block[0] = c.predictor * quant[0];
  const last = chroma.lastKept[reader.acCoefficients(state.acTables[c.acTable]!, block, quant, chroma.place)];
  const scale = chroma.idct.size;
  chroma.idct.run(block, chroma.plane, chroma.width, column * scale, row * scale, chroma.width, chroma.height, last);
}

function decodeProgressiveBlock(state: ScanState, c: Component, row: number, column: number): void {
  // DC scans only: AC scans go through decodeProgressiveAcScan. The DC is every store's slot 0.
  const reader = state.reader;
  const chroma = c.chroma;
  const isLuma = c === state.lumaComponent;
  if (!isLuma && chroma === null) {
    if (state.dcFirst) c.predictor += reader.signed(reader.symbol(state.dcTables[c.dcTable]!));
    else reader.bit();
    return;
  }
  const store = isLuma ? state.coefficients : chroma!.coefficients;
  const at = (row * (isLuma ? state.stride : chroma!.stride) + column) * store.keptPerBlock;
  if (state.dcFirst) {
    c.predictor += reader.signed(reader.symbol(state.dcTables[c.dcTable]!));
    store.kept[at] = c.predictor << state.low;
  } else if (reader.bit()) {
    store.kept[at] |= 1 << state.low;
  }
}

/**
 * Scan parameters as ITU T.81 G.1.1.1.1 and libjpeg require them: Ss <= Se <= 63 and Al <= 13
 * always; in a progressive JPEG a DC scan has Se = 0, an AC scan holds one component, and a
 * refinement scan adds one bit (Al = Ah - 1).
 */
function checkScanParameters(progressive: boolean, count: number, ss: number, se: number, ah: number, al: number): void {
  if (ss > se || se > 63) throw damaged("bad spectral selection in a scan");
  if (ah > 13 || al > 13) throw damaged("bad successive approximation in a scan");
  if (!progressive) return;
  if (ss === 0 ? se !== 0 : count !== 1) throw damaged("bad progressive scan");
  if (ah !== 0 && al !== ah - 1) throw damaged("bad successive approximation in a scan");
}

function finishProgressive(frame: Frame, luma: LumaState, quantTables: (Uint16Array | undefined)[]): void {
  const y = frame.components[0];
  const block = luma.block;
  finishComponent(y, luma.coefficients, luma.stride, quantTables, block, luma.idct, luma.plane, luma.width, luma.height);
  luma.coefficients = NO_COEFFICIENTS;
  for (const c of frame.components) {
    const chroma = c.chroma;
    if (chroma === null) continue;
    finishComponent(c, chroma.coefficients, chroma.stride, quantTables, block, chroma.idct, chroma.plane, chroma.width, chroma.height);
    chroma.coefficients = NO_COEFFICIENTS;
  }
}

/** A component's kept coefficients, dequantised, through its IDCT into its plane. */
function finishComponent(
  c: Component,
  store: KeptCoefficients,
  stride: number,
  quantTables: (Uint16Array | undefined)[],
  block: Int32Array,
  idct: ScaledIdct,
  plane: Uint8Array,
  width: number,
  height: number,
): void {
  const quant = quantTables[c.quantTable];
  if (!quant) throw damaged("missing quantisation table");
  const scale = idct.size;
  const kept = keptZigzag[scale];
  const upTo = keptUpTo[scale];
  const perBlock = store.keptPerBlock;
  const values = store.kept;
  const lastNonZero = store.lastNonZero;
  for (let row = 0; row < c.blocksHigh; row++) {
    for (let column = 0; column < c.blocksWide; column++) {
      const blockIndex = row * stride + column;
      const offset = blockIndex * perBlock;
      // The last kept non-zero one first (from the block's last non-zero one down), then every
      // kept one up to it without a branch each (which are zero is as good as random).
      let i = upTo[lastNonZero[blockIndex]] - 1;
      while (i > 0 && values[offset + i] === 0) i--;
      for (let j = 0; j <= i; j++) {
        const k = kept[j];
        block[ZIGZAG[k]] = values[offset + j] * quant[k];
      }
      idct.run(block, plane, width, column * scale, row * scale, width, height, kept[i]);
    }
  }
}
