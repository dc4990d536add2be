/**
 * The line-and-region measure (workers/sketch/measure/lines/) on small synthetic pages whose
 * answers can be worked out by hand: outlines, strokes, spurs, grids, photos with step edges.
 */
import { describe, expect, it } from "vitest";
import { PRINT_LONG_EDGE_PX } from "../../app/core/engine-limits";
import type { GrayPlane } from "../../workers/sketch/kernel";
import { clearLineShare, edgePrecision, measureLines, nestingShare, pageFigures, type LineMeasure } from "../../workers/sketch/measure/lines";

const PRINT_PX_PER_MM = 300 / 25.4;
/** Most pages here are 1200 × 900: 2.75 print pixels per page pixel, a 5 px line is 1.16 mm. */
const WIDTH = 1200;
const HEIGHT = 900;

const paper = (width = WIDTH, height = HEIGHT, value = 255): GrayPlane => ({ width, height, data: new Uint8Array(width * height).fill(value) });

function fill(plane: GrayPlane, x0: number, y0: number, x1: number, y1: number, value = 0): void {
  for (let y = y0; y < y1; y++) plane.data.fill(value, y * plane.width + x0, y * plane.width + x1);
}

/** The outline of the box [x0, x1) × [y0, y1), `thickness` pixels inside it. */
function outline(plane: GrayPlane, x0: number, y0: number, x1: number, y1: number, thickness: number): void {
  fill(plane, x0, y0, x1, y0 + thickness);
  fill(plane, x0, y1 - thickness, x1, y1);
  fill(plane, x0, y0, x0 + thickness, y1);
  fill(plane, x1 - thickness, y0, x1, y1);
}

const freeEnds = (measure: LineMeasure) => Math.round(measure.freeEndsPerMetre * measure.lineMetres);
const pageMm = (pixels: number, plane: GrayPlane) => (pixels * PRINT_LONG_EDGE_PX) / Math.max(plane.width, plane.height) / PRINT_PX_PER_MM;

/**
 * A 3 × 3 grid of 196 px cells with 4 px lines, a closed square too small to colour and one too
 * small to count as a region at all. `scale` 2 doubles everything.
 */
function gridPage(scale = 1): GrayPlane {
  const page = paper(WIDTH * scale, HEIGHT * scale);
  const line = 4 * scale;
  for (let k = 0; k < 4; k++) {
    fill(page, (300 + 200 * k) * scale, 150 * scale, (300 + 200 * k) * scale + line, 754 * scale); // verticals
    fill(page, 300 * scale, (150 + 200 * k) * scale, 904 * scale, (150 + 200 * k) * scale + line); // horizontals
  }
  outline(page, 100 * scale, 100 * scale, 112 * scale, 112 * scale, 2 * scale); // 8 × 8 inside: 3.5 mm²
  outline(page, 150 * scale, 100 * scale, 156 * scale, 106 * scale, 2 * scale); // 2 × 2 inside: 0.2 mm²
  return page;
}

