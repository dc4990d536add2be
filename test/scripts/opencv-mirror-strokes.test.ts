/**
 * bench/opencv_recipe.py, the bench's OpenCV mirror of our engine, must keep doing the feature
 * strokes' job as ours does (decision 033): its depth of dark lines is ours, and given ours'
 * thinned mask its walk finds ours' chains, one for one, and drops the same twigs; and the face
 * stage's (decision 034): on the same grey it finds the faces ours finds, and its face ovals and
 * the depth eased inside them are ours. Skipped where /usr/bin/python3 has no cv2 (the faces also without
 * Debian's opencv-data, which the mirror looks for as the bench does).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { FACE_TUNING, faceWeights, findFaces } from "../../workers/sketch/kernel/faces";
import { blurFloatInPlace, type FloatPlane } from "../../workers/sketch/kernel/regions/float-plane";
import { findStrokes } from "../../workers/sketch/kernel/strokes";
import { darkLineDepth } from "../../workers/sketch/kernel/strokes/dark-lines";
import { thin, traceChains } from "../../workers/sketch/kernel/strokes/skeleton";
import { LEVEL_STROKES, STROKE_TUNING } from "../../workers/sketch/kernel/strokes/tuning";

const root = path.resolve(import.meta.dirname, "../..");
const python = "/usr/bin/python3";
const hasOpenCv = spawnSync(python, ["-c", "import cv2"]).status === 0;

/** The mirror's depth of the plane, and its chains of the thinned mask (plane indices), from Python. */
const MIRROR = `
import json, sys
sys.path.insert(0, "bench")
import numpy as np, opencv_recipe as mirror
job = json.load(sys.stdin)
w, h = job["width"], job["height"]
depth = mirror.dark_line_depth(np.array(job["smooth"], np.float32).reshape(h, w), job["mmPerPixel"], 1.0)
framed = np.zeros((h + 2, w + 2), np.uint8)
framed[1:-1, 1:-1] = np.array(job["thinned"], np.uint8).reshape(h, w)
pixels, starts = mirror.trace_chains(framed)
kept_starts = mirror.without_spurs(pixels, starts, mirror.crossings_of(framed > 0), mirror.STROKE_TUNING["spurMm"] / job["mmPerPixel"])[1]
y, x = np.divmod(pixels, w + 2)
plain = (y - 1) * w + (x - 1)
print(json.dumps({"depth": depth.ravel().tolist(), "chains": [plain[a:b].tolist() for a, b in zip(starts[:-1], starts[1:])], "strokes": len(kept_starts) - 1}))
`;

/**
 * A light plane with dark features: lines, a junction, a ring, a spot, a dark coat (no line: too
 * wide).
 */
function featurePlane(width: number, height: number): FloatPlane {
  const data = new Float32Array(width * height).fill(200);
  const ink = (x: number, y: number, grey: number) => {
    if (x >= 0 && y >= 0 && x < width && y < height) data[y * width + x] = grey;
  };
  for (let x = 5; x < 60; x++) ink(x, 10, 110);
  // A stub off that line, shorter than STROKE_TUNING.spurMm: thinned, a twig.
  for (let t = 1; t <= 3; t++) ink(45, 10 + t, 110);
  for (let t = 0; t < 40; t++) ink(10 + t, 20 + Math.round(t * 0.6), 90);
  for (let t = 0; t < 20; t++) ink(30, 44 + t, 100);
  for (let t = 0; t < 15; t++) ink(30 - t, 44 - t, 100);
  for (let t = 0; t < 15; t++) ink(30 + t, 44 - t, 100);
  for (let a = 0; a < 360; a += 2) ink(70 + Math.round(8 * Math.cos((a * Math.PI) / 180)), 50 + Math.round(8 * Math.sin((a * Math.PI) / 180)), 80);
  for (const [x, y] of [[80, 20], [81, 20], [80, 21], [81, 21]]) ink(x, y, 40);
  for (let y = 60; y < 70; y++) for (let x = 0; x < 25; x++) ink(x, y, 60);
  const plane = { data, width, height };
  blurFloatInPlace(plane, 0.8);
  return plane;
}

/** A maze of blobs (smoothed noise, its darker share): thinned, many junctions where the walk must choose. */
function mazeMask(width: number, height: number): Uint8Array {
  let state = 12345;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const noise: FloatPlane = { data: Float32Array.from({ length: width * height }, random), width, height };
  blurFloatInPlace(noise, 1.5);
  return Uint8Array.from(noise.data, (v) => (v < 0.48 ? 1 : 0));
}

