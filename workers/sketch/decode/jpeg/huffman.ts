/**
 * Entropy-coded segment reading for our luma-only JPEG decoder: a bit reader over the scan data
 * (byte stuffing, markers) and canonical Huffman tables with a 9-bit look-up for the short codes.
 */
import { PermanentSketchError, TRUNCATED_JPEG_REASON } from "../../errors";

/*
 * The hot code below (codeAt, acCoefficients and the other coefficient readers) declares
 * LOOKUP_BITS and FAST_AC_BITS again as local literals of the same value: change them together.
 * In optimised code each use of a module-level constant was a load of the module's slot and a
 * check of it, and every mask and shift was computed at run time (the decode of a 741 px photo
 * 3.26 → 3.14 ms); a local alias of the module constant gave back 2 % of that.
 */
const LOOKUP_BITS = 9;

export interface HuffmanTable {
  /** (code length << 8) | symbol for every LOOKUP_BITS prefix of a short code; 0 = longer code. */
  lookup: Uint16Array;
  /** Largest code of each length (index 1..16), -1 when there is none. */
  maxCode: Int32Array;
  /** symbols[valueOffset[length] + code] is the symbol of a code of that length. */
  valueOffset: Int32Array;
  symbols: Uint8Array;
  /**
   * Empty until `prepareFastAc` fills it for a sequential scan: for every FAST_AC_BITS prefix
   * that holds a whole AC code and its value bits, (value << 8) | (run << 4) | bits used, so a
   * common small coefficient costs one look-up; 0 = take the general path.
   */
  fastAc: Int32Array;
}

/**
 * A progressive component's coefficients where only some are kept (those its reduced-scale IDCT
 * reads; all 64 at full size): per block, keptPerBlock values at kept[block * keptPerBlock + keptSlot[k]] for
 * the zigzag indices k with keptSlot[k] >= 0, and for every k a bit saying whether it is non-zero
 * (nonZero[block * 2 + (k >> 5)] bit k & 31), which a refinement scan needs of all of them.
 */
export interface SparseCoefficients {
  kept: Int16Array;
  keptPerBlock: number;
  keptSlot: Int8Array;
  nonZero: Uint32Array;
  lastNonZero: Uint8Array;
}

/** Prefix length of the fast AC look-up: 10 bits cover most codes and their values in photos. */
const FAST_AC_BITS = 11;
const NOT_BUILT = new Int32Array(0);

/** From the DHT segment's 16 code-length counts and the symbols in code order. */
export function buildHuffmanTable(counts: Uint8Array, symbols: Uint8Array): HuffmanTable {
  const lookup = new Uint16Array(1 << LOOKUP_BITS);
  const maxCode = new Int32Array(18).fill(-1);
  const valueOffset = new Int32Array(18);
  let code = 0;
  let index = 0;
  for (let length = 1; length <= 16; length++) {
    const count = counts[length - 1];
    valueOffset[length] = index - code;
    for (let i = 0; i < count; i++, code++, index++) {
      if (code >= 1 << length) throw new PermanentSketchError("The JPEG file is damaged (bad Huffman table).");
      if (length <= LOOKUP_BITS) {
        const shift = LOOKUP_BITS - length;
        const entry = (length << 8) | symbols[index];
        for (let fill = code << shift, end = (code + 1) << shift; fill < end; fill++) lookup[fill] = entry;
      }
    }
    if (count) maxCode[length] = code - 1;
    code <<= 1;
  }
  maxCode[17] = 0x7fffffff; // sentinel
  return { lookup, maxCode, valueOffset, symbols, fastAc: NOT_BUILT };
}

/**
 * Fills table.fastAc (once per table). Called per scan rather than per DHT segment, so a file of
 * thousands of table definitions costs no more than it did, and only tables a scan uses pay.
 */
