import { describe, expect, it } from "vitest";
import { deserialiseHierarchy, serialiseHierarchy, type GrayPlane } from "../../workers/sketch/kernel";
import { adjacencyOf, coarserGraph, type AdjacencyGraph } from "../../workers/sketch/kernel/regions/adjacency";
import { edgeMaps, sobelSteps, STRENGTH_STEPS_PER_GREY_LEVEL, visibleStepFor } from "../../workers/sketch/kernel/regions/edge-map";
import { blurFloatInPlace, boxWidthsForGaussian, type FloatPlane } from "../../workers/sketch/kernel/regions/float-plane";
import { traceArcs } from "../../workers/sketch/kernel/regions/arcs";
import { buildHierarchy, drawLevel, mergePhases, regionCountAt, regionsAt } from "../../workers/sketch/kernel/regions";
import { mergeSequence } from "../../workers/sketch/kernel/regions/merge-tree";
import { watershedBasins } from "../../workers/sketch/kernel/regions/watershed";
import { packRegions, unpackRegions } from "../../workers/sketch/stored-regions";

const IDENTITY = Uint8Array.from({ length: 256 }, (_, v) => v);

function plane(width: number, height: number, grey: (x: number, y: number) => number): GrayPlane {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = grey(x, y);
  return { data, width, height };
}

const inBox = (x: number, y: number, [x0, y0, x1, y1]: number[]) => x >= x0 && x < x1 && y >= y0 && y < y1;

describe("watershed basins", () => {
  it("gives each minimum its basin, split on the crest between them", () => {
    const width = 40;
    const height = 20;
    const strength = new Uint16Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) strength[y * width + x] = Math.round(10 * Math.min(Math.hypot(x - 10, y - 10), Math.hypot(x - 30, y - 10)));
    const { label, count } = watershedBasins(strength, 1024, width, height);
    expect(count).toBe(2);
    expect(label[10 * width + 5]).not.toBe(label[10 * width + 35]);
    for (let y = 0; y < height; y++) {
      expect(label[y * width + 18]).toBe(label[10 * width + 10]);
      expect(label[y * width + 22]).toBe(label[10 * width + 30]);
    }
  });

  it("does not run one basin's label along a row of a plateau", () => {
    // A flat bottom row between two minima above it: each half of the row goes to the nearer basin.
    const width = 30;
    const height = 3;
    const strength = new Uint16Array(width * height).fill(50);
    strength[2] = 0;
    strength[27] = 0;
    for (let x = 0; x < width; x++) strength[2 * width + x] = 60;
    const { label } = watershedBasins(strength, 1024, width, height);
    expect(label[2 * width + 3]).toBe(label[2]);
    expect(label[2 * width + 26]).toBe(label[27]);
  });
});

describe("blur", () => {
  /** The blur's definition, slowly: three clamped boxes along every row, then down every column, each pixel summed afresh. */
  function blurByDefinition({ data, width, height }: FloatPlane, sigma: number): Float32Array {
    const out = Float64Array.from(data);
    const at = (i: number, last: number) => Math.min(last, Math.max(0, i));
    for (const boxWidth of boxWidthsForGaussian(sigma, 3)) {
      const r = (boxWidth - 1) >> 1;
      for (let y = 0; y < height; y++) {
        const row = out.slice(y * width, (y + 1) * width);
        for (let x = 0; x < width; x++) {
          let sum = 0;
          for (let k = -r; k <= r; k++) sum += row[at(x + k, width - 1)];
          out[y * width + x] = sum / boxWidth;
        }
      }
    }
    for (const boxWidth of boxWidthsForGaussian(sigma, 3)) {
      const r = (boxWidth - 1) >> 1;
      for (let x = 0; x < width; x++) {
        const column = Array.from({ length: height }, (_, y) => out[y * width + x]);
        for (let y = 0; y < height; y++) {
          let sum = 0;
          for (let k = -r; k <= r; k++) sum += column[at(y + k, height - 1)];
          out[y * width + x] = sum / boxWidth;
        }
      }
    }
    return Float32Array.from(out);
  }

  it("is three clamped boxes along the rows and down the columns, on planes wider, taller and narrower than a box, and wider than the columns' strips", () => {
    for (const [width, height, sigma] of [[37, 23, 1.3], [23, 70, 4], [5, 40, 6], [70, 3, 2.5], [150, 31, 3]]) {
      const data = Float32Array.from({ length: width * height }, (_, i) => ((i * 7919) % 251) + (i % width < width / 2 ? 0 : 60));
      const expected = blurByDefinition({ data, width, height }, sigma);
      const plane = { data: data.slice(), width, height };
      blurFloatInPlace(plane, sigma);
      let worst = 0;
      for (let i = 0; i < data.length; i++) worst = Math.max(worst, Math.abs(plane.data[i] - expected[i]));
      expect(worst, `${width} x ${height}, sigma ${sigma}`).toBeLessThan(1e-3);
    }
  });
});

