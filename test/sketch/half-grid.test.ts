import { describe, expect, it } from "vitest";
import { tuningFor, type GrayPlane } from "../../workers/sketch/kernel";
import { gaussianHalved } from "../../workers/sketch/kernel/blur";
import { coarseOutlines, drawOutlines, type OutlinePlane } from "../../workers/sketch/kernel/outlines";
import type { FixedPlane } from "../../workers/sketch/kernel/plane";
import { seededRandom } from "./helpers";

/** The Gaussian blur of `plane` at pixel (x, y), edges repeated, computed the slow, obvious way. */
function blurredAt(plane: FixedPlane, sigma: number, x: number, y: number): number {
  const radius = Math.ceil(3 * sigma);
  let sum = 0;
  let total = 0;
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const weight = Math.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
      const sx = Math.min(plane.width - 1, Math.max(0, x + dx));
      const sy = Math.min(plane.height - 1, Math.max(0, y + dy));
      sum += weight * plane.data[sy * plane.width + sx];
      total += weight;
    }
  }
  return sum / total;
}

describe("half grid of a small photo's coarse outlines", () => {
  it("blurs and keeps every second pixel of every second row", () => {
    const random = seededRandom(5);
    const width = 41;
    const height = 30;
    const data = new Uint16Array(width * height).map(() => Math.floor(random() * 65535));
    const plane: FixedPlane = { data, width, height, scale: 1 };
    const halved = gaussianHalved(plane, 1.8);
    expect([halved.width, halved.height, halved.scale]).toEqual([21, 15, 2]);
    let worst = 0;
    for (let cy = 0; cy < halved.height; cy++) {
      for (let cx = 0; cx < halved.width; cx++) {
        worst = Math.max(worst, Math.abs(halved.data[cy * halved.width + cx] - blurredAt(plane, 1.8, 2 * cx, 2 * cy)));
      }
    }
    // Rounded to the 8.8 grid twice (after each axis): within a level of the exact blur.
    expect(worst).toBeLessThanOrEqual(1);
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
