/**
 * EXIF orientation applied to a decoded grey plane (the reading is app/core/images/
 * exif-orientation.ts). Orientation values (EXIF 2.3, tag 0x0112) say how the stored pixels must
 * be turned for display: 1 as stored, 2 mirrored left-right, 3 turned 180°, 4 mirrored
 * top-bottom, 5 transposed, 6 turned 90° clockwise, 7 transversed, 8 turned 90° counter-clockwise.
 */
import type { GrayPlane } from "../kernel";

/** The plane as it should be displayed. Orientation 1 returns the same plane; 2-4 work in place. */
export function applyOrientation(plane: GrayPlane, orientation: number): GrayPlane {
  const { data, width, height } = plane;
  if (orientation === 2 || orientation === 3) {
    for (let y = 0; y < height; y++) {
      const row = y * width;
      for (let left = row, right = row + width - 1; left < right; left++, right--) {
        const keep = data[left];
        data[left] = data[right];
        data[right] = keep;
      }
    }
  }
  if (orientation === 3 || orientation === 4) {
    const scratch = new Uint8Array(width);
    for (let top = 0, bottom = height - 1; top < bottom; top++, bottom--) {
      scratch.set(data.subarray(top * width, top * width + width));
      data.copyWithin(top * width, bottom * width, bottom * width + width);
      data.set(scratch, bottom * width);
    }
  }
  if (orientation < 5 || orientation > 8) return plane;

  // 5-8 swap width and height: display pixel (x, y) reads stored pixel (sx, sy).
  const out = new Uint8Array(width * height);
  const outWidth = height;
  const outHeight = width;
  for (let y = 0; y < outHeight; y++) {
    const target = y * outWidth;
    // Along a display row, the stored pixel moves by ±width (down or up a stored column).
    let source: number;
    let step: number;
    if (orientation === 5) {
      source = y; // (sx, sy) = (y, x)
      step = width;
    } else if (orientation === 6) {
      source = (height - 1) * width + y; // (y, H-1-x)
      step = -width;
    } else if (orientation === 7) {
      source = (height - 1) * width + (width - 1 - y); // (W-1-y, H-1-x)
      step = -width;
    } else {
      source = width - 1 - y; // (W-1-y, x)
      step = width;
    }
    for (let x = 0; x < outWidth; x++, source += step) out[target + x] = data[source];
  }
  return { data: out, width: outWidth, height: outHeight };
}
