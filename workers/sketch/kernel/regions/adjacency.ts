/**
 * The region adjacency graph of a labelling: one edge per pair of touching regions, with the
 * length of their shared border (in pixel cracks) and the sum of the edge strength along it.
 */

import { PairIndex } from "./pair-index";

export interface AdjacencyGraph {
  edgeCount: number;
  /** The two regions of each edge (a < b). */
  edgeA: Int32Array;
  edgeB: Int32Array;
  /** Cracks on the shared border, and the summed strength over them (the crest: the larger of the two pixels). */
  borderLength: Float64Array;
  borderStrength: Float64Array;
  /** The same sum over a second map (the raw edge magnitude, where the first is its saliency; the first again if none). */
  borderMagnitude: Float64Array;
  /** The per-pixel boundary model's sum along each border (the larger of a crack's two pixels), where it was read. */
  borderBoundary?: Float64Array;
  /** Pixels per region. */
  area: Float64Array;
}

export function adjacencyOf(label: Int32Array, regionCount: number, width: number, height: number, strength: Uint16Array, stepsPerLevel: number, magnitude: Uint16Array = strength): AdjacencyGraph {
  const area = new Float64Array(regionCount);
  const table = new PairTable(Math.max(16, regionCount * 4));
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const p = row + x;
      const a = label[p];
      area[a]++;
      if (x + 1 < width) {
        const b = label[p + 1];
        if (b !== a) table.add(a, b, Math.max(strength[p], strength[p + 1]) / stepsPerLevel, Math.max(magnitude[p], magnitude[p + 1]) / stepsPerLevel);
      }
      if (y + 1 < height) {
        const b = label[p + width];
        if (b !== a) table.add(a, b, Math.max(strength[p], strength[p + width]) / stepsPerLevel, Math.max(magnitude[p], magnitude[p + width]) / stepsPerLevel);
      }
    }
  }
  return { ...table.edges(), area };
}

/**
 * The graph of a coarser labelling whose regions are unions of this graph's (`regionOf` each
 * region's new one): its borders are the old borders between different new regions, their
 * lengths and sums added up. The same graph as a second pass over the pixels would give, from
 * the edges alone.
 */
export function coarserGraph(graph: AdjacencyGraph, regionOf: Int32Array, regionCount: number): AdjacencyGraph {
  const area = new Float64Array(regionCount);
  for (let r = 0; r < graph.area.length; r++) area[regionOf[r]] += graph.area[r];
  const table = new PairTable(Math.max(16, regionCount * 4));
  for (let e = 0; e < graph.edgeCount; e++) {
    const a = regionOf[graph.edgeA[e]];
    const b = regionOf[graph.edgeB[e]];
    if (a !== b) table.addBorder(a, b, graph.borderLength[e], graph.borderStrength[e], graph.borderMagnitude[e]);
  }
  return { ...table.edges(), area };
}

/** Open addressing on the pair (a, b), growing as needed; edges are numbered as first seen. */
class PairTable {
  private slots: Int32Array;
  private mask: number;
  count = 0;
  private a: Int32Array;
  private b: Int32Array;
  private length: Float64Array;
  private strength: Float64Array;
  private magnitude: Float64Array;

  constructor(expected: number) {
    let size = 1;
    while (size < expected * 2) size <<= 1;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    this.a = new Int32Array(expected);
    this.b = new Int32Array(expected);
    this.length = new Float64Array(expected);
    this.strength = new Float64Array(expected);
    this.magnitude = new Float64Array(expected);
  }

  /** One crack between `first` and `second`. */
  add(first: number, second: number, value: number, magnitude: number): void {
    this.addBorder(first, second, 1, value, magnitude);
  }

  /** A stretch of border between `first` and `second`: its length and its sums. */
  addBorder(first: number, second: number, length: number, value: number, magnitude: number): void {
    const a = first < second ? first : second;
    const b = first < second ? second : first;
    let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) & this.mask;
    for (;;) {
      const edge = this.slots[slot];
      if (edge < 0) break;
      if (this.a[edge] === a && this.b[edge] === b) {
        this.length[edge] += length;
        this.strength[edge] += value;
        this.magnitude[edge] += magnitude;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
    if (this.count === this.a.length) this.grow();
    const edge = this.count++;
    this.a[edge] = a;
    this.b[edge] = b;
    this.length[edge] = length;
    this.strength[edge] = value;
    this.magnitude[edge] = magnitude;
    if (this.count * 2 > this.slots.length) this.rehash();
    else this.slots[slot] = edge;
  }

  edges(): Omit<AdjacencyGraph, "area"> {
    const n = this.count;
    return { edgeCount: n, edgeA: this.a.slice(0, n), edgeB: this.b.slice(0, n), borderLength: this.length.slice(0, n), borderStrength: this.strength.slice(0, n), borderMagnitude: this.magnitude.slice(0, n) };
  }

  private grow(): void {
    const size = this.a.length * 2;
    const a = new Int32Array(size); a.set(this.a); this.a = a;
    const b = new Int32Array(size); b.set(this.b); this.b = b;
    const length = new Float64Array(size); length.set(this.length); this.length = length;
    const strength = new Float64Array(size); strength.set(this.strength); this.strength = strength;
    const magnitude = new Float64Array(size); magnitude.set(this.magnitude); this.magnitude = magnitude;
  }

  /** Doubles the slots and re-inserts every edge (including the one just added). */
  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    this.mask = this.slots.length - 1;
    for (let edge = 0; edge < this.count; edge++) {
      let slot = (Math.imul(this.a[edge], 0x9e3779b1) ^ Math.imul(this.b[edge], 0x85ebca77)) & this.mask;
      while (this.slots[slot] >= 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = edge;
    }
  }
}

/**
 * Per edge of `graph` (a graph of `label`'s regions), the sum along its border of each plane's
 * crest (the larger of a crack's two pixels), as the graph sums its strength: one pass over the
 * pixels for maps read after the graph was built.
 */
export function crestSums(graph: AdjacencyGraph, label: Int32Array, width: number, height: number, planes: Float32Array[]): Float64Array[] {
  const index = new PairIndex(graph.edgeCount);
  for (let e = 0; e < graph.edgeCount; e++) index.add(graph.edgeA[e], graph.edgeB[e], e);
  const sums = planes.map(() => new Float64Array(graph.edgeCount));
  // A border runs along many cracks in a row: its edge is looked up once for them.
  let lastA = -1;
  let lastB = -1;
  let lastEdge = -1;
  const crack = (p: number, q: number) => {
    const a = label[p];
    const b = label[q];
    if (a === b) return;
    if (a !== lastA || b !== lastB) {
      lastA = a;
      lastB = b;
      lastEdge = index.get(a, b);
    }
    if (lastEdge < 0) return;
    for (let k = 0; k < planes.length; k++) {
      const plane = planes[k];
      sums[k][lastEdge] += plane[p] > plane[q] ? plane[p] : plane[q];
    }
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (x + 1 < width) crack(p, p + 1);
      if (y + 1 < height) crack(p, p + width);
    }
  }
  return sums;
}
