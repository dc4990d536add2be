import { describe, expect, it } from "vitest";
import { MAX_PNG_WEBP_SOURCE_PIXELS, PRINT_LONG_EDGE_PX } from "~/core/engine-limits";
import { targetSize } from "~/lib/prepare-photo";

describe("targetSize (browser downscale before upload)", () => {
  it("shrinks a phone photo to the print long edge, keeping its aspect", () => {
    expect(targetSize({ width: 4032, height: 3024 }, "image/jpeg")).toEqual({ width: PRINT_LONG_EDGE_PX, height: 2475 });
    expect(targetSize({ width: 3024, height: 4032 }, "image/jpeg")).toEqual({ width: 2475, height: PRINT_LONG_EDGE_PX });
  });

  it("leaves a photo that already fits the page alone", () => {
    expect(targetSize({ width: 3300, height: 2200 }, "image/jpeg")).toBeNull();
    expect(targetSize({ width: 800, height: 600 }, "image/png")).toBeNull();
  });

  it("re-encodes a PNG or WebP that fits the page but not the server's decoding budget", () => {
    const square = { width: 3300, height: 3300 };
    expect(square.width * square.height).toBeGreaterThan(MAX_PNG_WEBP_SOURCE_PIXELS);
    expect(targetSize(square, "image/png")).toEqual(square);
    expect(targetSize(square, "image/jpeg")).toBeNull();
  });
});
