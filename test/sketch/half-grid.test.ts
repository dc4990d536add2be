import { describe, expect, it } from "vitest";
import { tuningFor, type GrayPlane } from "../../workers/sketch/kernel";
import { blockMeans, halfGridGaussian } from "../../workers/sketch/kernel/blur";
import { coarseOutlines, drawOutlines, type OutlinePlane } from "../../workers/sketch/kernel/outlines";
import type { FixedPlane } from "../../workers/sketch/kernel/plane";
import { upsampleGrid, upsamplePlaneRow, upsampleTaps } from "../../workers/sketch/kernel/render";

/** A step from 0 to `high` at x = edge, blurred by a Gaussian of sigma, at x (the exact profile). */
function blurredStep(x: number, edge: number, sigma: number, high: number): number {
  return high * normalCdf((x - edge) / sigma);
}

/** Φ by its Abramowitz-Stegun approximation (7.1.26, error under 1.5e-7). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(z) / Math.SQRT2));
  const erf = 1 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152073 + t * 1.061405429)))) * Math.exp(-(z * z) / 2);
  return z >= 0 ? 0.5 + erf / 2 : 0.5 - erf / 2;
}

describe("half grid of a small photo's coarse outlines", () => {
  it("blurs on 2 x 2 block means as a Gaussian of the whole sigma would", () => {
    // A vertical step between pixels 20 and 21 (at x = 20.5), on a plane of 41 x 9 pixels.
    const width = 41;
    const height = 9;
    const high = 200 << 8;
    const data = new Uint16Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 21; x < width; x++) data[y * width + x] = high;
    for (const sigma of [1.15, 1.41, 1.8, 2.16]) {
      const half = halfGridGaussian({ data, width, height, scale: 1 }, sigma);
      expect([half.width, half.height, half.scale]).toEqual([21, 5, 2]);
      // Cell x is the blur at pixel 2x + 0.5; within 3 % of the step of the exact profile there (the block mean is a box, not a Gaussian: 2.5 % at most, at sigma 1.15).
      for (let cx = 0; cx < half.width - 1; cx++) {
        const expected = blurredStep(2 * cx + 0.5, 20.5, sigma, high);
        expect(Math.abs(half.data[2 * half.width + cx] - expected), `sigma ${sigma}, cell ${cx}`).toBeLessThan(0.03 * high);
      }
    }
  });

  it("makes 2 x 2, 4 x 4 and 8 x 8 block means, the partial blocks of an odd width and height averaging what they have", () => {
    for (const factor of [2, 4, 8]) {
      for (const [width, height] of [[8, 6], [7, 5], [16, 9], [19, 13], [23, 17]]) {
        const data = new Uint16Array(width * height).map((_, i) => (i * 7919) % 65536);
        const means = blockMeans({ data, width, height, scale: 1 }, factor);
        expect([means.width, means.height, means.scale]).toEqual([Math.ceil(width / factor), Math.ceil(height / factor), factor]);
        for (let by = 0; by < means.height; by++) {
          for (let bx = 0; bx < means.width; bx++) {
            const values: number[] = [];
            for (let y = factor * by; y < Math.min(height, factor * (by + 1)); y++) {
              for (let x = factor * bx; x < Math.min(width, factor * (bx + 1)); x++) values.push(data[y * width + x]);
            }
            const mean = values.reduce((a, b) => a + b, 0) / values.length;
            expect(means.data[by * means.width + bx], `${factor} x ${factor} block ${bx},${by} of ${width}x${height}`).toBe(Math.round(mean));
          }
        }
      }
    }
  });

  it("finds a small photo's outlines on the half grid, drawn joined", () => {
    // A dark disc on a light ground, 300 x 200 px: small enough to stay at working resolution.
    const data = new Uint16Array(300 * 200);
    for (let y = 0; y < 200; y++) for (let x = 0; x < 300; x++) data[y * 300 + x] = ((x - 150) ** 2 + (y - 100) ** 2 < 60 ** 2 ? 50 : 200) << 8;
    const outline = coarseOutlines({ data, width: 300, height: 200, scale: 1 }, 0, tuningFor("standard"));
    expect([outline.scale, outline.joined]).toEqual([2, true]);
    const page: GrayPlane = { data: new Uint8Array(300 * 200).fill(255), width: 300, height: 200 };
    drawOutlines(page, outline);
    // The circle is drawn near radius 60 all the way round: ink within 2 px of it in every 10° arc.
    for (let degrees = 0; degrees < 360; degrees += 10) {
      let found = false;
      for (let step = 0; step <= 10 && !found; step++) {
        const angle = ((degrees + step) * Math.PI) / 180;
        for (let r = 58; r <= 62 && !found; r++) {
          const x = Math.round(150 + r * Math.cos(angle));
          const y = Math.round(100 + r * Math.sin(angle));
          found = page.data[y * 300 + x] === 0;
        }
      }
      expect(found, `ink near ${degrees}°`).toBe(true);
    }
    // A line, not 2 x 2 blocks: each cell inks its sample pixel and the joins to its neighbours
    // (a staircase corner one more), well under the 4 pixels per cell blocks would ink.
    const cells = outline.data.reduce((count, v) => count + v, 0);
    const ink = page.data.reduce((count, v) => count + (v === 0 ? 1 : 0), 0);
    expect(ink).toBeGreaterThan(2 * cells);
    expect(ink).toBeLessThan(3 * cells);
  });

  it("joins neighbouring cells with the pixel between their samples", () => {
    const page: GrayPlane = { data: new Uint8Array(8 * 6).fill(255), width: 8, height: 6 };
    // Cells (0,0) (1,1) (2,1) (3,2): a diagonal step, a horizontal step, a diagonal step.
    const cells = new Uint8Array(4 * 3);
    for (const [x, y] of [[0, 0], [1, 1], [2, 1], [3, 2]]) cells[y * 4 + x] = 1;
    const outline: OutlinePlane = { data: cells, width: 4, height: 3, scale: 2, joined: true };
    drawOutlines(page, outline);
    const inked = [...page.data.keys()].filter((i) => page.data[i] === 0).map((i) => [i % 8, Math.floor(i / 8)].join(","));
    expect(inked).toEqual(["0,0", "1,1", "2,2", "3,2", "4,2", "5,3", "6,4"]);
  });
});

describe("the half grid's page upsampled to the working size", () => {
  /** Bilinear in 1/256ths, pixel by pixel, as upsampleGrid defines it: x at (x + 0.5) / 2 - 0.5 on the grid. */
  function bilinearReference(grid: Uint8Array, gridWidth: number, gridHeight: number, width: number, height: number): Uint8Array {
    const tap = (x: number, size: number) => {
      const position = Math.min(size - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
      const i = Math.max(0, Math.min(size - 2, Math.floor(position)));
      return { i, w: size > 1 ? Math.round((position - i) * 256) : 0, next: size > 1 ? 1 : 0 };
    };
    const page = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      const r = tap(y, gridHeight);
      const bottom = Math.min(r.i + 1, gridHeight - 1);
      for (let x = 0; x < width; x++) {
        const c = tap(x, gridWidth);
        const along = (row: number) => grid[row * gridWidth + c.i] * (256 - c.w) + grid[row * gridWidth + c.i + c.next] * c.w;
        page[y * width + x] = (along(r.i) * (256 - r.w) + along(bottom) * r.w + 32768) >> 16;
      }
    }
    return page;
  }

  it("writes paper where no grid cell it reads is ink, and interpolates the rest exactly", () => {
    // Mostly paper with ink scattered at chunk edges, the last column and row, and odd sizes:
    // the chunks written as paper without interpolating must be exactly those that are paper.
    for (const [gridWidth, gridHeight, width, height] of [[101, 37, 201, 73], [64, 20, 128, 40], [9, 5, 17, 9], [1, 3, 1, 5]]) {
      const grid = new Uint8Array(gridWidth * gridHeight).fill(255);
      let state = 3;
      const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
      for (let i = 0; i < grid.length; i++) if (random() < 0.02) grid[i] = Math.floor(random() * 200);
      for (const x of [7, 8, 15, 16, gridWidth - 1]) if (x < gridWidth) grid[(gridHeight >> 1) * gridWidth + x] = 0;
      grid[grid.length - 1] = 40;
      const page = new Uint8Array(width * height).fill(7); // every pixel must be written
      upsampleGrid(grid, gridWidth, gridHeight, page, width, height);
      const reference = bilinearReference(grid, gridWidth, gridHeight, width, height);
      let differ = 0;
      for (let i = 0; i < page.length; i++) differ += +(page[i] !== reference[i]);
      expect(differ, `${gridWidth} x ${gridHeight}`).toBe(0);
      expect(page.some((v) => v < 255)).toBe(true);
    }
  });
});

