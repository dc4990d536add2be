/** The summed-area tables the face detector and the boundary model read (kernel/summed-area.ts). */
import { describe, expect, it } from "vitest";
import { integrate, rectangleMean } from "../../workers/sketch/kernel/summed-area";

describe("summed-area tables", () => {
  const width = 5;
  const height = 4;
  const data = Float32Array.from({ length: width * height }, (_, i) => (i * 7) % 11);
  const direct = (x0: number, y0: number, x1: number, y1: number, square = false) => {
    let sum = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += square ? data[y * width + x] ** 2 : data[y * width + x];
    return sum / ((x1 - x0) * (y1 - y0));
  };

  it("gives every rectangle's mean, and of the squares, as a direct sum does", () => {
    const sums = new Float64Array((width + 1) * (height + 1));
    const squares = new Float64Array(sums.length);
    integrate({ data, width, height }, sums, squares);
    for (let y0 = 0; y0 < height; y0++)
      for (let y1 = y0 + 1; y1 <= height; y1++)
        for (let x0 = 0; x0 < width; x0++)
          for (let x1 = x0 + 1; x1 <= width; x1++) {
            expect(rectangleMean(sums, width, height, x0, y0, x1, y1)).toBeCloseTo(direct(x0, y0, x1, y1), 10);
            expect(rectangleMean(squares, width, height, x0, y0, x1, y1)).toBeCloseTo(direct(x0, y0, x1, y1, true), 10);
          }
  });

  it("clips a rectangle to the plane, and gives NaN for one wholly outside", () => {
    const sums = new Float64Array((width + 1) * (height + 1));
    integrate({ data, width, height }, sums);
    expect(rectangleMean(sums, width, height, -3, -2, 2, 2)).toBeCloseTo(direct(0, 0, 2, 2), 10);
    expect(rectangleMean(sums, width, height, 3, 2, 9, 9)).toBeCloseTo(direct(3, 2, 5, 4), 10);
    expect(rectangleMean(sums, width, height, -4, 0, 0, 3)).toBeNaN();
    expect(rectangleMean(sums, width, height, 1, 4, 3, 6)).toBeNaN();
  });

  it("can be written again into a table that held a larger plane (the detector's pyramid reuses its buffers)", () => {
    const sums = new Int32Array(64).fill(99);
    const squares = new Float64Array(64).fill(99);
    const bytes = Uint8Array.from(data);
    integrate({ data: bytes, width, height }, sums, squares);
    expect(rectangleMean(sums, width, height, 0, 0, width, height)).toBeCloseTo(direct(0, 0, width, height), 10);
    expect(rectangleMean(squares, width, height, 1, 1, 4, 3)).toBeCloseTo(direct(1, 1, 4, 3, true), 10);
  });
});