describe("measureLines", () => {
  it("reads a closed square outline as all bounding, with no free ends and two regions", () => {
    const page = paper();
    outline(page, 300, 200, 700, 600, 5);
    const measure = measureLines(page);
    expect(measure.boundingShare).toBeGreaterThan(0.98);
    expect(freeEnds(measure)).toBe(0);
    expect(measure.regionCount).toBe(2);
    // The inside (390² px, 14 % of the page) is colourable; the outside (over 15 %) is background.
    expect(measure.colourableShare).toBeCloseTo((390 * 390) / (WIDTH * HEIGHT), 6);
    // Its skeleton runs down the middle of the 5 px line: 4 sides of 395 px.
    expect(measure.lineMetres).toBeCloseTo(pageMm(4 * 395, page) / 1000, 2);
  });

  it("reads a lone stroke as not bounding, with its two tips free", () => {
    const page = paper();
    fill(page, 300, 448, 900, 453);
    const measure = measureLines(page);
    expect(measure.boundingShare).toBeLessThan(0.02);
    expect(freeEnds(measure)).toBe(2);
    expect(measure.regionCount).toBe(1);
    expect(measure.colourableShare).toBe(0);
    // 600 px long, less about half its width at each tip.
    expect(measure.lineMetres).toBeGreaterThan(pageMm(590, page) / 1000);
    expect(measure.lineMetres).toBeLessThan(pageMm(600, page) / 1000);
    expect(measure.freeEndsPerMetre).toBeCloseTo(2 / measure.lineMetres, 6);
  });

  it("reads a square with a dangling spur as bounding except along the spur, with one free end", () => {
    const page = paper();
    outline(page, 300, 200, 700, 600, 5);
    fill(page, 700, 398, 900, 403); // 200 px to the right of the square
    const measure = measureLines(page);
    // Square 4 × 395 px of skeleton, spur about 198 px of which the few next to the square see its inside.
    expect(measure.boundingShare).toBeCloseTo(1580 / (1580 + 198), 1);
    expect(measure.boundingShare).toBeGreaterThan(0.85);
    expect(measure.boundingShare).toBeLessThan(0.92);
    expect(freeEnds(measure)).toBe(1);
  });

  it("does not count thinning's spurs as free ends, but does count a short branch", () => {
    // Knobs on a stroke's edge leave short spurs in a thinned skeleton: not ends a child meets.
    for (const [thickness, knobWidth, knobHeight] of [[5, 3, 2], [13, 6, 5]]) {
      const page = paper();
      fill(page, 300, 440, 900, 440 + thickness);
      for (let x = 350; x < 850; x += 50) fill(page, x, 440 - knobHeight, x + knobWidth, 440);
      expect(freeEnds(measureLines(page))).toBe(2);
    }
    // A branch 12 px long off a 5 px stroke (2.8 mm, over twice the stroke's width) is a stroke of its own.
    const branched = paper();
    fill(branched, 300, 440, 900, 445);
    fill(branched, 600, 428, 605, 440);
    expect(freeEnds(measureLines(branched))).toBe(3);
  });

  it("does not count a line's end at the paper's edge as free, and closes regions with the edge", () => {
    const page = paper();
    fill(page, 0, 100, 104, 104); // from the left edge...
    fill(page, 100, 0, 104, 104); // ...round to the top edge: a 100 × 100 corner
    const measure = measureLines(page);
    expect(freeEnds(measure)).toBe(0);
    expect(measure.regionCount).toBe(2);
    expect(measure.boundingShare).toBeGreaterThan(0.95);
    expect(measure.colourableShare).toBeCloseTo((100 * 100) / (WIDTH * HEIGHT), 6);
  });

  it("counts a grid's cells as colourable, a square of 3.5 mm² as a region too small to colour, one of 0.2 mm² as none", () => {
    const measure = measureLines(gridPage());
    // Nine cells of 196² px; outside; the small square's 8 × 8 px inside (3.5 mm² at print size).
    expect(measure.regionCount).toBe(11);
    expect(measure.colourableShare).toBeCloseTo((9 * 196 * 196) / (WIDTH * HEIGHT), 6);
    expect(measure.boundingShare).toBeGreaterThan(0.97);
    expect(freeEnds(measure)).toBe(0);
    expect(measure.inkShare).toBeGreaterThan(0);
  });

  it("reads a page over WORK_REDUCTION_ABOVE_PX like the same drawing at half the size", () => {
    const small = measureLines(gridPage());
    const large = measureLines(gridPage(2));
    expect(large.regionCount).toBe(small.regionCount);
    expect(large.colourableShare).toBeCloseTo(small.colourableShare, 6);
    expect(large.inkShare).toBeCloseTo(small.inkShare, 6);
    expect(large.lineMetres).toBeCloseTo(small.lineMetres, 2);
    expect(large.boundingShare).toBeCloseTo(small.boundingShare, 1);
    expect(large.lineWidthMm).toBeCloseTo(small.lineWidthMm, 2);
  });

  it("measures line width at print size, at any angle", () => {
    const five = paper();
    fill(five, 300, 448, 900, 453);
    expect(measureLines(five).lineWidthMm).toBeCloseTo(pageMm(5, five), 1);
    const three = paper();
    fill(three, 300, 448, 900, 451);
    expect(measureLines(three).lineWidthMm).toBeCloseTo(pageMm(3, three), 1);
    // A diagonal band 6 px wide across its direction.
    const diagonal = paper();
    for (let y = 100; y < 800; y++) for (let x = 0; x < WIDTH; x++) if (Math.abs(x - y - 200) / Math.SQRT2 < 3) diagonal.data[y * WIDTH + x] = 0;
    const width = measureLines(diagonal).lineWidthMm;
    expect(width).toBeGreaterThan(pageMm(5.5, diagonal));
    expect(width).toBeLessThan(pageMm(7, diagonal));
    // On a page over WORK_REDUCTION_ABOVE_PX, still read on the page's own pixels.
    const large = paper(2400, 1800);
    fill(large, 300, 900, 2100, 905);
    expect(measureLines(large).lineWidthMm).toBeCloseTo(pageMm(5, large), 1);
  });

  it("reads a line's own width where lines meet, not the width of their union", () => {
    // Short segments of 5 px lines meeting in Ts and a cross: much of the skeleton is near a
    // junction, where the horizontal and vertical ink runs through a pixel are both long.
    const joined = paper();
    for (let k = 0; k < 6; k++) {
      const x = 200 + 150 * k;
      fill(joined, 150, 300 + 40 * k, 1050, 305 + 40 * k); // horizontals 40 px apart
      fill(joined, x, 300, x + 5, 505); // verticals crossing all of them
    }
    expect(measureLines(joined).lineWidthMm).toBeLessThan(pageMm(6, joined));
  });

  it("reads the width of lines that bend tightly as their width, not the bend's", () => {
    // Rings 5 px wide round 12 px holes (a 0.15 mm line round a 3 mm hole on this page's scale
    // is no line; this is the shape of every tight curve of a page, magnified).
    const rings = paper();
    for (let cy = 200; cy < 800; cy += 60) {
      for (let cx = 200; cx < 1000; cx += 60) {
        for (let y = cy - 12; y <= cy + 12; y++) {
          for (let x = cx - 12; x <= cx + 12; x++) {
            const r = Math.hypot(x - cx, y - cy);
            if (r >= 6.5 && r < 11.5) rings.data[y * WIDTH + x] = 0;
          }
        }
      }
    }
    expect(measureLines(rings).lineWidthMm).toBeLessThan(pageMm(6, rings));
  });

  it("reads a blank page as no lines and no colourable region", () => {
    const measure = measureLines(paper());
    expect(measure).toEqual({ boundingShare: 0, freeEndsPerMetre: 0, colourableShare: 0, fiddlyShare: 0, backgroundShare: 1, regionCount: 1, lineMetres: 0, inkShare: 0, lineWidthMm: 0 });
  });
});

