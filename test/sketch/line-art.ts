/**
 * Stand-ins for finished sketches, for the PDF tests in workerd and in Node (no cloudflare:test
 * import here): white paper with dark rings of soft-edged strokes, like the kernel's line art.
 */
import type { GrayPlane } from "../../workers/sketch/kernel";

export function lineArt(width: number, height: number, seed: number): GrayPlane {
  let state = seed >>> 0;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296);
  const data = new Uint8Array(width * height).fill(255);
  const scale = Math.min(width, height);
  const stroke = Math.max(2, Math.round(scale / 300));
  for (let k = 0; k < 12; k++) {
    const cx = random() * width;
    const cy = random() * height;
    const radius = (0.05 + random() * 0.25) * scale;
    const x0 = Math.max(0, Math.floor(cx - radius - stroke));
    const y0 = Math.max(0, Math.floor(cy - radius - stroke));
    for (let y = y0; y < Math.min(height, cy + radius + stroke); y++) {
      for (let x = x0; x < Math.min(width, cx + radius + stroke); x++) {
        const distance = Math.abs(Math.hypot(x - cx, y - cy) - radius);
        if (distance < stroke) data[y * width + x] = Math.round(30 + (distance / stroke) * 60);
      }
    }
  }
  return { width, height, data };
}