export function prepareFastAc(table: HuffmanTable): void {
  if (table.fastAc !== NOT_BUILT) return;
  const fast = new Int32Array(1 << FAST_AC_BITS);
  const { lookup, maxCode, valueOffset, symbols } = table;
  for (let prefix = 0; prefix < 1 << FAST_AC_BITS; prefix++) {
    let length = 0;
    let rs = 0;
    const entry = lookup[prefix >> (FAST_AC_BITS - LOOKUP_BITS)];
    if (entry !== 0) {
      length = entry >> 8;
      rs = entry & 0xff;
    } else {
      // Longer than the short look-up: as codeAt reads it, up to FAST_AC_BITS bits.
      for (let bits = LOOKUP_BITS + 1; bits <= FAST_AC_BITS; bits++) {
        const code = prefix >> (FAST_AC_BITS - bits);
        if (code <= maxCode[bits]) {
          const index = valueOffset[bits] + code;
          if (index >= 0 && index < symbols.length) {
            length = bits;
            rs = symbols[index];
          }
          break;
        }
      }
      if (length === 0) continue;
    }
    const size = rs & 15;
    // End of block and runs of 16 zeros (size 0), and values that do not fit, go the long way.
    if (size === 0 || length + size > FAST_AC_BITS) continue;
    const bits = (prefix >> (FAST_AC_BITS - length - size)) & ((1 << size) - 1);
    const value = bits < 1 << (size - 1) ? bits - (1 << size) + 1 : bits;
    fast[prefix] = (value << 8) | ((rs >> 4) << 4) | (length + size);
  }
  table.fastAc = fast;
}

/**
 * A table that lives as long as the isolate, so the tables' V8 shape does too: when every table
 * of a photo was garbage, the shape died at the next collection, the feedback of the readers'
 * hot loops was cleared with it, and they were compiled again on every photo.
 */
export const SHAPE_KEEPER_TABLE: HuffmanTable = buildHuffmanTable(new Uint8Array(16), new Uint8Array(0));

/**
 * The Huffman code at the top of a bit buffer holding `count` bits (at least 16), as
 * (its length << 8) | its symbol: the look-up for a short code, else a walk over the longer
 * lengths. Pure, so the readers whose bit buffer lives in locals call it too.
 */
function codeAt(table: HuffmanTable, buffer: number, count: number): number {
  const LOOKUP_BITS = 9;
  const entry = table.lookup[(buffer >>> (count - LOOKUP_BITS)) & ((1 << LOOKUP_BITS) - 1)];
  if (entry !== 0) return entry;
  const { maxCode } = table;
  for (let length = LOOKUP_BITS + 1; length <= 16; length++) {
    const code = (buffer >>> (count - length)) & ((1 << length) - 1);
    if (code <= maxCode[length]) return (length << 8) | table.symbols[table.valueOffset[length] + code];
  }
  throw new PermanentSketchError("The JPEG file is damaged (bad Huffman code).");
}

/**
 * Reads bits MSB first from the entropy-coded data starting at `position`. At a marker (0xFF not
 * followed by 0x00) it stops consuming and feeds zero bits, as libjpeg does; the caller then
 * handles the marker (a restart, or the end of the scan).
 */
export class BitReader {
  position: number;
  private buffer = 0;
  private count = 0;
  /** Zero bytes fed past the end of the data or at a marker. */
  private padding = 0;
  private bytes: Uint8Array;

  constructor(bytes: Uint8Array, position: number) {
    this.bytes = bytes;
    this.position = position;
  }

  /**
   * Starts reading other data. The decoder keeps one reader for the isolate's life: a reader made
   * per scan took its V8 shape with it at each garbage collection, and the optimised code of
   * every method was thrown away and compiled again on the next photo.
   */
  reset(bytes: Uint8Array, position: number): void {
    this.bytes = bytes;
    this.position = position;
    this.buffer = 0;
    this.count = 0;
    this.padding = 0;
  }

  /** Tops the buffer up with whole bytes to 25-32 bits: a symbol and its value (16 + 11) at most. */
  private fill(): void {
    // In locals, written back once: the fields are tagged values, and each byte stored all three.
    const bytes = this.bytes;
    let position = this.position;
    let buffer = this.buffer;
    let count = this.count;
    while (count <= 24) {
      let byte = 0;
      if (position < bytes.length) {
        byte = bytes[position];
        if (byte === 0xff) {
          if (bytes[position + 1] === 0x00) position += 2;
          else {
            byte = 0;
            this.feedPadding();
          }
        } else {
          position++;
        }
      } else {
        this.feedPadding();
      }
      buffer = (buffer << 8) | byte;
      count += 8;
    }
    this.position = position;
    this.buffer = buffer;
    this.count = count;
  }

