/**
 * A photo's region hierarchy in R2 (beside its pages, deleted with them): the hierarchy and
 * what the quality score needs of the photo, so a level change draws and scores a page without
 * the photo being fetched or decoded again (decision 016: a level change is a cut of the stored tree).
 *
 * One deflated object: a small header (with each level's score), the hierarchy
 * (kernel/regions/serialise.ts), then the photo's summary (size as uploaded, sharpness, the toned
 * grey on the analysis grid).
 */
import { deflateSync, inflateSync } from "node:zlib";
import { DETAIL_LEVELS, type DetailLevel } from "../../app/core/engine-limits";
import { deserialiseHierarchy, serialiseHierarchy, type GrayPlane, type RegionHierarchy } from "./kernel";

export interface PhotoSummary {
  /** Size of the photo as decoded (before the kernel's reductions). */
  sourceWidth: number;
  sourceHeight: number;
  /** Variance of the Laplacian of the decoded grey (measure/quality.ts, sharpness). */
  laplacianVariance: number;
  /** The toned grey on the analysis grid. */
  grey: GrayPlane;
}

export interface StoredRegions {
  hierarchy: RegionHierarchy;
  photo: PhotoSummary;
  /** Each level's quality score, measured when the regions were found, so a level change only draws. */
  scores: Record<DetailLevel, number>;
}

const MAGIC = 0x52454732; // "REG2"
/** magic, hierarchy length, source width and height, grid width and height, the variance as a double, a score byte per level. */
const HEADER_BYTES = 6 * 4 + 8 + 4;
const SCORES_AT = 32;

export function packRegions({ hierarchy, photo, scores }: StoredRegions): Uint8Array {
  const tree = serialiseHierarchy(hierarchy);
  const raw = new Uint8Array(HEADER_BYTES + tree.length + photo.grey.data.length);
  const view = new DataView(raw.buffer);
  [MAGIC, tree.length, photo.sourceWidth, photo.sourceHeight, photo.grey.width, photo.grey.height].forEach((value, k) => view.setUint32(4 * k, value, true));
  view.setFloat64(24, photo.laplacianVariance, true);
  DETAIL_LEVELS.forEach((level, k) => (raw[SCORES_AT + k] = scores[level]));
  raw.set(tree, HEADER_BYTES);
  raw.set(photo.grey.data, HEADER_BYTES + tree.length);
  return deflateSync(raw, { level: 6 });
}

/** The stored regions, or null for bytes that are not a whole object of this format (then the job runs again). */
export function unpackRegions(bytes: Uint8Array): StoredRegions | null {
  try {
    const raw = inflateSync(bytes);
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const [magic, treeLength, sourceWidth, sourceHeight, gridWidth, gridHeight] = [0, 1, 2, 3, 4, 5].map((k) => view.getUint32(4 * k, true));
    if (magic !== MAGIC || raw.length !== HEADER_BYTES + treeLength + gridWidth * gridHeight) return null;
    const hierarchy = deserialiseHierarchy(raw.subarray(HEADER_BYTES, HEADER_BYTES + treeLength));
    const grey = { data: new Uint8Array(raw.subarray(HEADER_BYTES + treeLength)), width: gridWidth, height: gridHeight };
    const scores = Object.fromEntries(DETAIL_LEVELS.map((level, k) => [level, raw[SCORES_AT + k]])) as Record<DetailLevel, number>;
    return { hierarchy, photo: { sourceWidth, sourceHeight, laplacianVariance: view.getFloat64(24, true), grey }, scores };
  } catch {
    return null;
  }
}

export async function storeRegions(bucket: R2Bucket, key: string, regions: StoredRegions): Promise<void> {
  await bucket.put(key, packRegions(regions), { httpMetadata: { contentType: "application/octet-stream" } });
}

export async function loadRegions(bucket: R2Bucket, key: string): Promise<StoredRegions | null> {
  const object = await bucket.get(key);
  return object ? unpackRegions(new Uint8Array(await object.arrayBuffer())) : null;
}
