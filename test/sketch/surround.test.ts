import { describe, expect, it } from "vitest";
import { surroundPlane } from "../../workers/sketch/kernel/surround";
import type { FixedPlane } from "../../workers/sketch/kernel/plane";

function fixed(width: number, height: number, value: (x: number, y: number) => number): FixedPlane {
  const data = new Uint16Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = value(x, y) << 8;
  return { data, width, height, scale: 1 };
}

describe("surround stage", () => {
  it("is strong inside a texture and weak beside a lone outline", () => {
    // Left half: a checker texture of 4 px cells; right half: flat with one vertical edge.
    const plane = fixed(400, 200, (x, y) => (x < 200 ? (((x >> 2) + (y >> 2)) % 2 ? 200 : 60) : x < 300 ? 200 : 60));
    const surround = surroundPlane(plane, 1, 8);
    const at = (x: number, y: number) => {
      const sx = Math.min(surround.width - 1, Math.floor(x / surround.scale));
      const sy = Math.min(surround.height - 1, Math.floor(y / surround.scale));
      return surround.data[sy * surround.width + sx];
    };
    expect(at(100, 100)).toBeGreaterThan(3 * at(300, 100));
    expect(at(250, 100)).toBe(0); // flat, far from any edge
  });
});
