import { createExecutionContext, env } from "cloudflare:test";
import decodePng from "@jsquash/png/decode";
import { describe, expect, it } from "vitest";
import type { SketchEnv } from "../../workers/sketch/consumer";
import { debugKeysFor } from "../../app/core/contracts/sketch";
import { edgeAndLineMask } from "../../workers/sketch/debug";
import { Sketcher } from "../../workers/sketch/index";
import type { GrayPlane } from "../../workers/sketch/kernel";
import { syntheticPhoto, toPng } from "./helpers";

const sketchEnv = env as unknown as SketchEnv;

function plane(width: number, height: number, value: (x: number, y: number) => number): GrayPlane {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = value(x, y);
  return { data, width, height };
}

describe("edgeAndLineMask", () => {
  it("marks ink black, a strong edge without ink grey, and the rest white", () => {
    // Input: a dark left half, a light right half (one strong vertical edge at x = 4).
    const input = plane(8, 3, (x) => (x < 4 ? 20 : 230));
    // Page: ink only in the first column, nothing along the edge.
    const page = plane(8, 3, (x) => (x === 0 ? 10 : 255));
    const mask = edgeAndLineMask(input, page);
    const row = [...mask.data.subarray(8, 16)];
    expect(row[0]).toBe(0);
    expect(row[3]).toBeGreaterThan(0);
    expect(row[3]).toBeLessThan(255);
    expect(row[4]).toBe(row[3]);
    expect(row[1]).toBe(255);
    expect(row[7]).toBe(255);
    // The page is binary; a pixel at mid-grey or lighter is paper, not a line.
    const faint = edgeAndLineMask(plane(2, 2, () => 128), plane(2, 2, () => 128));
    expect([...faint.data]).toEqual([255, 255, 255, 255]);
  });
});

describe("Sketcher.convert with debug", () => {
  it("stores the input plane and the mask as PNGs beside the sketch, at the photo's size when it is smaller than the page", async () => {
    const originalKey = "originals/debug-run";
    await env.IMAGES.put(originalKey, await toPng(syntheticPhoto(300, 200, 7)));
    const sketcher = new Sketcher(createExecutionContext(), sketchEnv);
    const outcome = await sketcher.convert(originalKey, { debug: true });
    if (!outcome.ok) throw new Error(outcome.reason);
    const { result } = outcome;
    expect(result.debug).toEqual(debugKeysFor(originalKey));
    expect(result.debug).toEqual({ imageKey: "debug/debug-run-image.png", maskKey: "debug/debug-run-mask.png" });
    for (const key of [result.debug!.imageKey, result.debug!.maskKey]) {
      const stored = await env.IMAGES.get(key);
      expect(stored?.httpMetadata?.contentType).toBe("image/png");
      const image = await decodePng(await stored!.arrayBuffer());
      // The page is drawn at print size (3300 x 2200); the 300 x 200 photo is not enlarged for the debug view.
      expect([result.width, result.height]).toEqual([3300, 2200]);
      expect([image.width, image.height]).toEqual([300, 200]);
    }
    // Without the flag nothing extra is made or answered.
    const plain = await sketcher.convert(originalKey);
    expect(plain.ok && plain.result.debug).toBeUndefined();
  });
});