describe("nestingShare", () => {
  /** The grid's lines alone (no small square): four verticals, four horizontals, each about 600 px. */
  function lines(verticals: boolean, horizontals: boolean): GrayPlane {
    const page = paper();
    for (let k = 0; k < 4; k++) {
      if (verticals) fill(page, 300 + 200 * k, 150, 304 + 200 * k, 754);
      if (horizontals) fill(page, 300, 150 + 200 * k, 904, 154 + 200 * k);
    }
    return page;
  }

  it("is 1 for a page against itself", () => {
    expect(nestingShare(lines(true, true), lines(true, true))).toBe(1);
  });

  it("keeps the share of the coarse lines that the fine page still draws", () => {
    // Half the lines gone: the verticals' skeleton, and the horizontals' only where they cross a
    // vertical (4 crossings of 4 + 2 × 2 px tolerance each, on each of 4 lines): (2400 + 128) / 4800.
    const share = nestingShare(lines(true, true), lines(true, false));
    expect(share).toBeCloseTo((2400 + 128) / 4800, 1);
    expect(share).toBeLessThan(0.56);
    expect(nestingShare(lines(true, false), lines(true, true))).toBe(1);
  });
});

describe("edgePrecision", () => {
  /** A photo with one step edge down the middle (x = 600 on a 1200 wide page): dark left, light right. */
  function stepPhoto(width = WIDTH, height = HEIGHT): GrayPlane {
    const photo = paper(width, height, 60);
    fill(photo, width / 2, 0, width, height, 190);
    return photo;
  }
  const verticalLine = (page: GrayPlane, x: number) => fill(page, x, 100, x + 4, 800);

  it("is about 1 for lines on the photo's edges and about 0 for lines in flat areas", () => {
    const onEdge = paper();
    verticalLine(onEdge, 598);
    expect(edgePrecision(stepPhoto(), onEdge)).toBeGreaterThan(0.99);
    const flat = paper();
    verticalLine(flat, 300);
    expect(edgePrecision(stepPhoto(), flat)).toBe(0);
    const both = paper();
    verticalLine(both, 598);
    verticalLine(both, 300);
    expect(edgePrecision(stepPhoto(), both)).toBeCloseTo(0.5, 2);
  });

  it("reads a photo smaller than the page at the photo's resolution", () => {
    const onEdge = paper();
    verticalLine(onEdge, 598);
    expect(edgePrecision(stepPhoto(600, 450), onEdge)).toBeGreaterThan(0.99);
    const flat = paper();
    verticalLine(flat, 300);
    expect(edgePrecision(stepPhoto(600, 450), flat)).toBe(0);
  });

  it("does not count an edge fainter than the step it asks for", () => {
    const faint = paper(WIDTH, HEIGHT, 120);
    fill(faint, 600, 0, WIDTH, HEIGHT, 128);
    const onEdge = paper();
    verticalLine(onEdge, 598);
    expect(edgePrecision(faint, onEdge)).toBe(0);
  });
});

