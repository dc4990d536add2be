/**
 * The fuzzer's worst cases (decision 005), kept as a small fixed corpus in
 * test/fixtures/hostile (see its README): each file, through the Worker's real decode entry in
 * workerd, ends as a picture or as a PermanentSketchError whose reason a customer can read,
 * never a RangeError, a TypeError or an array bigger than the isolate's memory. `npm run fuzz -- --save
 * test/fixtures/hostile` refreshes the corpus. The JPEG repros in hostile/jpeg/ (the slowest and
 * the one that hung a reused jSquash decoder) run here too; the JPEG decoder's own limits (scan
 * count, scan parameters, work budget) have crafted files in jpeg-limits.test.ts.
 */
import { describe, expect, it } from "vitest";
import { decodeToGrayPlane } from "../../workers/sketch/decode";
import { isPermanent } from "../../workers/sketch/errors";
import { bytesOfDataUrl } from "./exif-fixtures";

const corpus = import.meta.glob(["../fixtures/hostile/*.{png,webp,gif,bmp}", "../fixtures/hostile/jpeg/*.jpg"], {
  query: "?inline",
  eager: true,
  import: "default",
}) as Record<string, string>;

/** A Worker isolate has 128 MB for everything; one array bigger than that would end it. */
const ISOLATE_BYTES = 128 * 2 ** 20;
const TYPED_ARRAYS = ["Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array"] as const;

/**
 * Runs `decode` with the typed array constructors refusing any single array over the isolate's
 * memory. The test pool does not enforce the Worker's memory limit (a 4 GB array is lazily
 * mapped and "works" here), so without this a decoder that allocates from unchecked header
 * fields would pass.
 */
async function withIsolateSizedArrays<T>(decode: () => Promise<T>): Promise<T> {
  const originals = TYPED_ARRAYS.map((name) => [name, globalThis[name]] as const);
  for (const [name, Base] of originals) {
    const Guarded = class extends (Base as unknown as new (...args: unknown[]) => object) {
      constructor(...args: unknown[]) {
        if (typeof args[0] === "number" && args[0] * Base.BYTES_PER_ELEMENT > ISOLATE_BYTES) {
          throw new Error(`OVER ISOLATE MEMORY: new ${name}(${args[0]})`);
        }
        super(...args);
      }
    };
    Object.defineProperty(globalThis, name, { value: Guarded, configurable: true, writable: true });
  }
  try {
    return await decode();
  } finally {
    for (const [name, Base] of originals) Object.defineProperty(globalThis, name, { value: Base, configurable: true, writable: true });
  }
}

describe("hostile images corpus", () => {
  it("holds files of every format the fuzzer mutates", () => {
    const formats = new Set(Object.keys(corpus).map((path) => path.split(".").pop()));
    expect([...formats].sort()).toEqual(["bmp", "gif", "jpg", "png", "webp"]);
  });

  for (const [path, dataUrl] of Object.entries(corpus)) {
    const name = path.split("/").pop()!;
    it(`${name} ends as a picture or a permanent error`, async () => {
      let outcome: unknown;
      try {
        const bytes = bytesOfDataUrl(dataUrl);
        const plane = await withIsolateSizedArrays(() => decodeToGrayPlane(bytes));
        expect(plane.width).toBeGreaterThan(0);
        expect(plane.height).toBeGreaterThan(0);
        expect(plane.data.length).toBe(plane.width * plane.height);
        return;
      } catch (error) {
        outcome = error;
      }
      expect(isPermanent(outcome), String((outcome as Error)?.stack ?? outcome)).toBe(true);
      // A reason for the customer: one sentence or two, no codec or stack text.
      const reason = (outcome as Error).message;
      expect(reason).toMatch(/^[A-Z].*[.]$/);
      expect(reason).not.toMatch(/\bat \w+ \(|RangeError|TypeError|unreachable|wasm/i);
    });
  }
});