describe("edge maps", () => {
  const tuning = { smoothingPx: 1, noiseSmoothing: 0, surroundSigmaPx: 8, surroundSuppression: 1, clearPhotoEdgeSteps: 2, colourWeight: 0 };
  const strongBox = [10, 10, 40, 40];
  const faintBox = [60, 10, 90, 40];
  /** Mean saliency (grey levels) on the column crossing a box's left side at x0. */
  const saliencyAcross = (saliency: Uint16Array, width: number, x0: number) => {
    let sum = 0;
    for (let y = 15; y < 35; y++) sum += Math.max(saliency[y * width + x0 - 1], saliency[y * width + x0]);
    return sum / 20 / STRENGTH_STEPS_PER_GREY_LEVEL;
  };

  it("fades a faint edge's saliency on a photo that has clear ones, so mist loses to outlines", () => {
    // A clear square (80 grey levels) and a faint one (6 levels) on the same grey.
    const photo = plane(100, 50, (x, y) => (inBox(x, y, strongBox) ? 200 : inBox(x, y, faintBox) ? 126 : 120));
    const plain = edgeMaps(photo, 0, { ...tuning, visibleStep: 0 });
    const gated = edgeMaps(photo, 0, { ...tuning, visibleStep: 12 });
    expect(saliencyAcross(gated.saliency, 100, 10)).toBeCloseTo(saliencyAcross(plain.saliency, 100, 10), 1);
    expect(saliencyAcross(gated.saliency, 100, 60)).toBeLessThan(0.5 * saliencyAcross(plain.saliency, 100, 60));
    // The relief the basins flood is the photo's, whatever the gate.
    expect(gated.flood).toEqual(plain.flood);
  });

  it("leaves a photo whose every edge is faint (mist, night) as it is", () => {
    const photo = plane(100, 50, (x, y) => (inBox(x, y, strongBox) ? 130 : inBox(x, y, faintBox) ? 126 : 120));
    const plain = edgeMaps(photo, 0, { ...tuning, visibleStep: 0 });
    const gated = edgeMaps(photo, 0, { ...tuning, visibleStep: 12 });
    expect(gated.saliency).toEqual(plain.saliency);
    expect(visibleStepFor(12, 12, 2)).toBe(0);
    expect(visibleStepFor(18, 12, 2)).toBe(6);
    expect(visibleStepFor(60, 12, 2)).toBe(12);
    // Where a photo is clear only at three steps, twice the step is halfway there.
    expect(visibleStepFor(24, 12, 3)).toBe(6);
  });

  it("reads a colour step at half the grid's resolution where it is on the grid and nearly as strong, from chroma of either size", () => {
    const width = 200;
    const height = 100;
    const grey = plane(width, height, () => 128);
    // Cb steps by 20 at x = 100 (the grid's), Cr is flat: as a 4:2:0 JPEG's chroma and as a PNG's.
    const colourStep = (w: number, h: number) => ({ cb: plane(w, h, (x) => (x < w / 2 ? 118 : 138)), cr: plane(w, h, () => 128) });
    // The same step read on the grid itself, smoothed by CHROMA_SMOOTHING_PX (2 px): what the steps were read as before e13.
    const onGrid: FloatPlane = { data: Float32Array.from(colourStep(width, height).cb.data), width, height };
    blurFloatInPlace(onGrid, 2);
    const gridPeak = Math.max(...sobelSteps(onGrid).data.subarray(50 * width, 51 * width));
    const colourTuning = { ...tuning, smoothingPx: 0, visibleStep: 0, colourWeight: 1 };
    for (const [w, h] of [[100, 50], [200, 100]]) {
      const { magnitude } = edgeMaps(grey, 0, colourTuning, colourStep(w, h));
      const row = magnitude.data.subarray(50 * width, 51 * width);
      const peak = row.indexOf(Math.max(...row));
      expect([99, 100], `peak at ${peak} from ${w} px chroma`).toContain(peak);
      // Sampled half as finely, a sharp step's peak falls between samples: within 15 % of the grid's.
      expect(row[peak] / gridPeak, `from ${w} px chroma`).toBeGreaterThan(0.85);
      expect(row[peak] / gridPeak, `from ${w} px chroma`).toBeLessThanOrEqual(1);
      expect(row[20]).toBe(0);
    }
  });

});

