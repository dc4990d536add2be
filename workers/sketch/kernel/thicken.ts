/**
 * Line weight: a binary page's ink grown by `radius` pixels in every direction (a square
 * structuring element, dilation of the ink), so the thinnest kept line is at least
 * 2 × radius + 1 pixels wide (3 px ≈ 0.25 mm, 5 px ≈ 0.42 mm at 300 dpi) and gaps narrower than
 * 2 × radius close. On 0/255 bytes the minimum of a window is the bitwise AND of its bytes, so the
 * vertical pass works on four pixels per 32-bit word.
 */
import type { GrayPlane } from "./plane";

export function thickenLines(page: GrayPlane, radius: number): void {
  if (radius < 1) return;
  const { width, height, data } = page;
  // Along rows: a pixel becomes ink when any pixel within radius on its row is ink.
  const row = new Uint8Array(width);
  for (let y = 0; y < height; y++) {
    const offset = y * width;
    row.set(data.subarray(offset, offset + width));
    let lastInk = -radius - 1; // last ink column seen at or left of x + radius
    for (let x = 0; x < Math.min(radius, width); x++) if (row[x] === 0) lastInk = x;
    for (let x = 0; x < width; x++) {
      const ahead = x + radius;
      if (ahead < width && row[ahead] === 0) lastInk = ahead;
      data[offset + x] = lastInk >= x - radius ? 0 : 255;
    }
  }
  // Along columns: the AND of the rows within radius (a copy of the row-dilated page is read).
  const source = data.slice();
  const aligned = width % 4 === 0 && data.byteOffset % 4 === 0;
  if (aligned) {
    const words = width >> 2;
    const src = new Uint32Array(source.buffer, 0, source.length >> 2);
    const dst = new Uint32Array(data.buffer, data.byteOffset, data.length >> 2);
    for (let y = 0; y < height; y++) {
      const from = Math.max(0, y - radius);
      const to = Math.min(height - 1, y + radius);
      const out = y * words;
      for (let x = 0; x < words; x++) {
        let v = src[from * words + x];
        for (let k = from + 1; k <= to; k++) v &= src[k * words + x];
        dst[out + x] = v;
      }
    }
    return;
  }
  for (let y = 0; y < height; y++) {
    const from = Math.max(0, y - radius);
    const to = Math.min(height - 1, y + radius);
    const out = y * width;
    for (let x = 0; x < width; x++) {
      let v = source[from * width + x];
      for (let k = from + 1; k <= to; k++) v &= source[k * width + x];
      data[out + x] = v;
    }
  }
}