describe("clearLineShare", () => {
  // A square outline on the page; the photo behind it either has a darker square there (the line
  // parts two calm areas of different grey) or the same noise on both sides (a border drawn
  // through texture).
  const page = paper();
  outline(page, 400, 250, 800, 650, 5);
  let state = 7;
  const noise = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 120;

  it("counts a line between calm areas of different grey as clear", () => {
    const photo = paper(WIDTH, HEIGHT, 200);
    fill(photo, 400, 250, 800, 650, 90);
    expect(clearLineShare(photo, page)).toBeGreaterThan(0.95);
  });

  it("counts a line through one texture as not clear", () => {
    const photo = paper(WIDTH, HEIGHT, 0);
    for (let i = 0; i < photo.data.length; i++) photo.data[i] = 70 + noise();
    expect(clearLineShare(photo, page)).toBeLessThan(0.05);
  });

  it("is 0 on a page whose lines part nothing, and pageFigures agrees with the single measures", () => {
    const stroke = paper();
    fill(stroke, 300, 440, 900, 445);
    const photo = paper(WIDTH, HEIGHT, 200);
    fill(photo, 0, 0, WIDTH, 442, 60);
    expect(clearLineShare(photo, stroke)).toBe(0);
    const figures = pageFigures(photo, page);
    expect(figures.clearShare).toBe(clearLineShare(photo, page));
    expect(figures.edgePrecision).toBe(edgePrecision(photo, page));
    expect(figures.boundingShare).toBe(measureLines(page).boundingShare);
  });
});