/** The mirror's depth of the plane and its chains of the thinned mask (plane indices), from Python. */
function mirrorOf(width: number, height: number, mmPerPixel: number, smooth: Float32Array, thinned: Uint8Array) {
  const run = spawnSync(python, ["-c", MIRROR], {
    cwd: root,
    input: JSON.stringify({ width, height, mmPerPixel, smooth: Array.from(smooth), thinned: Array.from(thinned) }),
    encoding: "utf8",
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    maxBuffer: 64 << 20,
  });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as { depth: number[]; chains: number[][]; strokes: number };
}

function oursChains(mask: Uint8Array, width: number, height: number): number[][] {
  const chains = traceChains(mask, width, height);
  const list: number[][] = [];
  for (let k = 0; k < chains.count; k++) list.push(Array.from(chains.pixels.subarray(chains.start[k], chains.start[k + 1])));
  return list;
}

it.skipIf(!hasOpenCv)("the OpenCV mirror's stroke depth is ours, and on ours' thinned masks its chains are ours and it drops ours' twigs", () => {
  const width = 96;
  const height = 72;
  const mmPerPixel = 0.5;
  const smooth = featurePlane(width, height);
  const radius = Math.max(1, Math.round(STROKE_TUNING.widestLineMm / mmPerPixel / 2));
  const depth = darkLineDepth(smooth, radius, STROKE_TUNING.surroundSigmaMm / mmPerPixel, STROKE_TUNING.surroundSuppression).data;
  const traceFrom = STROKE_TUNING.traceShare * Math.min(...Object.values(LEVEL_STROKES).map((level) => level.weakestDepth));
  const mask = Uint8Array.from(depth, (d) => (d >= traceFrom ? 1 : 0));
  thin(mask, width, height);
  const ours = oursChains(mask, width, height);
  const mirror = mirrorOf(width, height, mmPerPixel, smooth.data, mask);

  let worst = 0;
  for (let i = 0; i < depth.length; i++) worst = Math.max(worst, Math.abs(mirror.depth[i] - depth[i]));
  expect(worst).toBeLessThan(1e-3);
  // Lines, a junction's branches and the ring round to its first pixel again.
  expect(ours.length).toBeGreaterThanOrEqual(6);
  expect(ours.some((chain) => chain.length > 2 && chain[0] === chain[chain.length - 1])).toBe(true);
  expect(mirror.chains).toEqual(ours);
  // Twigs off the lines dropped as ours drops them (ours' strokes from the same plane, mask and chains).
  const strokes = findStrokes(smooth, mmPerPixel, 1);
  expect(strokes.count).toBeLessThan(ours.length);
  expect(mirror.strokes).toBe(strokes.count);

  const maze = mazeMask(width, height);
  thin(maze, width, height);
  const mazeChains = oursChains(maze, width, height);
  expect(mazeChains.length).toBeGreaterThan(50);
  expect(mirrorOf(width, height, mmPerPixel, smooth.data, maze).chains).toEqual(mazeChains);
});

const GUO_HALL_CHECK = `
import sys
sys.path.insert(0, "bench")
import cv2, numpy as np, opencv_recipe as mirror
random = np.random.default_rng(7)
for _ in range(50):
    blobs = cv2.GaussianBlur(random.random((60, 80)).astype(np.float32), (0, 0), random.uniform(0.7, 3)) > 0.5
    framed = np.zeros((62, 82), np.uint8)
    framed[1:-1, 1:-1][blobs] = 255
    theirs = cv2.ximgproc.thinning(framed, thinningType=cv2.ximgproc.THINNING_GUOHALL) > 0
    assert (mirror.thin_guo_hall(framed) == theirs).all()
spot = np.zeros((6, 6), np.uint8)
spot[2:4, 2:4] = 255
print(int(mirror.thin_guo_hall(spot).sum()))
`;
const hasXimgproc = hasOpenCv && spawnSync(python, ["-c", "import cv2; cv2.ximgproc.thinning"]).status === 0;

