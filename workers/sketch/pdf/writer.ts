/**
 * A minimal PDF 1.7 file writer (ISO 32000-1 section 7.5): objects are written once, in any
 * order, straight to a ByteSink; the writer counts bytes so the cross-reference table at the
 * end gives every object's exact offset. Nothing written is kept.
 */
import type { ByteSink } from "./sink";

const ascii = new TextEncoder();

export class PdfWriter {
  /** Bytes written so far: the offset of the next byte. */
  private position = 0;
  /** offsets[n] = where object n starts; object 0 is the free-list head. */
  private readonly offsets: number[] = [0];
  private nextObject = 1;

  constructor(private readonly sink: ByteSink) {}

  /** Reserves an object number, so objects can refer to ones written later. */
  allocate(): number {
    return this.nextObject++;
  }

  async begin(): Promise<void> {
    // The second line's bytes above 127 tell transfer tools the file is binary (7.5.2).
    await this.raw("%PDF-1.7\n");
    await this.bytes(Uint8Array.of(0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a));
  }

  /** Writes object `number` with a dictionary, array or other direct value. */
  async object(number: number, value: string): Promise<void> {
    this.mark(number);
    await this.raw(`${number} 0 obj\n${value}\nendobj\n`);
  }

  /** Writes object `number` as a stream whose data are ASCII text (content streams). */
  async textStream(number: number, dictionary: string, content: string): Promise<void> {
    const data = ascii.encode(content);
    await this.stream(number, dictionary, data.length, [data]);
  }

  /**
   * Writes object `number` as a stream of `length` bytes given as chunks; `dictionary` holds
   * everything but /Length, e.g. "/Type /XObject ...".
   */
  async stream(number: number, dictionary: string, length: number, chunks: Iterable<Uint8Array>): Promise<void> {
    this.mark(number);
    await this.raw(`${number} 0 obj\n<< ${dictionary} /Length ${length} >>\nstream\n`);
    let written = 0;
    for (const chunk of chunks) {
      await this.bytes(chunk);
      written += chunk.length;
    }
    if (written !== length) throw new Error(`stream ${number}: /Length ${length} but ${written} bytes`);
    await this.raw("\nendstream\nendobj\n");
  }

  /** The cross-reference table and trailer; every allocated object must have been written. */
  async finish(trailer: string): Promise<void> {
    const size = this.nextObject;
    for (let n = 1; n < size; n++) if (this.offsets[n] === undefined) throw new Error(`object ${n} was never written`);
    const xref = this.position;
    let table = `xref\n0 ${size}\n0000000000 65535 f \n`;
    for (let n = 1; n < size; n++) table += `${String(this.offsets[n]).padStart(10, "0")} 00000 n \n`;
    await this.raw(`${table}trailer\n<< /Size ${size} ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`);
  }

  private mark(number: number): void {
    if (number < 1 || number >= this.nextObject) throw new Error(`object ${number} was not allocated`);
    if (this.offsets[number] !== undefined) throw new Error(`object ${number} written twice`);
    this.offsets[number] = this.position;
  }

  private raw(text: string): Promise<void> {
    return this.bytes(ascii.encode(text));
  }

  private async bytes(bytes: Uint8Array): Promise<void> {
    await this.sink.write(bytes);
    this.position += bytes.length;
  }
}

/** A number as PDF writes it: at most 3 decimals, no exponent, no "-0". */
export function pdfNumber(value: number): string {
  const rounded = Math.round(value * 1000) / 1000;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}
