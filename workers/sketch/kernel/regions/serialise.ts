/**
 * A region hierarchy as bytes, kept in R2 beside the page, so a level change is a cut of the
 * stored tree and a redraw, not a new job. Little-endian, versioned; arcs' and strokes' points as
 * 16-bit fractions of the grid's long edge (a twentieth of a page pixel at print size).
 * Version 2 added the feature strokes; a version 1 hierarchy (stored before them) reads as one
 * without strokes, so its pages redraw as they were.
 */
import type { RegionHierarchy } from "./index";
import type { DetailLevel } from "../../../../app/core/engine-limits";
import { NO_STROKES } from "../strokes";

const FORMAT_VERSION = 2;
const WITHOUT_STROKES = 1;
const LEVELS: readonly DetailLevel[] = ["detailed", "standard", "simple"];

export function serialiseHierarchy(h: RegionHierarchy): Uint8Array {
  const { arcs } = h;
  const pointCount = arcs.points.length >> 1;
  const header = 9 + LEVELS.length;
  const pointScale = pointScaleFor(h.gridWidth, h.gridHeight);
  const { strokes } = h;
  const strokePointCount = strokes.points.length >> 1;
  const size = 4 * header + 4 * arcs.count * 2 + 4 * (arcs.count + 1) + 2 * 2 * pointCount + 4 * 2 * h.mergeA.length + 4 * 2 + 4 * 2 * strokes.count + 4 * (strokes.count + 1) + 2 * 2 * strokePointCount;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = 0;
  const u32 = (value: number) => {
    view.setUint32(at, value, true);
    at += 4;
  };
  u32(FORMAT_VERSION);
  u32(h.pageWidth);
  u32(h.pageHeight);
  u32(h.gridWidth);
  u32(h.gridHeight);
  u32(h.regionCount);
  u32(arcs.count);
  u32(pointCount);
  u32(h.mergeA.length);
  for (const level of LEVELS) u32(h.mergesAt[level]);
  for (let k = 0; k < arcs.count; k++) u32(arcs.sideA[k]);
  for (let k = 0; k < arcs.count; k++) u32(arcs.sideB[k]);
  for (let k = 0; k <= arcs.count; k++) u32(arcs.pointStart[k]);
  for (let k = 0; k < arcs.points.length; k++) {
    view.setUint16(at, Math.round(arcs.points[k] * pointScale), true);
    at += 2;
  }
  for (let k = 0; k < h.mergeA.length; k++) u32(h.mergeA[k]);
  for (let k = 0; k < h.mergeB.length; k++) u32(h.mergeB[k]);
  u32(strokes.count);
  u32(strokePointCount);
  for (let k = 0; k < strokes.count; k++) {
    view.setFloat32(at, strokes.depth[k], true);
    view.setFloat32(at + 4, strokes.lengthMm[k], true);
    at += 8;
  }
  for (let k = 0; k <= strokes.count; k++) u32(strokes.pointStart[k]);
  for (let k = 0; k < strokes.points.length; k++) {
    view.setUint16(at, Math.round(strokes.points[k] * pointScale), true);
    at += 2;
  }
  return bytes;
}

/** The hierarchy stored by serialiseHierarchy; throws on bytes of another format or a short read. */
export function deserialiseHierarchy(bytes: Uint8Array): RegionHierarchy {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const u32 = () => {
    const value = view.getUint32(at, true);
    at += 4;
    return value;
  };
  const version = u32();
  if (version !== FORMAT_VERSION && version !== WITHOUT_STROKES) throw new Error(`region hierarchy format ${version}, expected ${FORMAT_VERSION}`);
  const pageWidth = u32();
  const pageHeight = u32();
  const gridWidth = u32();
  const gridHeight = u32();
  const regionCount = u32();
  const arcCount = u32();
  const pointCount = u32();
  const mergeCount = u32();
  const mergesAt = {} as Record<DetailLevel, number>;
  for (const level of LEVELS) mergesAt[level] = u32();
  const ints = (count: number) => Int32Array.from({ length: count }, u32);
  const sideA = ints(arcCount);
  const sideB = ints(arcCount);
  const pointStart = ints(arcCount + 1);
  const pointScale = pointScaleFor(gridWidth, gridHeight);
  const points = new Float32Array(2 * pointCount);
  for (let k = 0; k < points.length; k++) {
    points[k] = view.getUint16(at, true) / pointScale;
    at += 2;
  }
  const mergeA = ints(mergeCount);
  const mergeB = ints(mergeCount);
  let strokes = NO_STROKES;
  if (version !== WITHOUT_STROKES) {
    const count = u32();
    const strokePointCount = u32();
    const depth = new Float32Array(count);
    const lengthMm = new Float32Array(count);
    for (let k = 0; k < count; k++) {
      depth[k] = view.getFloat32(at, true);
      lengthMm[k] = view.getFloat32(at + 4, true);
      at += 8;
    }
    const strokeStart = ints(count + 1);
    const strokePoints = new Float32Array(2 * strokePointCount);
    for (let k = 0; k < strokePoints.length; k++) {
      strokePoints[k] = view.getUint16(at, true) / pointScale;
      at += 2;
    }
    strokes = { count, depth, lengthMm, pointStart: strokeStart, points: strokePoints };
  }
  if (at !== bytes.byteLength) throw new Error("region hierarchy has trailing bytes");
  return { pageWidth, pageHeight, gridWidth, gridHeight, regionCount, arcs: { count: arcCount, sideA, sideB, pointStart, points }, mergeA, mergeB, mergesAt, strokes };
}

/** Units per grid pixel such that the grid's far corner still fits 16 bits. */
function pointScaleFor(gridWidth: number, gridHeight: number): number {
  return Math.floor(0xffff / (Math.max(gridWidth, gridHeight) + 1));
}