it.skipIf(!hasXimgproc)("the OpenCV mirror's numpy thinning is cv2.ximgproc's Guo and Hall, pixel for pixel, and keeps a 2 x 2 spot as a pixel", () => {
  const run = spawnSync(python, ["-c", GUO_HALL_CHECK], { cwd: root, encoding: "utf8", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
  expect(run.stderr).toBe("");
  expect(run.stdout.trim()).toBe("1");
});

/** The mirror's analysis grid (toned grey) of the astronaut and the faces it finds there, from Python. */
const MIRROR_FACES = `
import json, sys
sys.path.insert(0, "bench")
import opencv_recipe as mirror
path = "test/fixtures/photos/astronaut.jpg"
grey = mirror.analysis_grid(mirror.decoded(path, mirror.reduced_mode(path)))[0]
print(json.dumps({"width": grey.shape[1], "height": grey.shape[0], "grey": grey.ravel().tolist(), "faces": mirror.find_faces(grey)}))
`;
/** Whether Debian's opencv-data is where the mirror looks for it: installed, unpacked in bench/out, or a .deb to unpack. */
const cascadeFile = path.join("haarcascades", "haarcascade_frontalface_alt.xml");
const hasOpenCvData =
  hasOpenCv &&
  (["/usr/share/opencv4", "/usr/share/opencv", path.join(root, "bench/out/opencv-data/usr/share/opencv4")].some((folder) => existsSync(path.join(folder, cascadeFile))) ||
    [root, path.join(root, "bench/out"), "/tmp/wp", "/var/cache/apt/archives"].some((place) => existsSync(place) && readdirSync(place).some((name) => name.startsWith("opencv-data_") && name.endsWith(".deb"))));

it.skipIf(!hasOpenCvData)("the OpenCV mirror finds the astronaut's face where ours finds it on the same grey", () => {
  const run = spawnSync(python, ["-c", MIRROR_FACES], { cwd: root, encoding: "utf8", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" }, maxBuffer: 64 << 20 });
  expect(run.stderr).toBe("");
  const mirror = JSON.parse(run.stdout) as { width: number; height: number; grey: number[]; faces: number[][] };
  const ours = findFaces({ data: Uint8Array.from(mirror.grey), width: mirror.width, height: mirror.height });
  expect(ours).toHaveLength(1);
  // cv2's boxes are whole pixels and it steps its windows 1 px past a pyramid scale of 2 (ours 2 px):
  // the same face within a tenth of its side.
  for (const { x, y, size } of ours) {
    const near = mirror.faces.filter(([mx, my, side]) => Math.max(Math.abs(mx - x), Math.abs(my - y), Math.abs(side - size)) <= 0.1 * size);
    expect(near, `ours [${x}, ${y}, ${size}], the mirror's ${JSON.stringify(mirror.faces)}`).toHaveLength(1);
  }
});

/** The mirror's face weights for the boxes, and its depth with the face-eased suppression, from Python. */
const MIRROR_FACE_WEIGHTS = `
import json, sys
sys.path.insert(0, "bench")
import numpy as np, opencv_recipe as mirror
job = json.load(sys.stdin)
w, h = job["width"], job["height"]
weights = mirror.face_weights([tuple(face) for face in job["faces"]], w, h)
everywhere, in_face = mirror.STROKE_TUNING["surroundSuppression"], mirror.FACE_TUNING["strokeSurroundSuppression"]
suppression = (everywhere - (everywhere - in_face) * weights.astype(np.float64)).astype(np.float32)
depth = mirror.dark_line_depth(np.array(job["smooth"], np.float32).reshape(h, w), job["mmPerPixel"], 1.0, suppression)
print(json.dumps({"weights": weights.ravel().tolist(), "depth": depth.ravel().tolist()}))
`;

it.skipIf(!hasOpenCv)("the OpenCV mirror's face ovals are ours, and so is its depth with the suppression eased in them", () => {
  const width = 96;
  const height = 72;
  const mmPerPixel = 0.5;
  // Two overlapping faces, one running off the plane's right edge.
  const faces = [{ x: 20.4, y: 8.7, size: 40.3 }, { x: 50, y: 30, size: 52 }];
  const smooth = featurePlane(width, height);
  const weights = faceWeights(faces, width, height)!;
  const suppression = Float32Array.from(weights, (w) => STROKE_TUNING.surroundSuppression - (STROKE_TUNING.surroundSuppression - FACE_TUNING.strokeSurroundSuppression) * w);
  const radius = Math.max(1, Math.round(STROKE_TUNING.widestLineMm / mmPerPixel / 2));
  const depth = darkLineDepth(smooth, radius, STROKE_TUNING.surroundSigmaMm / mmPerPixel, suppression).data;
  const run = spawnSync(python, ["-c", MIRROR_FACE_WEIGHTS], {
    cwd: root,
    input: JSON.stringify({ width, height, mmPerPixel, smooth: Array.from(smooth.data), faces: faces.map(({ x, y, size }) => [x, y, size]) }),
    encoding: "utf8",
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    maxBuffer: 64 << 20,
  });
  expect(run.stderr).toBe("");
  const mirror = JSON.parse(run.stdout) as { weights: number[]; depth: number[] };
  expect(weights.filter((w) => w === 1).length).toBeGreaterThan(500);
  expect(weights.filter((w) => w > 0 && w < 1).length).toBeGreaterThan(200);
  let worstWeight = 0;
  let worstDepth = 0;
  for (let i = 0; i < weights.length; i++) {
    worstWeight = Math.max(worstWeight, Math.abs(mirror.weights[i] - weights[i]));
    worstDepth = Math.max(worstDepth, Math.abs(mirror.depth[i] - depth[i]));
  }
  expect(worstWeight).toBeLessThan(1e-6);
  expect(worstDepth).toBeLessThan(1e-3);
});