describe("a photo with no clear edge (mist, night)", () => {
  it("is judged against its own clearest edges, so even its Simple page has its shapes", () => {
    // Three boxes 6 grey levels off a plain grey: every edge far under the levels' saliencies.
    const boxes = [[60, 60, 180, 180], [260, 120, 400, 260], [460, 60, 560, 200]];
    const mist = plane(600, 400, (x, y) => (boxes.some((box) => inBox(x, y, box)) ? 126 : 120));
    const { hierarchy } = buildHierarchy(mist, IDENTITY, 0);
    expect(regionCountAt(hierarchy, "simple")).toBeGreaterThanOrEqual(2);
    expect(regionCountAt(hierarchy, "detailed")).toBeGreaterThanOrEqual(regionCountAt(hierarchy, "simple"));
  });
});

describe("adjacency", () => {
  // Each pair's border as "a-b": length, strength and magnitude, whatever the edges' numbering.
  const borders = (graph: AdjacencyGraph) =>
    new Map(Array.from({ length: graph.edgeCount }, (_, e) => [`${graph.edgeA[e]}-${graph.edgeB[e]}`, [graph.borderLength[e], graph.borderStrength[e], graph.borderMagnitude[e]]]));

  it("gives a coarser labelling's graph from the edges alone, as a second pass over the pixels would", () => {
    const width = 48;
    const height = 36;
    // 6 x 6 px cells, then every third cell joined to a few coarser regions.
    const cells = new Int32Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) cells[y * width + x] = Math.floor(y / 6) * 8 + Math.floor(x / 6);
    const strength = Uint16Array.from({ length: width * height }, (_, i) => (i * 37) % 97);
    const magnitude = Uint16Array.from({ length: width * height }, (_, i) => (i * 53) % 89);
    const fine = adjacencyOf(cells, 48, width, height, strength, 4, magnitude);
    const regionOf = Int32Array.from({ length: 48 }, (_, cell) => (cell % 3 === 0 ? 0 : (cell * 7) % 5));
    const coarse = coarserGraph(fine, regionOf, 5);
    const relabelled = cells.map((cell) => regionOf[cell]);
    const direct = adjacencyOf(relabelled, 5, width, height, strength, 4, magnitude);
    expect(Array.from(coarse.area)).toEqual(Array.from(direct.area));
    const expected = borders(direct);
    const got = borders(coarse);
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [pair, [length, sum, magnitudeSum]] of expected) {
      const [coarseLength, coarseSum, coarseMagnitude] = got.get(pair)!;
      expect(coarseLength).toBe(length);
      expect(coarseSum).toBeCloseTo(sum, 6);
      expect(coarseMagnitude).toBeCloseTo(magnitudeSum, 6);
    }
  });
});