  /** A zero byte fed at a marker or past the data; too many means the data is cut short. */
  private feedPadding(): void {
    if (++this.padding > 4096) throw new PermanentSketchError(TRUNCATED_JPEG_REASON);
  }

  bits(n: number): number {
    if (n === 0) return 0;
    if (this.count < n) this.fill();
    this.count -= n;
    return (this.buffer >>> this.count) & ((1 << n) - 1);
  }

  bit(): number {
    if (this.count < 1) this.fill();
    this.count -= 1;
    return (this.buffer >>> this.count) & 1;
  }

  /** n bits as a signed coefficient (JPEG's EXTEND of a magnitude category). */
  signed(n: number): number {
    if (n === 0) return 0;
    if (this.count < n) this.fill();
    this.count -= n;
    const value = (this.buffer >>> this.count) & ((1 << n) - 1);
    return value < 1 << (n - 1) ? value - (1 << n) + 1 : value;
  }

  /** Skips n bits (a coefficient we do not keep). */
  skip(n: number): void {
    if (this.count < n) this.fill();
    this.count -= n;
  }

  symbol(table: HuffmanTable): number {
    if (this.count < 16) this.fill();
    const code = codeAt(table, this.buffer, this.count);
    this.count -= code >> 8;
    return code & 0xff;
  }

  /**
   * A sequential block's AC coefficients (after its DC), dequantised into `block` at
   * block[place[k]]: the natural position of the coefficients the scaled IDCT reads, and one
   * spare slot past them (index 64) for the rest, which are read past. Storing every one, rather
   * than branching on which to keep, spares a mispredicted branch per coefficient at 6/8.
   * Returns the zigzag index of the last non-zero coefficient (0 when none), kept or not: an
   * upper bound for the IDCT, which limits it to its N x N.
   *
   * The hot loop of a baseline decode, so the bit buffer lives in locals here and is written
   * back only to refill and at the end.
   */
  acCoefficients(table: HuffmanTable, block: Int32Array, quant: Uint16Array, place: Uint8Array): number {
    const FAST_AC_BITS = 11;
    const fastAc = table.fastAc;
    let buffer = this.buffer;
    let count = this.count;
    let last = 0;
    for (let k = 1; k < 64; ) {
      if (count < 16) {
        this.count = count;
        this.fill();
        buffer = this.buffer;
        count = this.count;
      }
      // A short code and its value in one look-up (prepareFastAc ran for this scan's tables).
      const fast = fastAc[(buffer >>> (count - FAST_AC_BITS)) & ((1 << FAST_AC_BITS) - 1)];
      if (fast !== 0) {
        count -= fast & 15;
        k += (fast >> 4) & 15;
        if (k > 63) break;
        block[place[k]] = (fast >> 8) * quant[k];
        last = k;
        k++;
        continue;
      }
      const code = codeAt(table, buffer, count);
      count -= code >> 8;
      const rs = code & 0xff;
      const size = rs & 15;
      if (size === 0) {
        if (rs !== 0xf0) break; // end of block
        k += 16;
        continue;
      }
      k += rs >> 4;
      if (count < size) {
        this.count = count;
        this.fill();
        buffer = this.buffer;
        count = this.count;
      }
      count -= size;
      if (k > 63) break;
      const bits = (buffer >>> count) & ((1 << size) - 1);
      block[place[k]] = (bits < 1 << (size - 1) ? bits - (1 << size) + 1 : bits) * quant[k];
      last = k;
      k++;
    }
    this.count = count;
    return last;
  }

