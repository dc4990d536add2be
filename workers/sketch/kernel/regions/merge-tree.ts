/**
 * The merge tree: basins merged two at a time, the pair with the weakest shared border first
 * (the mean edge strength along it: hierarchical watersheds, Najman and Cousty; the ultrametric
 * contour map of Arbeláez et al. 2011). Cutting the sequence after k merges gives a partition
 * whose borders are closed by construction, and a cut after more merges only removes borders.
 *
 * One sequence, in phases, one per detail level from the finest: a phase first merges every
 * region smaller or narrower than its limits into its weakest neighbour, then merges borders weaker
 * than its saliency, and ends there; the next phase goes on from that partition. So the three
 * levels are three cuts of one tree and nest by construction.
 */
import type { AdjacencyGraph } from "./adjacency";
import { PairIndex } from "./pair-index";

/**
 * How likely a border is one a person would draw (region-features.ts): asked for every border
 * the tree weighs, told of every merge so it can keep the regions' insides up to date.
 */
export interface BorderJudge {
  /** 0..1 from the border's mean saliency and mean magnitude (grey levels), its two regions, its length (grid pixels) and the boundary model's mean chance along it. */
  chance(meanSaliency: number, meanMagnitude: number, a: number, b: number, areaA: number, areaB: number, length: number, meanBoundary?: number): number;
  merged(keep: number, gone: number): void;
}

export interface MergePhase {
  /** Regions smaller than this (analysis pixels) merge whatever their border... */
  minArea: number;
  /**
   * ...and so do regions narrower than this (analysis pixels): 2 × area / border length, the width
   * of a strip (a rim's highlight, a crease), half the diameter of a disc. A sliver between two
   * parallel lines is no shape to colour; merged, its two lines become one.
   */
  minWidth: number;
  /** Borders weaker than this merge: a mean saliency (grey levels of a step), or a judge's chance. */
  mergeBelow: number;
  /**
   * A region under the limits whose border is at least this strong stands out (an eye, a pupil,
   * a button, a lion far off on the grass) and is kept, as long as it is at least standOutArea
   * (analysis pixels): smaller than that it is a speck, whatever its contrast.
   */
  standOutAbove: number;
  standOutArea: number;
  /** Borders stop merging once this few regions are left (small ones still join their neighbours). */
  fewestRegions: number;
}

export interface MergeSequence {
  /** The merges in order: the two basins (any member of each side) joined by merge k. */
  mergeA: Int32Array;
  mergeB: Int32Array;
  /** Merges done when each phase ended: phase p's partition is the cut after phaseEnd[p] merges. */
  phaseEnd: number[];
}

/** Below every saliency: small regions merge before any border is judged. */
const SMALL_REGION_KEY = -1e9;

export function mergeSequence(graph: AdjacencyGraph, regionCount: number, phases: readonly MergePhase[], judge?: BorderJudge): MergeSequence {
  const { edgeA, edgeB } = graph;
  const area = graph.area.slice();
  const length = graph.borderLength.slice();
  const strength = graph.borderStrength.slice();
  const magnitude = graph.borderMagnitude.slice();
  const boundary = graph.borderBoundary ? graph.borderBoundary.slice() : new Float64Array(graph.edgeCount);
  const parent = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) parent[r] = r;
  const find = (r: number): number => {
    while (parent[r] !== r) r = parent[r] = parent[parent[r]];
    return r;
  };
  // Edge lists per region (dead edges are skipped, and dropped when a list is walked whole), and
  // the live edge between two regions by their pair: a merge walks only the smaller region's list.
  const edgesOf: number[][] = Array.from({ length: regionCount }, () => []);
  const edgeOfPair = new PairIndex(graph.edgeCount);
  for (let e = 0; e < graph.edgeCount; e++) {
    edgesOf[edgeA[e]].push(e);
    edgesOf[edgeB[e]].push(e);
    edgeOfPair.add(edgeA[e], edgeB[e], e);
  }
  // Border length of each region with the others (the page's edge not counted).
  const perimeter = new Float64Array(regionCount);
  for (let e = 0; e < graph.edgeCount; e++) {
    perimeter[edgeA[e]] += length[e];
    perimeter[edgeB[e]] += length[e];
  }
  const alive = new Uint8Array(graph.edgeCount).fill(1);
  const stamp = new Int32Array(graph.edgeCount);
  const otherEnd = (e: number, region: number) => {
    const a = find(edgeA[e]);
    return a === region ? find(edgeB[e]) : a;
  };

  const mergeA: number[] = [];
  const mergeB: number[] = [];
  const phaseEnd: number[] = [];
  const heap = new EdgeHeap();
  let regionsLeft = regionCount;

  for (const phase of phases) {
    const tooSmall = (r: number) => area[r] < phase.minArea || 2 * area[r] < phase.minWidth * perimeter[r];
    const speck = (r: number) => area[r] < phase.standOutArea;
    const keyOf = (e: number): number => {
      const a = find(edgeA[e]);
      const b = find(edgeB[e]);
      const key = judge ? judge.chance(strength[e] / length[e], magnitude[e] / length[e], a, b, area[a], area[b], length[e], boundary[e] / length[e]) : strength[e] / length[e];
      if (!tooSmall(a) && !tooSmall(b)) return key;
      return key < phase.standOutAbove || speck(a) || speck(b) ? SMALL_REGION_KEY + key : key;
    };
    heap.clear();
    for (let e = 0; e < graph.edgeCount; e++) if (alive[e]) heap.push(keyOf(e), e, stamp[e]);
    while (heap.size > 0) {
      const { key, edge, edgeStamp } = heap.pop();
      if (!alive[edge] || edgeStamp !== stamp[edge]) continue;
      const smallRegionJoins = key < SMALL_REGION_KEY / 2;
      if (key >= phase.mergeBelow || (!smallRegionJoins && regionsLeft <= phase.fewestRegions)) break;
      let keep = find(edgeA[edge]);
      let gone = find(edgeB[edge]);
      if (edgesOf[keep].length < edgesOf[gone].length) [keep, gone] = [gone, keep];
      mergeA.push(keep);
      mergeB.push(gone);
      regionsLeft--;
      alive[edge] = 0;
      edgeOfPair.delete(keep, gone);
      const wasSmall = tooSmall(keep);
      parent[gone] = keep;
      area[keep] += area[gone];
      judge?.merged(keep, gone);
      perimeter[keep] += perimeter[gone] - 2 * length[edge];
      const keptList = edgesOf[keep];
      const changed: number[] = [];
      for (const e of edgesOf[gone]) {
        if (!alive[e]) continue;
        // Resolved before `gone` joined `keep`, the neighbour is the far end of a gone edge.
        const other = otherEnd(e, keep);
        edgeOfPair.delete(gone, other);
        const parallel = edgeOfPair.get(keep, other);
        if (parallel >= 0) {
          // Both touched this neighbour: one border now, its length and strength added up.
          length[parallel] += length[e];
          strength[parallel] += strength[e];
          magnitude[parallel] += magnitude[e];
          boundary[parallel] += boundary[e];
          alive[e] = 0;
          changed.push(parallel);
        } else {
          edgeOfPair.add(keep, other, e);
          keptList.push(e);
          changed.push(e);
        }
      }
      edgesOf[gone] = [];
      // Keys that moved: the combined and moved edges; every edge of the region if it stopped
      // (or started) being too small (then its list is compacted on the way); the edges of a
      // small region absorbed by a large one move with it (they are among `changed`).
      // With a judge every border of the merged region moves: its inside changed.
      if (judge || wasSmall !== tooSmall(keep)) {
        const live = keptList.filter((e) => alive[e] === 1);
        edgesOf[keep] = live;
        for (const e of live) heap.push(keyOf(e), e, ++stamp[e]);
      } else {
        for (const e of changed) heap.push(keyOf(e), e, ++stamp[e]);
      }
    }
    phaseEnd.push(mergeA.length);
  }
  return { mergeA: Int32Array.from(mergeA), mergeB: Int32Array.from(mergeB), phaseEnd };
}

