/**
 * The debug view's planes (docs/product.md §5.2): what the kernel started from and where it drew.
 * Built beside the kernel from its input and output, so the kernel stays untouched:
 * - image: the decoded grey plane, area-reduced to the page's size when larger;
 * - mask: black where the finished page has ink (the kept lines), grey where the input has a
 *   strong edge (3x3 Sobel above the kernel's edgeLow) that left no ink, white elsewhere.
 * Only made when asked for (debug conversions of the free preview), never for book photos.
 */
import { debugKeysFor, type DebugPlaneKeys } from "../../app/core/contracts/sketch";
import { encodeGrayPng } from "./encode";
import { areaResize, type GrayPlane } from "./kernel";

const LINE = 0;
const EDGE_WITHOUT_INK = 170;
const PAPER = 255;
/** The finished page is binary (0 or 255); anything darker than mid-grey is ink. */
const INK_BELOW = 128;
/** A 3x3 Sobel magnitude (grey levels x 8) above this is a strong edge of the photo. */
const STRONG_EDGE_SOBEL = 70;

export async function storeDebugPlanes(
  bucket: R2Bucket,
  originalKey: string,
  gray: GrayPlane,
  page: GrayPlane,
): Promise<DebugPlaneKeys> {
  const keys = debugKeysFor(originalKey);
  // Compared at the smaller of the two sizes: a small photo's page is drawn at print size, larger than the photo.
  const smaller = gray.width * gray.height < page.width * page.height;
  const input = smaller ? gray : areaResize(gray, page.width, page.height);
  const lines = smaller ? areaResize(page, gray.width, gray.height) : page;
  const image = await encodeGrayPng(input);
  await bucket.put(keys.imageKey, image, { httpMetadata: { contentType: "image/png" } });
  const mask = await encodeGrayPng(edgeAndLineMask(input, lines));
  await bucket.put(keys.maskKey, mask, { httpMetadata: { contentType: "image/png" } });
  return keys;
}

/** See the module comment; `input` and `page` have the same size. */
export function edgeAndLineMask(input: GrayPlane, page: GrayPlane): GrayPlane {
  const { width, height, data } = input;
  const mask = new Uint8Array(width * height).fill(PAPER);
  const threshold = STRONG_EDGE_SOBEL ** 2;
  for (let y = 0; y < height; y++) {
    const up = (y > 0 ? y - 1 : y) * width;
    const row = y * width;
    const down = (y + 1 < height ? y + 1 : y) * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if (page.data[i] < INK_BELOW) {
        mask[i] = LINE;
        continue;
      }
      const left = x > 0 ? x - 1 : x;
      const right = x + 1 < width ? x + 1 : x;
      const gx =
        data[up + right] + 2 * data[row + right] + data[down + right] - data[up + left] - 2 * data[row + left] - data[down + left];
      const gy =
        data[down + left] + 2 * data[down + x] + data[down + right] - data[up + left] - 2 * data[up + x] - data[up + right];
      if (gx * gx + gy * gy > threshold) mask[i] = EDGE_WITHOUT_INK;
    }
  }
  return { data: mask, width, height };
}