  /**
   * One block of a progressive scan's first pass over an AC band (start..end, low = its bit
   * position) into `store`: each coefficient marked non-zero and, when its IDCT reads it, kept
   * (shifted up by low); lastNonZero[block] raised to the last one placed. Returns the end-of-band
   * run that follows this block (the blocks still to skip), 0 when there is none.
   * Bit buffer in locals, and the fast look-up, as in acCoefficients.
   */
  acFirstPass(table: HuffmanTable, store: SparseCoefficients, block: number, start: number, end: number, low: number): number {
    const FAST_AC_BITS = 11;
    const fastAc = table.fastAc;
    const kept = store.kept;
    const slots = store.keptSlot;
    const offset = block * store.keptPerBlock;
    const scale = 1 << low;
    let buffer = this.buffer;
    let count = this.count;
    // The block's non-zero bits, zigzag 0-31 and 32-63, written back once.
    let lowBits = 0;
    let highBits = 0;
    let last = 0;
    let endOfBandRun = 0;
    for (let k = start; k <= end; ) {
      if (count < 16) {
        this.count = count;
        this.fill();
        buffer = this.buffer;
        count = this.count;
      }
      let value: number;
      const fast = fastAc[(buffer >>> (count - FAST_AC_BITS)) & ((1 << FAST_AC_BITS) - 1)];
      if (fast !== 0) {
        count -= fast & 15;
        k += (fast >> 4) & 15;
        if (k > 63) break;
        value = fast >> 8;
      } else {
        const code = codeAt(table, buffer, count);
        count -= code >> 8;
        const rs = code & 0xff;
        const run = rs >> 4;
        const size = rs & 15;
        if (count < 15) {
          this.count = count;
          this.fill();
          buffer = this.buffer;
          count = this.count;
        }
        if (size === 0) {
          if (run < 15) {
            // End of band here and in the next (1 << run) - 1 + (run more bits) blocks.
            count -= run;
            endOfBandRun = (1 << run) - 1 + ((buffer >>> count) & ((1 << run) - 1));
            break;
          }
          k += 16;
          continue;
        }
        k += run;
        if (k > 63) break;
        count -= size;
        const bits = (buffer >>> count) & ((1 << size) - 1);
        value = bits < 1 << (size - 1) ? bits - (1 << size) + 1 : bits;
      }
      if (k < 32) lowBits |= 1 << k;
      else highBits |= 1 << (k - 32);
      const slot = slots[k];
      if (slot >= 0) kept[offset + slot] = value * scale;
      last = k;
      k++;
    }
    this.count = count;
    store.nonZero[block * 2] |= lowBits;
    store.nonZero[block * 2 + 1] |= highBits;
    if (last > store.lastNonZero[block]) store.lastNonZero[block] = last;
    return endOfBandRun;
  }

  /**
   * One block of a progressive AC refinement scan (ITU T.81 G.1.2.3) on `store`: a correction bit
   * for each coefficient of the band already non-zero (kept or not; only kept ones change), and
   * new coefficients of ±(1 << low) placed after `run` still-zero ones, marked and, if kept,
   * stored. endOfBandRun: blocks left in the current end-of-band run (this block then only takes
   * correction bits). Returns the run left after this block, or -1 for a code no refinement scan
   * may hold. Bit buffer in locals, as in acCoefficients.
   *
   * lastNonZero[block] bounds the walk for correction bits: past it every coefficient is still
   * zero (most of a block's band, in smooth areas), so the walk stops there.
   */
  acRefinement(table: HuffmanTable, store: SparseCoefficients, block: number, start: number, end: number, low: number, endOfBandRun: number): number {
    const plus = 1 << low;
    const minus = -1 << low;
    const kept = store.kept;
    const slots = store.keptSlot;
    const offset = block * store.keptPerBlock;
    let lowBits = store.nonZero[block * 2];
    let highBits = store.nonZero[block * 2 + 1];
    let buffer = this.buffer;
    let count = this.count;
    let k = start;
    if (endOfBandRun === 0) {
      while (k <= end) {
        if (count < 16) {
          this.count = count;
          this.fill();
          buffer = this.buffer;
          count = this.count;
        }
        const code = codeAt(table, buffer, count);
        count -= code >> 8;
        const rs = code & 0xff;
        let run = rs >> 4;
        const size = rs & 15;
        if (count < 15) {
          this.count = count;
          this.fill();
          buffer = this.buffer;
          count = this.count;
        }
        let value = 0;
        if (size !== 0) {
          if (size !== 1) {
            this.count = count;
            return -1;
          }
          count--;
          value = ((buffer >>> count) & 1) !== 0 ? plus : minus;
        } else if (run !== 15) {
          count -= run;
          endOfBandRun = (1 << run) + ((buffer >>> count) & ((1 << run) - 1));
          break;
        }
        while (k <= end) {
          if (((k < 32 ? lowBits >>> k : highBits >>> (k - 32)) & 1) !== 0) {
            if (count < 1) {
              this.count = count;
              this.fill();
              buffer = this.buffer;
              count = this.count;
            }
            count--;
            if (((buffer >>> count) & 1) !== 0 && slots[k] >= 0) refineKept(kept, offset + slots[k], plus, minus);
          } else {
            if (run === 0) break;
            run--;
          }
          k++;
        }
        if (value !== 0 && k <= end) {
          if (k < 32) lowBits |= 1 << k;
          else highBits |= 1 << (k - 32);
          const slot = slots[k];
          if (slot >= 0) kept[offset + slot] = value;
          if (k > store.lastNonZero[block]) store.lastNonZero[block] = k;
        }
        k++;
      }
    }
    if (endOfBandRun > 0) {
      const stop = Math.min(end, store.lastNonZero[block]);
      for (; k <= stop; k++) {
        if (((k < 32 ? lowBits >>> k : highBits >>> (k - 32)) & 1) === 0) continue;
        if (count < 1) {
          this.count = count;
          this.fill();
          buffer = this.buffer;
          count = this.count;
        }
        count--;
        if (((buffer >>> count) & 1) !== 0 && slots[k] >= 0) refineKept(kept, offset + slots[k], plus, minus);
      }
      endOfBandRun--;
    }
    this.count = count;
    store.nonZero[block * 2] = lowBits;
    store.nonZero[block * 2 + 1] = highBits;
    return endOfBandRun;
  }