/**
 * Basins joined across every border whose mean saliency is below `below` (no edge at all: the
 * watershed cuts flat and textured ground into many basins), by union-find in one pass, before
 * the merge tree: a third as many regions for the heap on a forest photo. Answers the new region of
 * each basin (0 .. count - 1) and the count.
 */
export function joinAcrossNoBorder(graph: AdjacencyGraph, basinCount: number, below: number): { regionOf: Int32Array; count: number } {
  const parent = new Int32Array(basinCount);
  for (let b = 0; b < basinCount; b++) parent[b] = b;
  const find = (r: number): number => {
    while (parent[r] !== r) r = parent[r] = parent[parent[r]];
    return r;
  };
  for (let e = 0; e < graph.edgeCount; e++) {
    if (graph.borderStrength[e] >= below * graph.borderLength[e]) continue;
    const a = find(graph.edgeA[e]);
    const b = find(graph.edgeB[e]);
    if (a !== b) parent[b] = a;
  }
  const regionOf = new Int32Array(basinCount).fill(-1);
  let count = 0;
  for (let b = 0; b < basinCount; b++) {
    const root = find(b);
    if (regionOf[root] < 0) regionOf[root] = count++;
    regionOf[b] = regionOf[root];
  }
  return { regionOf, count };
}

/** A binary min-heap of (key, edge, stamp), on growing typed arrays. */
class EdgeHeap {
  private keys = new Float64Array(1024);
  private edges = new Int32Array(1024);
  private stamps = new Int32Array(1024);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  push(key: number, edge: number, edgeStamp: number): void {
    if (this.size === this.keys.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (this.keys[up] <= key) break;
      this.keys[i] = this.keys[up];
      this.edges[i] = this.edges[up];
      this.stamps[i] = this.stamps[up];
      i = up;
    }
    this.keys[i] = key;
    this.edges[i] = edge;
    this.stamps[i] = edgeStamp;
  }

  pop(): { key: number; edge: number; edgeStamp: number } {
    const top = { key: this.keys[0], edge: this.edges[0], edgeStamp: this.stamps[0] };
    const last = --this.size;
    const key = this.keys[last];
    const edge = this.edges[last];
    const edgeStamp = this.stamps[last];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.keys[child + 1] < this.keys[child]) child++;
      if (this.keys[child] >= key) break;
      this.keys[i] = this.keys[child];
      this.edges[i] = this.edges[child];
      this.stamps[i] = this.stamps[child];
      i = child;
    }
    this.keys[i] = key;
    this.edges[i] = edge;
    this.stamps[i] = edgeStamp;
    return top;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2); keys.set(this.keys); this.keys = keys;
    const edges = new Int32Array(this.edges.length * 2); edges.set(this.edges); this.edges = edges;
    const stamps = new Int32Array(this.stamps.length * 2); stamps.set(this.stamps); this.stamps = stamps;
  }
}
