import { describe, expect, it } from "vitest";
import type { GrayPlane } from "../../workers/sketch/kernel";
import { edgeRecall, RECALL_TOLERANCE_PX } from "../../workers/sketch/measure/likeness";

/** A grey photo: a dark disc of radius 40 px on light paper, 200 × 150. */
function discPhoto(): GrayPlane {
  const width = 200;
  const height = 150;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = Math.hypot(x + 0.5 - 100, y + 0.5 - 75) < 40 ? 50 : 200;
  return { data, width, height };
}

/**
 * A white page `scale` times the photo's size with a 2 px black circle of `radius` photo px around
 * the disc's centre, drawn over the angles [0, `turn` × 2π).
 */
function circlePage(scale: number, radius: number, turn = 1): GrayPlane {
  const width = 200 * scale;
  const height = 150 * scale;
  const data = new Uint8Array(width * height).fill(255);
  for (let step = 0; step < 4000 * turn; step++) {
    const angle = (step / 4000) * 2 * Math.PI;
    for (let thickness = -1; thickness <= 0; thickness++) {
      const x = Math.round((100 + radius * Math.cos(angle)) * scale + thickness);
      const y = Math.round((75 + radius * Math.sin(angle)) * scale + thickness);
      if (x >= 0 && y >= 0 && x < width && y < height) data[y * width + x] = 0;
    }
  }
  return { data, width, height };
}

describe("edge recall: how much of the photo's strongest edges the page draws", () => {
  it("is nearly all of them for a page that draws the disc's outline, whatever the page's size", () => {
    const photo = discPhoto();
    expect(edgeRecall(photo, circlePage(2, 40))).toBeGreaterThan(0.9);
    expect(edgeRecall(photo, circlePage(1, 40))).toBeGreaterThan(0.9);
  });

  it("is about half for half the outline, and none for a blank page", () => {
    const photo = discPhoto();
    const half = edgeRecall(photo, circlePage(2, 40, 0.5));
    expect(half).toBeGreaterThan(0.4);
    expect(half).toBeLessThan(0.6);
    expect(edgeRecall(photo, circlePage(2, 0, 0))).toBe(0);
  });

  it("forgives a line a pixel or two off the edge, not one drawn well away from it", () => {
    const photo = discPhoto();
    expect(edgeRecall(photo, circlePage(2, 41.5))).toBeGreaterThan(0.8);
    expect(edgeRecall(photo, circlePage(2, 40 + 4 * RECALL_TOLERANCE_PX))).toBeLessThan(0.05);
  });

  it("is 1 on a photo with no edge at all: there is nothing to lose", () => {
    const flat = { data: new Uint8Array(200 * 150).fill(128), width: 200, height: 150 };
    expect(edgeRecall(flat, circlePage(2, 0, 0))).toBe(1);
  });
});
