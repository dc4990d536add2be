import { describe, expect, it } from "vitest";
import type { GrayPlane } from "../../workers/sketch/kernel/plane";
import { areaResize, resampleTo } from "../../workers/sketch/kernel/resize";

/** A plane of repeatable noise (a linear congruential generator), so a wrong tap shows. */
function noisePlane(width: number, height: number, seed: number): GrayPlane {
  let state = seed;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 24;
  return { data, width, height };
}

/** Bilinear interpolation written out pixel by pixel: what resampleTo computes when a plane grows. */
function bilinearByPixel({ data, width, height }: GrayPlane, outWidth: number, outHeight: number): Uint8Array {
  const out = new Uint8Array(outWidth * outHeight);
  for (let y = 0; y < outHeight; y++) {
    const fy = Math.min(height - 1, Math.max(0, (y + 0.5) * (height / outHeight) - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(height - 1, y0 + 1);
    for (let x = 0; x < outWidth; x++) {
      const fx = Math.min(width - 1, Math.max(0, (x + 0.5) * (width / outWidth) - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(width - 1, x0 + 1);
      const wx = fx - x0;
      const wy = fy - y0;
      const top = data[y0 * width + x0] * (1 - wx) + data[y0 * width + x1] * wx;
      const bottom = data[y1 * width + x0] * (1 - wx) + data[y1 * width + x1] * wx;
      out[y * outWidth + x] = Math.round(top * (1 - wy) + bottom * wy);
    }
  }
  return out;
}

describe("resampleTo (chroma brought to the analysis grid)", () => {
  it("grows a plane byte for byte as bilinear interpolation pixel by pixel does, also where only one side grows", () => {
    const sizes: [number, number, number, number][] = [
      [640, 400, 1100, 688], // a 2560 x 1600 photo's chroma to its grid
      [3, 2, 17, 9],
      [1, 1, 5, 4],
      [7, 300, 20, 150], // wider, but shorter
      [250, 5, 100, 40], // taller, but narrower
      [99, 61, 100, 62],
    ];
    sizes.forEach(([width, height, outWidth, outHeight], k) => {
      const plane = noisePlane(width, height, 17 + k);
      const grown = resampleTo(plane, outWidth, outHeight);
      expect([grown.width, grown.height]).toEqual([outWidth, outHeight]);
      expect(Buffer.from(grown.data).equals(Buffer.from(bilinearByPixel(plane, outWidth, outHeight))), `${width}x${height} to ${outWidth}x${outHeight}`).toBe(true);
    });
  });

  it("shrinks by area averaging when neither side grows", () => {
    const plane = noisePlane(300, 200, 5);
    expect(resampleTo(plane, 110, 70).data).toEqual(areaResize(plane, 110, 70).data);
  });
});
