/**
 * Likeness: how much of the photo's own structure the page draws. The score's "likeness" factor
 * (quality.ts; docs/decisions/017-region-page-score.md).
 *
 * The other figures read how colourable a page is and whether its lines lie on the photo's edges
 * (precision). None of them asks the other half of a boundary benchmark's question: are the
 * photo's edges on the page (recall)? A clean page can still have lost its subject: the dog's face
 * as one blob, a group's faces as ovals, a flower as three fragments. People ranking pages put
 * likeness first, and this recall alone orders them much as they do.
 *
 *   edge recall = the share of the photo's strongest edges (the top RECALLED_EDGE_SHARE of its
 *                 Sobel magnitude after a blur of EDGE_BLUR_PX) that have ink within
 *                 RECALL_TOLERANCE_PX of them on the page
 *
 * Distances are in the pixels of the photo as the score reads it, the analysis grid (the photo's
 * own pixels when it is smaller): the page's lines are placed on that grid, to about a pixel of
 * it, so a small photo's page is held to its own pixels, not to millimetres it cannot resolve (as
 * the boundary benchmark's tolerance is a share of the photo's size).
 *
 * The edges are the photo's own, ranked against each other, so a low-contrast photo is held to
 * its clearest edges as a sharp one is. Grey edges only: a border between two colours of one
 * lightness is no strong grey edge, so drawing it or not changes nothing here.
 */
import type { GrayPlane } from "../kernel";
import { blurFloatInPlace, type FloatPlane } from "../kernel/regions/float-plane";
import { sobelSteps } from "../kernel/regions/edge-map";
import { inkedCells } from "./pixels";

/** The photo is blurred this much first (sigma, px): its edges at the scale a page draws, not its grain. */
export const EDGE_BLUR_PX = 1.5;
/** The photo's strongest edges, whose recall is read: this share of its pixels, those of the largest Sobel magnitude (pixels.ts's STRONG_EDGE_SHARE is the outline measure's, on cells). */
export const RECALLED_EDGE_SHARE = 0.1;
/** An edge is drawn when the page has ink within this many px of it (a square reach; on the 1100 px grid about 0.75 mm of the printed page). */
export const RECALL_TOLERANCE_PX = 3;
/** Bins of the magnitude histogram the strong edges' threshold is read from. */
const HISTOGRAM_BINS = 4096;

/** The photo's strong-edge pixels, kept per photo plane: the three levels' scores read the same photo. */
const strongEdgesOfPhoto = new WeakMap<GrayPlane, Uint8Array>();

/**
 * See the module comment. `photo`: the photo's grey (the analysis grid's, as the score reads it);
 * `page`: the drawing (any size, same aspect). 1 when the photo has no edge at all.
 */
export function edgeRecall(photo: GrayPlane, page: GrayPlane): number {
  const strong = strongEdgesOf(photo);
  const near = inkNear(page, photo.width, photo.height, RECALL_TOLERANCE_PX);
  let edges = 0;
  let drawn = 0;
  for (let i = 0; i < strong.length; i++) {
    if (!strong[i]) continue;
    edges++;
    drawn += near[i];
  }
  return edges ? drawn / edges : 1;
}

/** 1 where the photo's blurred Sobel magnitude is in its top RECALLED_EDGE_SHARE (and above 0). */
function strongEdgesOf(photo: GrayPlane): Uint8Array {
  const known = strongEdgesOfPhoto.get(photo);
  if (known) return known;
  const { width, height, data } = photo;
  const plane: FloatPlane = { data: Float32Array.from(data), width, height };
  blurFloatInPlace(plane, EDGE_BLUR_PX);
  const magnitude = sobelSteps(plane).data;
  let largest = 0;
  for (let i = 0; i < magnitude.length; i++) if (magnitude[i] > largest) largest = magnitude[i];
  const strong = new Uint8Array(magnitude.length);
  if (largest > 0) {
    const histogram = new Uint32Array(HISTOGRAM_BINS);
    const toBin = (HISTOGRAM_BINS - 1) / largest;
    for (let i = 0; i < magnitude.length; i++) histogram[Math.floor(magnitude[i] * toBin)]++;
    // The lowest bin whose pixels and those above it are at least the strong share.
    let bin = HISTOGRAM_BINS - 1;
    for (let seen = histogram[bin]; bin > 1 && seen < RECALLED_EDGE_SHARE * magnitude.length; ) seen += histogram[--bin];
    const threshold = bin / toBin;
    for (let i = 0; i < magnitude.length; i++) strong[i] = magnitude[i] >= threshold && magnitude[i] > 0 ? 1 : 0;
  }
  strongEdgesOfPhoto.set(photo, strong);
  return strong;
}

/** 1 on a width × height grid where the page has ink within `radius` grid pixels (a square reach). */
function inkNear(page: GrayPlane, width: number, height: number, radius: number): Uint8Array {
  const inked = inkedCells(page, width, height);
  // A square dilation, rows then columns: a running count of ink in each window.
  const across = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) dilateLine(inked, across, y * width, 1, width, radius);
  const near = new Uint8Array(width * height);
  for (let x = 0; x < width; x++) dilateLine(across, near, x, width, height, radius);
  return near;
}

/** `into` is 1 where `from` has a 1 within `radius` samples along the line of `count` samples from `start`, `step` apart. */
function dilateLine(from: Uint8Array, into: Uint8Array, start: number, step: number, count: number, radius: number): void {
  let inWindow = 0;
  for (let i = 0; i < Math.min(radius, count); i++) inWindow += from[start + i * step];
  for (let i = 0; i < count; i++) {
    if (i + radius < count) inWindow += from[start + (i + radius) * step];
    if (i - radius - 1 >= 0) inWindow -= from[start + (i - radius - 1) * step];
    into[start + i * step] = inWindow > 0 ? 1 : 0;
  }
}
