/** The planes every stage reads and writes. */
/** One byte per pixel, row-major, 0 = black ink, 255 = white paper. */
export interface GrayPlane {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The photo's colour beside its grey: the JPEG's own Cb and Cr (128 = no colour), often at a
 * lower resolution than the grey (chroma subsampling, or only each block's mean).
 */
export interface ChromaPlanes {
  cb: GrayPlane;
  cr: GrayPlane;
}

/** Rec. 601 luma weights in 1/256ths (77 + 150 + 29 = 256), so grey needs integer maths only. */
const LUMA_R = 77;
const LUMA_G = 150;
const LUMA_B = 29;

/**
 * RGBA (4 bytes per pixel) to one grey byte per pixel, for callers that still hold RGBA.
 * Transparent pixels become white paper, as they would print.
 */
export function rgbaToGray(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GrayPlane {
  const count = width * height;
  if (rgba.length < count * 4) throw new RangeError(`expected ${count * 4} RGBA bytes, got ${rgba.length}`);
  const data = new Uint8Array(count);
  for (let i = 0, p = 0; i < count; i++, p += 4) {
    const luma = (LUMA_R * rgba[p] + LUMA_G * rgba[p + 1] + LUMA_B * rgba[p + 2] + 128) >> 8;
    const alpha = rgba[p + 3];
    data[i] = alpha === 255 ? luma : ((luma * alpha + 255 * (255 - alpha) + 127) / 255) | 0;
  }
  return { data, width, height };
}

/** RGBA to JPEG's Cb and Cr (full-range BT.601), for callers that hold RGBA. */
export function rgbaToChroma(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): ChromaPlanes {
  const count = width * height;
  const cb = new Uint8Array(count);
  const cr = new Uint8Array(count);
  for (let i = 0, p = 0; i < count; i++, p += 4) {
    const r = rgba[p];
    const g = rgba[p + 1];
    const b = rgba[p + 2];
    cb[i] = Math.min(255, Math.max(0, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)));
    cr[i] = Math.min(255, Math.max(0, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)));
  }
  return { cb: { data: cb, width, height }, cr: { data: cr, width, height } };
}