  /** Reads past a sequential block's AC coefficients (a chroma block, not kept). */
  skipAcCoefficients(table: HuffmanTable): void {
    const FAST_AC_BITS = 11;
    const fastAc = table.fastAc;
    let buffer = this.buffer;
    let count = this.count;
    for (let k = 1; k < 64; ) {
      if (count < 16) {
        this.count = count;
        this.fill();
        buffer = this.buffer;
        count = this.count;
      }
      const fast = fastAc[(buffer >>> (count - FAST_AC_BITS)) & ((1 << FAST_AC_BITS) - 1)];
      if (fast !== 0) {
        count -= fast & 15;
        k += ((fast >> 4) & 15) + 1;
        continue;
      }
      const code = codeAt(table, buffer, count);
      count -= code >> 8;
      const rs = code & 0xff;
      const size = rs & 15;
      if (size === 0) {
        if (rs !== 0xf0) break;
        k += 16;
        continue;
      }
      if (count < size) {
        this.count = count;
        this.fill();
        buffer = this.buffer;
        count = this.count;
      }
      count -= size;
      k += (rs >> 4) + 1;
    }
    this.count = count;
  }

  /**
   * At a restart interval: drop the partial byte, step over the RSTn marker (searching forward
   * if the data before it was damaged), and start afresh.
   */
  restart(): void {
    this.count = 0;
    this.buffer = 0;
    this.padding = 0;
    const bytes = this.bytes;
    let position = this.position;
    while (position + 1 < bytes.length) {
      if (bytes[position] === 0xff) {
        const next = bytes[position + 1];
        if (next >= 0xd0 && next <= 0xd7) {
          this.position = position + 2;
          return;
        }
        if (next !== 0x00 && next !== 0xff) break; // another marker: leave it for the caller
      }
      position++;
    }
    this.position = position;
  }

  /** Position of the marker that ends this scan (skipping any data the decoder did not read). */
  endOfScan(): number {
    return findMarkerAfterScan(this.bytes, this.position);
  }
}

/** A refinement scan's correction bit of 1 for a non-zero coefficient: its bit `plus` joins its magnitude. */
function refineKept(kept: Int16Array, at: number, plus: number, minus: number): void {
  const coefficient = kept[at];
  if ((coefficient & plus) === 0) kept[at] = coefficient >= 0 ? coefficient + plus : coefficient + minus;
}

/** First marker at or after `position` that is neither stuffing nor a restart. */
export function findMarkerAfterScan(bytes: Uint8Array, position: number): number {
  const length = bytes.length;
  // From 0xFF to 0xFF with indexOf (native): a skipped scan can be megabytes.
  while (position + 1 < length) {
    const at = bytes.indexOf(0xff, position);
    if (at < 0 || at + 1 >= length) break;
    const next = bytes[at + 1];
    if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return at;
    position = next === 0xff ? at + 1 : at + 2;
  }
  return length;
}