describe("merge tree", () => {
  // Three squares on paper: two faint (a step of 10 grey levels), one strong (100).
  const squares = [[20, 20, 60, 60], [80, 20, 120, 60], [140, 20, 180, 60]];
  const steps = [10, 12, 100];
  const photo = plane(200, 80, (x, y) => {
    for (let k = 0; k < squares.length; k++) if (inBox(x, y, squares[k])) return 200 - steps[k];
    return 200;
  });

  it("merges the weak borders before the strong one, and cuts nest", () => {
    const { hierarchy, finestLabel: finest } = buildHierarchy(photo, IDENTITY, 0);
    expect([hierarchy.gridWidth, hierarchy.gridHeight]).toEqual([photo.width, photo.height]);
    const counts = (["simple", "standard", "detailed"] as const).map((level) => regionCountAt(hierarchy, level));
    expect(counts[0]).toBeLessThanOrEqual(counts[1]);
    expect(counts[1]).toBeLessThanOrEqual(counts[2]);
    // The strong square stands at every level; the faint ones are gone at simple.
    const strongInside = 25 * 200 + 160;
    const paper = 70 * 200 + 100;
    const faintInside = 25 * 200 + 40;
    // Region of a grid pixel at a level: the finest region the pixel lies in, then the level's cut.
    const simple = regionsAt(hierarchy, "simple");
    const detailed = regionsAt(hierarchy, "detailed");
    expect(simple[finest[strongInside]]).not.toBe(simple[finest[paper]]);
    expect(simple[finest[faintInside]]).toBe(simple[finest[paper]]);
    // Nested: regions apart at a coarse level are apart at every finer level.
    const standard = regionsAt(hierarchy, "standard");
    for (let a = 0; a < hierarchy.regionCount; a++) {
      for (let b = 0; b < hierarchy.regionCount; b++) {
        if (simple[a] !== simple[b]) expect(standard[a]).not.toBe(standard[b]);
        if (standard[a] !== standard[b]) expect(detailed[a]).not.toBe(detailed[b]);
      }
    }
  });

  it("cuts at the phases a caller gives (the BSDS bench's thresholds), each level at the phase it names", () => {
    const levels = mergePhases(Math.max(photo.width, photo.height)); // detailed, standard, simple
    const everything = { ...levels[2], mergeBelow: 1.01, fewestRegions: 1 };
    const phases = [levels[0], { ...levels[1], mergeBelow: 0.18 }, levels[1], levels[2], everything];
    const { hierarchy, phaseEnds } = buildHierarchy(photo, IDENTITY, 0, undefined, { phases, levelPhase: { detailed: 0, standard: 2, simple: 3 } });
    expect(phaseEnds).toHaveLength(5);
    expect(hierarchy.mergesAt).toEqual({ detailed: phaseEnds[0], standard: phaseEnds[2], simple: phaseEnds[3] });
    for (let k = 1; k < phaseEnds.length; k++) expect(phaseEnds[k]).toBeGreaterThanOrEqual(phaseEnds[k - 1]);
    // The last phase merges every border: one region left.
    expect(phaseEnds[4]).toBe(hierarchy.regionCount - 1);
    // Without phases of its own the tree's phases are the three levels'.
    const plain = buildHierarchy(photo, IDENTITY, 0);
    expect(plain.phaseEnds).toEqual([plain.hierarchy.mergesAt.detailed, plain.hierarchy.mergesAt.standard, plain.hierarchy.mergesAt.simple]);
  });

  it("two squares merge into their paper before a third, stronger one", () => {
    // Regions 0, 1, 2 in a row of three pixels each; the border 0|1 is weak, 1|2 strong.
    const label = Int32Array.from([0, 0, 0, 1, 1, 1, 2, 2, 2]);
    const edge = Uint16Array.from([0, 0, 40, 40, 0, 400, 400, 0, 0]);
    const graph = adjacencyOf(label, 3, 9, 1, edge, 4);
    const { mergeA, mergeB, phaseEnd } = mergeSequence(graph, 3, [{ minArea: 0, minWidth: 0, mergeBelow: 50, standOutAbove: Infinity, standOutArea: 0, fewestRegions: 0 }, { minArea: 0, minWidth: 0, mergeBelow: 1000, standOutAbove: Infinity, standOutArea: 0, fewestRegions: 0 }]);
    expect(phaseEnd).toEqual([1, 2]);
    expect([mergeA[0], mergeB[0]].sort()).toEqual([0, 1]);
  });
});