describe("a reduced plane's rows upsampled for the render pass", () => {
  it("gives, for every pixel, the bilinear taps' value, at scales 2 and 4 (patterned) and 8 (tables)", () => {
    let state = 11;
    const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    // Working widths whose plane ends on a whole sample, half a sample or a few pixels short,
    // a one-sample plane, and planes with a sample to spare (the stretch between samples then
    // ends at the page's edge, on any pixel of a pair or quad).
    for (const scale of [2, 4, 8]) {
      for (const [width, spare] of [1, scale - 1, scale, 2 * scale + 1, 37, 451, 600, 741].flatMap((w) => [[w, 0], [w, 1]])) {
        const planeWidth = Math.ceil(width / scale) + spare;
        const data = new Uint16Array(2 * planeWidth);
        for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 65536);
        const { index, weight } = upsampleTaps(width, planeWidth, scale);
        const out = new Int32Array(width + 3).fill(-1); // every pixel must be written, none past width
        upsamplePlaneRow(data, planeWidth, planeWidth, scale, index, weight, out, 1, width);
        const next = planeWidth > 1 ? 1 : 0;
        let differ = 0;
        for (let x = 0; x < width; x++) {
          const i = planeWidth + index[x];
          const expected = (data[i] * (256 - weight[x]) + data[i + next] * weight[x] + 8) >> 4;
          differ += +(out[1 + x] !== expected);
        }
        expect(differ, `scale ${scale}, width ${width}, plane ${planeWidth}`).toBe(0);
        expect(out[0]).toBe(-1);
        expect(out[width + 1]).toBe(-1);
      }
    }
  });
});
