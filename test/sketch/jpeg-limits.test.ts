import { describe, expect, it } from "vitest";
import { JPEG_LIMIT_MESSAGES } from "../../app/core/engine-messages";
import { JPEG_MAX_SCANS } from "../../app/core/engine-limits";
import { decodeToGrayPlane } from "../../workers/sketch/decode";
import { isPermanent } from "../../workers/sketch/errors";

// Hostile progressive JPEGs, written here bit by bit: a grey frame, one quantisation table, a DC
// table and an AC table of one code each ("0"), and scans chosen by each test. The AC table's only
// symbol is an end-of-band run of 2^14 + 14 bits (up to 32767 blocks), so a scan over a whole
// 12 MP frame is a few dozen bytes: the shape of a refinement-scan bomb.

interface Scan {
  ss: number;
  se: number;
  ah: number;
  al: number;
}

class BitWriter {
  readonly bytes: number[] = [];
  private byte = 0;
  private used = 0;

  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.byte = (this.byte << 1) | ((value >> i) & 1);
      if (++this.used === 8) {
        this.bytes.push(this.byte);
        if (this.byte === 0xff) this.bytes.push(0x00); // byte stuffing
        this.byte = 0;
        this.used = 0;
      }
    }
  }

  /** Pads the last byte with ones, as encoders do. */
  finish(): number[] {
    while (this.used !== 0) this.write(1, 1);
    return this.bytes;
  }
}

const segment = (marker: number, payload: number[]) => [0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 255, ...payload];

function scanData(scan: Scan, blocks: number): number[] {
  const bits = new BitWriter();
  if (scan.ss === 0) {
    // DC: a first scan codes "difference 0" ("0"), a refinement scan one bit, per block.
    for (let i = 0; i < blocks; i++) bits.write(0, 1);
  } else {
    // AC, first or refinement: end-of-band runs of 32767 blocks until the frame is covered.
    for (let covered = 0; covered < blocks; covered += 32767) {
      bits.write(0, 1);
      bits.write(32767 - (1 << 14), 14);
    }
  }
  return bits.finish();
}

function progressiveGreyJpeg(width: number, height: number, scans: Scan[]): Uint8Array {
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const counts = (n: number) => [n, ...new Array(15).fill(0)];
  const bytes = [
    0xff, 0xd8,
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]),
    ...segment(0xc2, [8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]),
    // DC table 0: one code, symbol 0 (difference 0). AC table 0: one code, symbol 0xE0 (EOBRUN, 14 bits).
    ...segment(0xc4, [0x00, ...counts(1), 0x00, 0x10, ...counts(1), 0xe0]),
  ];
  for (const scan of scans) {
    bytes.push(...segment(0xda, [1, 1, 0x00, scan.ss, scan.se, (scan.ah << 4) | scan.al]), ...scanData(scan, blocks));
  }
  bytes.push(0xff, 0xd9);
  return new Uint8Array(bytes);
}

/** libjpeg's usual shape for a grey progressive JPEG: DC, AC in two bands, then refinements. */
const ordinaryScans: Scan[] = [
  { ss: 0, se: 0, ah: 0, al: 1 },
  { ss: 1, se: 5, ah: 0, al: 2 },
  { ss: 6, se: 63, ah: 0, al: 2 },
  { ss: 1, se: 63, ah: 2, al: 1 },
  { ss: 0, se: 0, ah: 1, al: 0 },
  { ss: 1, se: 63, ah: 1, al: 0 },
];

async function refusal(bytes: Uint8Array): Promise<Error> {
  const outcome = await decodeToGrayPlane(bytes).then(
    () => new Error("decoded"),
    (error: Error) => error,
  );
  expect(isPermanent(outcome), outcome.message).toBe(true);
  return outcome;
}

describe("our JPEG decoder against hostile progressive files", () => {
  it("decodes the hand-written progressive JPEG when its scans are ordinary (the files below differ only in their scans)", async () => {
    const plane = await decodeToGrayPlane(progressiveGreyJpeg(64, 48, ordinaryScans));
    expect([plane.width, plane.height]).toEqual([64, 48]);
    // Every coefficient is zero: mid-grey everywhere.
    expect(new Set(plane.data)).toEqual(new Set([128]));
  });

  it("refuses a progressive JPEG with 1000 scans, saying so", async () => {
    const dcRefinements = Array.from({ length: 999 }, () => ({ ss: 0, se: 0, ah: 1, al: 0 }));
    const error = await refusal(progressiveGreyJpeg(64, 48, [{ ss: 0, se: 0, ah: 0, al: 1 }, ...dcRefinements]));
    expect(error.message).toBe(JPEG_LIMIT_MESSAGES.tooManyScans);
    expect(error.message).toContain(String(JPEG_MAX_SCANS));
  });

  it("refuses a scan whose spectral band ends past coefficient 63 (Se = 64)", async () => {
    const error = await refusal(progressiveGreyJpeg(64, 48, [{ ss: 0, se: 0, ah: 0, al: 0 }, { ss: 1, se: 64, ah: 0, al: 0 }]));
    expect(error.message).toBe(JPEG_LIMIT_MESSAGES.damaged("bad spectral selection in a scan"));
  });

  it("refuses a spectral band that starts after it ends (Ss > Se)", async () => {
    const error = await refusal(progressiveGreyJpeg(64, 48, [{ ss: 0, se: 0, ah: 0, al: 0 }, { ss: 9, se: 5, ah: 0, al: 0 }]));
    expect(error.message).toBe(JPEG_LIMIT_MESSAGES.damaged("bad spectral selection in a scan"));
  });

  it("refuses a successive-approximation shift past 13 bits (Al = 14)", async () => {
    const error = await refusal(progressiveGreyJpeg(64, 48, [{ ss: 0, se: 0, ah: 0, al: 14 }]));
    expect(error.message).toBe(JPEG_LIMIT_MESSAGES.damaged("bad successive approximation in a scan"));
  });

  it("refuses a refinement scan that does not add exactly one bit (Ah = 5, Al = 0)", async () => {
    const error = await refusal(progressiveGreyJpeg(64, 48, [{ ss: 0, se: 0, ah: 0, al: 5 }, { ss: 0, se: 0, ah: 5, al: 0 }]));
    expect(error.message).toBe(JPEG_LIMIT_MESSAGES.damaged("bad successive approximation in a scan"));
  });

  it("refuses a refinement-scan bomb: 60 AC refinement scans of long end-of-band runs over a 12 MP frame", async () => {
    // Under the scan cap, and each scan only ~15 bytes, but each walks all 187,500 blocks' 63 AC
    // coefficients: the work budget stops it, not the scan count.
    const bomb = [{ ss: 0, se: 0, ah: 0, al: 1 }, ...Array.from({ length: 59 }, () => ({ ss: 1, se: 63, ah: 1, al: 0 }))];
    const bytes = progressiveGreyJpeg(4000, 3000, bomb);
    expect(bytes.length).toBeLessThan(40_000);
    const error = await refusal(bytes);
    expect(error.message).toBe(JPEG_LIMIT_MESSAGES.tooMuchWork);
  });
});