describe("borders", () => {
  it("are closed: every arc ends at a junction, at the page's edge or on itself", () => {
    const label = Int32Array.from(plane(30, 20, (x, y) => (inBox(x, y, [5, 5, 15, 15]) ? 1 : inBox(x, y, [18, 0, 30, 20]) ? 2 : 0)).data);
    const arcs = traceArcs(label, 30, 20);
    const ends = new Map<string, number>();
    for (let k = 0; k < arcs.count; k++) {
      const first = arcs.pointStart[k];
      const last = arcs.pointStart[k + 1] - 1;
      const a = `${arcs.points[2 * first]},${arcs.points[2 * first + 1]}`;
      const b = `${arcs.points[2 * last]},${arcs.points[2 * last + 1]}`;
      if (a === b) continue; // a closed loop
      for (const end of [a, b]) ends.set(end, (ends.get(end) ?? 0) + 1);
    }
    for (const [point, count] of ends) {
      const [x, y] = point.split(",").map(Number);
      const onEdge = x === 0 || y === 0 || x === 30 || y === 20;
      expect(onEdge || count >= 3).toBe(true);
    }
    // The square's outline is one closed loop between regions 0 and 1.
    const loop = [...Array(arcs.count).keys()].find((k) => arcs.sideA[k] === 0 && arcs.sideB[k] === 1);
    expect(loop).toBeDefined();
    expect(arcs.pointStart[loop! + 1] - arcs.pointStart[loop!]).toBe(41); // 40 cracks round a 10 x 10 square
  });

  it("are drawn at print size, smooth and of the level's weight, whatever the photo's size", () => {
    const photo = plane(220, 150, (x, y) => (Math.hypot(x - 110, y - 75) < 50 ? 40 : 220));
    const { hierarchy } = buildHierarchy(photo, IDENTITY, 0);
    const page = drawLevel(hierarchy, "standard");
    expect([page.width, page.height]).toEqual([3300, 2250]);
    // The circle's outline crosses the middle row twice, each crossing about 0.5 mm (6 px) wide.
    const row = page.data.subarray(1125 * 3300, 1126 * 3300);
    const runs: number[] = [];
    for (let x = 0, run = 0; x <= 3300; x++) {
      if (x < 3300 && row[x] === 0) run++;
      else if (run) (runs.push(run), (run = 0));
    }
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(run).toBeGreaterThanOrEqual(5);
    for (const run of runs) expect(run).toBeLessThanOrEqual(8);
  });
});

describe("stored hierarchy", () => {
  it("round-trips through bytes, and draws the same page from them", async () => {
    const photo = plane(160, 100, (x, y) => (inBox(x, y, [30, 20, 90, 70]) ? 60 : inBox(x, y, [100, 30, 140, 80]) ? 150 : 230));
    const { hierarchy, grey } = buildHierarchy(photo, IDENTITY, 0);
    const back = deserialiseHierarchy(serialiseHierarchy(hierarchy));
    expect(back.mergesAt).toEqual(hierarchy.mergesAt);
    expect([...back.arcs.sideA]).toEqual([...hierarchy.arcs.sideA]);
    // Points are kept to 1/16 of a grid pixel: the pages differ by at most a few edge pixels.
    const before = drawLevel(hierarchy, "detailed").data;
    const after = drawLevel(back, "detailed").data;
    let ink = 0;
    let differ = 0;
    for (let i = 0; i < before.length; i++) {
      if (before[i] === 0) ink++;
      if (before[i] !== after[i]) differ++;
    }
    expect(ink).toBeGreaterThan(1000);
    expect(differ).toBeLessThan(0.02 * ink);
    const scores = { simple: 100, standard: 87, detailed: 0 };
    const stored = unpackRegions(packRegions({ hierarchy, photo: { sourceWidth: 160, sourceHeight: 100, laplacianVariance: 12.5, grey }, scores }));
    expect(stored?.scores).toEqual(scores);
    expect(stored?.photo).toMatchObject({ sourceWidth: 160, sourceHeight: 100, laplacianVariance: 12.5 });
    expect(stored?.photo.grey.data).toEqual(grey.data);
    expect(unpackRegions(new Uint8Array([1, 2, 3]))).toBeNull();
  });
});
