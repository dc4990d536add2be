/**
 * A map from an unordered pair of region ids to an edge number, in typed arrays (open
 * addressing, linear probing, tombstones for deletions). A JavaScript Map keyed by a * 2^24 + b
 * boxed every key as a heap number and cost the merge tree most of its time.
 */
const EMPTY = -1;
const DELETED = -2;

export class PairIndex {
  private slotA: Int32Array;
  private slotB: Int32Array;
  private slotEdge: Int32Array;
  private mask: number;
  /** Live entries and tombstones: the table doubles before they fill half of it. */
  private used = 0;

  constructor(expected: number) {
    let size = 16;
    while (size < expected * 2) size <<= 1;
    this.slotA = new Int32Array(size);
    this.slotB = new Int32Array(size);
    this.slotEdge = new Int32Array(size).fill(EMPTY);
    this.mask = size - 1;
  }

  /** The edge of the pair, or -1. */
  get(first: number, second: number): number {
    const a = first < second ? first : second;
    const b = first < second ? second : first;
    for (let slot = hashOf(a, b) & this.mask; ; slot = (slot + 1) & this.mask) {
      const edge = this.slotEdge[slot];
      if (edge === EMPTY) return -1;
      if (edge !== DELETED && this.slotA[slot] === a && this.slotB[slot] === b) return edge;
    }
  }

  /** Sets the pair's edge (the pair must not be in the index). */
  add(first: number, second: number, edge: number): void {
    if ((this.used + 1) * 2 > this.slotEdge.length) this.rehash();
    const a = first < second ? first : second;
    const b = first < second ? second : first;
    let slot = hashOf(a, b) & this.mask;
    while (this.slotEdge[slot] >= 0) slot = (slot + 1) & this.mask;
    if (this.slotEdge[slot] === EMPTY) this.used++;
    this.slotA[slot] = a;
    this.slotB[slot] = b;
    this.slotEdge[slot] = edge;
  }

  delete(first: number, second: number): void {
    const a = first < second ? first : second;
    const b = first < second ? second : first;
    for (let slot = hashOf(a, b) & this.mask; ; slot = (slot + 1) & this.mask) {
      const edge = this.slotEdge[slot];
      if (edge === EMPTY) return;
      if (edge !== DELETED && this.slotA[slot] === a && this.slotB[slot] === b) {
        this.slotEdge[slot] = DELETED;
        return;
      }
    }
  }

  /** Re-inserts the live entries into a table twice as large when they fill a quarter of it, else as large (tombstones go). */
  private rehash(): void {
    const { slotA, slotB, slotEdge } = this;
    let live = 0;
    for (let slot = 0; slot < slotEdge.length; slot++) if (slotEdge[slot] >= 0) live++;
    const size = live * 4 > slotEdge.length ? slotEdge.length * 2 : slotEdge.length;
    this.slotA = new Int32Array(size);
    this.slotB = new Int32Array(size);
    this.slotEdge = new Int32Array(size).fill(EMPTY);
    this.mask = size - 1;
    this.used = 0;
    for (let slot = 0; slot < slotEdge.length; slot++) if (slotEdge[slot] >= 0) this.add(slotA[slot], slotB[slot], slotEdge[slot]);
  }
}

function hashOf(a: number, b: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) >>> 0;
}
