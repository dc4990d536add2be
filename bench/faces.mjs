// `node bench/faces.mjs [--only TEXT|TEXT] [--long-edge N] [--min-face PX]`: a face detector we could ship inside the sketch Worker,
// tried on the bench's face photos. Not in the Worker (a prototype, plain JavaScript); not a test.
//
// The detector is Viola-Jones as OpenCV runs it, reading OpenCV's own cascade files from Debian's
// opencv-data (`apt-get download opencv-data`; found like the bench's photos, nothing downloaded at
// run time): Haar cascades (frontal face; cat face) and the LBP cascade of Puttemans et al. (2017).
// Their licences are in each file's header: Intel's licence for OpenCV (BSD-3-Clause style) for the
// Haar faces, BSD-3-Clause for the cat faces (Joseph Howse) and the improved LBP faces. pico, the
// faster pixel-comparison detector, is left out: its cascade ("facefinder") comes only with its
// author's repository, whose licence forbids commercial use without permission, and no npm package
// ships it.
//
// For each photo with faces marked by hand (bench/photo-set.mjs FACE_BOXES) and each cascade it
// prints the boxes found, which hand boxes they hit (intersection over union >= 0.3: a hand box
// runs from forehead to chin, a cascade's from brows to mouth), the false ones, the CPU time (best of
// 2 runs) and the memory the detector allocates; the photo is first scaled so its long edge is
// --long-edge px (default 1155: about 1 MP for a 4:3 photo). With /usr/bin/python3 and cv2, OpenCV's
// own detectMultiScale with the same parameters is printed beside it, to check this port.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "./wasm-as-module.mjs";
import { benchPhotos, findPackageFolder } from "./photo-set.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
mkdirSync(out, { recursive: true });

/** Detection parameters, as OpenCV's detectMultiScale takes them. */
const SCALE_FACTOR = 1.1;
const MIN_NEIGHBOURS = 4;
/** Smallest face looked for (--min-face), px of the scaled photo: the group's faces are 35-50 px at 1155 px. */
const MIN_FACE_PX = 32;
/** Window step in px of each pyramid level (OpenCV: 2 while the scale is under 2, then 1). */
const STEP = 2;
const HIT_IOU = 0.3;
/**
 * Timed runs per photo and cascade, best taken, in CPU ms of this process: the machine we share
 * runs at a load of 15 on 2 cores, where wall time said more about the neighbours than the code.
 */
const RUNS = 2;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The cascades tried: file under opencv-data's usr/share/opencv4, and what it finds. */
const CASCADES = [
  ["haarcascades/haarcascade_frontalface_default.xml", "faces"],
  ["haarcascades/haarcascade_frontalface_alt2.xml", "faces"],
  ["lbpcascades/lbpcascade_frontalface_improved.xml", "faces"],
  ["haarcascades/haarcascade_frontalcatface.xml", "cat faces"],
];

// ---- reading OpenCV's cascade XML (the format of OpenCV 2.4 and later: stages, weak classifiers, features) ----

const numbers = (text) => text.trim().split(/\s+/).map(Number);

export function readCascade(xml) {
  const featureType = /<featureType>(\w+)<\/featureType>/.exec(xml)[1];
  const width = Number(/<width>(\d+)<\/width>/.exec(xml)[1]);
  const height = Number(/<height>(\d+)<\/height>/.exec(xml)[1]);
  const stagesXml = xml.slice(xml.indexOf("<stages>"), xml.indexOf("</stages>"));
  const stages = [];
  for (const stage of stagesXml.matchAll(/<stageThreshold>([^<]+)<\/stageThreshold>\s*<weakClassifiers>([\s\S]*?)<\/weakClassifiers>/g)) {
    const weak = [];
    for (const [, nodes, leaves] of stage[2].matchAll(/<internalNodes>([^<]+)<\/internalNodes>\s*<leafValues>([^<]+)<\/leafValues>/g)) {
      const n = numbers(nodes);
      const leafValues = numbers(leaves);
      if (featureType === "LBP") {
        // One node per weak classifier: left, right, feature, then 8 ints = a 256-bit set of LBP codes.
        if (n.length !== 11) throw new Error("LBP trees deeper than a stump are not read");
        weak.push({ feature: n[2], subset: Int32Array.from(n.slice(3)), leafValues });
      } else {
        // Nodes of 4: left, right (<= 0: leaf -value), feature, threshold.
        const tree = [];
        for (let i = 0; i < n.length; i += 4) tree.push({ left: n[i], right: n[i + 1], feature: n[i + 2], threshold: n[i + 3] });
        weak.push({ tree, leafValues });
      }
    }
    stages.push({ threshold: Number(stage[1]), weak, flat: flatten(weak, featureType) });
  }
  const featuresXml = xml.slice(xml.indexOf("<features>"));
  const features = [];
  if (featureType === "LBP") {
    for (const [, rect] of featuresXml.matchAll(/<rect>([^<]+)<\/rect>/g)) features.push(numbers(rect));
  } else {
    for (const [, rects, tilted] of featuresXml.matchAll(/<rects>([\s\S]*?)<\/rects>(?:\s*<tilted>(\d)<\/tilted>)?/g)) {
      if (tilted === "1") throw new Error("tilted Haar features are not read");
      features.push([...rects.matchAll(/<_>\s*([^<]+)<\/_>/g)].map(([, r]) => numbers(r)));
    }
  }
  return { featureType, width, height, stages, features };
}

/**
 * A stage's weak classifiers as typed arrays, when every one is a stump (one node), so that the
 * scan's inner loop reads numbers, not objects: 20x faster in V8 than walking the objects.
 */
function flatten(weak, featureType) {
  const count = weak.length;
  const flat = { count, feature: new Int32Array(count), threshold: new Float64Array(count), leaf0: new Float64Array(count), leaf1: new Float64Array(count), subsets: new Int32Array(count * 8) };
  for (let i = 0; i < count; i++) {
    const w = weak[i];
    if (featureType === "LBP") {
      flat.feature[i] = w.feature;
      flat.subsets.set(w.subset, i * 8);
    } else {
      if (w.tree.length !== 1 || w.tree[0].left !== 0 || w.tree[0].right !== -1) return null;
      flat.feature[i] = w.tree[0].feature;
      flat.threshold[i] = w.tree[0].threshold;
    }
    flat.leaf0[i] = w.leafValues[0];
    flat.leaf1[i] = w.leafValues[1];
  }
  return flat;
}

/** One stage of Haar stumps on the window at `base`: the sum of its weak classifiers' votes. */
function haarStumps(flat, sum, offsets, weights, base, normFactor) {
  let total = 0;
  for (let wi = 0; wi < flat.count; wi++) {
    const f = flat.feature[wi];
    const f12 = f * 12;
    const f3 = f * 3;
    let value =
      weights[f3] * (sum[base + offsets[f12]] - sum[base + offsets[f12 + 1]] - sum[base + offsets[f12 + 2]] + sum[base + offsets[f12 + 3]]) +
      weights[f3 + 1] * (sum[base + offsets[f12 + 4]] - sum[base + offsets[f12 + 5]] - sum[base + offsets[f12 + 6]] + sum[base + offsets[f12 + 7]]);
    if (weights[f3 + 2] !== 0) value += weights[f3 + 2] * (sum[base + offsets[f12 + 8]] - sum[base + offsets[f12 + 9]] - sum[base + offsets[f12 + 10]] + sum[base + offsets[f12 + 11]]);
    total += value * normFactor < flat.threshold[wi] ? flat.leaf0[wi] : flat.leaf1[wi];
  }
  return total;
}

/** One stage of LBP stumps on the window at `base`: the sum of its weak classifiers' votes. */
function lbpStumps(flat, sum, offsets, base) {
  let total = 0;
  for (let wi = 0; wi < flat.count; wi++) {
    const o = flat.feature[wi] * 16;
    // The 4 x 4 grid of integral values; cell (r, c) = g[r][c] - g[r][c+1] - g[r+1][c] + g[r+1][c+1].
    const g0 = sum[base + offsets[o]], g1 = sum[base + offsets[o + 1]], g2 = sum[base + offsets[o + 2]], g3 = sum[base + offsets[o + 3]];
    const g4 = sum[base + offsets[o + 4]], g5 = sum[base + offsets[o + 5]], g6 = sum[base + offsets[o + 6]], g7 = sum[base + offsets[o + 7]];
    const g8 = sum[base + offsets[o + 8]], g9 = sum[base + offsets[o + 9]], g10 = sum[base + offsets[o + 10]], g11 = sum[base + offsets[o + 11]];
    const g12 = sum[base + offsets[o + 12]], g13 = sum[base + offsets[o + 13]], g14 = sum[base + offsets[o + 14]], g15 = sum[base + offsets[o + 15]];
    const centre = g5 - g6 - g9 + g10;
    const code =
      (g0 - g1 - g4 + g5 >= centre ? 128 : 0) | (g1 - g2 - g5 + g6 >= centre ? 64 : 0) | (g2 - g3 - g6 + g7 >= centre ? 32 : 0) |
      (g6 - g7 - g10 + g11 >= centre ? 16 : 0) | (g10 - g11 - g14 + g15 >= centre ? 8 : 0) | (g9 - g10 - g13 + g14 >= centre ? 4 : 0) |
      (g8 - g9 - g12 + g13 >= centre ? 2 : 0) | (g4 - g5 - g8 + g9 >= centre ? 1 : 0);
    total += flat.subsets[wi * 8 + (code >> 5)] & (1 << (code & 31)) ? flat.leaf0[wi] : flat.leaf1[wi];
  }
  return total;
}

// ---- detection ----

/** Bilinear resize of a grey plane. */
function resizeGray({ data, width, height }, newWidth, newHeight) {
  const result = new Uint8Array(newWidth * newHeight);
  for (let y = 0; y < newHeight; y++) {
    const sy = Math.min(height - 1, Math.max(0, ((y + 0.5) * height) / newHeight - 0.5));
    const y0 = Math.min(height - 2, Math.floor(sy));
    const fy = sy - y0;
    for (let x = 0; x < newWidth; x++) {
      const sx = Math.min(width - 1, Math.max(0, ((x + 0.5) * width) / newWidth - 0.5));
      const x0 = Math.min(width - 2, Math.floor(sx));
      const fx = sx - x0;
      const i = y0 * width + x0;
      const top = data[i] * (1 - fx) + data[i + 1] * fx;
      const bottom = data[i + width] * (1 - fx) + data[i + width + 1] * fx;
      result[y * newWidth + x] = top * (1 - fy) + bottom * fy + 0.5;
    }
  }
  return { data: result, width: newWidth, height: newHeight };
}

/** Integral image (and of squares), (width+1) x (height+1), into the given buffers: the kernel's (faces/detect.ts), set once the bundle is loaded. */
let integrals;

/**
 * The cascade's features as offsets into an integral image of row length `stride`: a Haar
 * feature's up to 3 rectangles (4 corners each) and weights, an LBP feature's 4 x 4 grid of
 * corners of its 3 x 3 cells. Made again for each pyramid level (its row length changes).
 */
function featureOffsets(cascade, stride, table) {
  const lbp = cascade.featureType === "LBP";
  cascade.features.forEach((feature, f) => {
    if (lbp) {
      const [x, y, w, h] = feature;
      for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) table.offsets[f * 16 + r * 4 + c] = (y + r * h) * stride + x + c * w;
      return;
    }
    for (let k = 0; k < 3; k++) {
      const [x, y, w, h, weight] = feature[k] ?? [0, 0, 0, 0, 0];
      const o = f * 12 + k * 4;
      table.offsets[o] = y * stride + x;
      table.offsets[o + 1] = y * stride + x + w;
      table.offsets[o + 2] = (y + h) * stride + x;
      table.offsets[o + 3] = (y + h) * stride + x + w;
      table.weights[f * 3 + k] = weight;
    }
  });
}

/**
 * Candidate windows of one cascade over a pyramid of the grey plane, [x, y, size, size] in its
 * pixels; `bytes` = the typed arrays the detector held at most.
 */
function scan(cascade, gray, minFace) {
  const { width: windowWidth, height: windowHeight, stages, features, featureType } = cascade;
  const lbp = featureType === "LBP";
  const candidates = [];
  // Buffers for the pyramid's first (largest) level, not the photo: with large faces only, a fifth of its size.
  const firstScale = minFace / windowWidth;
  const cells = (Math.round(gray.width / firstScale) + 1) * (Math.round(gray.height / firstScale) + 1);
  const sum = new Int32Array(cells);
  const squares = new Float64Array(cells);
  const table = { offsets: new Int32Array(features.length * (lbp ? 16 : 12)), weights: new Float64Array(features.length * 3) };
  const { offsets, weights } = table;
  let bytes = sum.byteLength + squares.byteLength;
  const normArea = (windowWidth - 2) * (windowHeight - 2);
  for (let scale = firstScale; ; scale *= SCALE_FACTOR) {
    const levelWidth = Math.round(gray.width / scale);
    const levelHeight = Math.round(gray.height / scale);
    if (levelWidth < windowWidth + 2 || levelHeight < windowHeight + 2) break;
    const level = resizeGray(gray, levelWidth, levelHeight);
    bytes = Math.max(bytes, sum.byteLength + squares.byteLength + level.data.byteLength);
    integrals(level, sum, squares);
    const stride = levelWidth + 1;
    featureOffsets(cascade, stride, table);
    const wInner = windowWidth - 2;
    const hInner = (windowHeight - 2) * stride;
    for (let y = 0; y + windowHeight < levelHeight; y += STEP) {
      for (let x = 0; x + windowWidth < levelWidth; x += STEP) {
        const base = y * stride + x;
        let normFactor = 1;
        if (!lbp) {
          // The window's contrast (inside a 1 px border), as OpenCV's HaarEvaluator::setWindow.
          const a = base + stride + 1;
          const s = sum[a] - sum[a + wInner] - sum[a + hInner] + sum[a + hInner + wInner];
          const q = squares[a] - squares[a + wInner] - squares[a + hInner] + squares[a + hInner + wInner];
          const nf = normArea * q - s * s;
          normFactor = nf > 0 ? 1 / Math.sqrt(nf) : 1;
        }
        let passed = true;
        for (let si = 0; si < stages.length && passed; si++) {
          const stage = stages[si];
          let total = 0;
          if (stage.flat) {
            total = lbp ? lbpStumps(stage.flat, sum, offsets, base) : haarStumps(stage.flat, sum, offsets, weights, base, normFactor);
            if (total < stage.threshold) passed = false;
            continue;
          }
          for (let wi = 0; wi < stage.weak.length; wi++) {
            const weak = stage.weak[wi];
            if (lbp) {
              const o = weak.feature * 16;
              // The 4 x 4 grid of integral values; cell (r, c) = g[r][c] - g[r][c+1] - g[r+1][c] + g[r+1][c+1].
              const g0 = sum[base + offsets[o]], g1 = sum[base + offsets[o + 1]], g2 = sum[base + offsets[o + 2]], g3 = sum[base + offsets[o + 3]];
              const g4 = sum[base + offsets[o + 4]], g5 = sum[base + offsets[o + 5]], g6 = sum[base + offsets[o + 6]], g7 = sum[base + offsets[o + 7]];
              const g8 = sum[base + offsets[o + 8]], g9 = sum[base + offsets[o + 9]], g10 = sum[base + offsets[o + 10]], g11 = sum[base + offsets[o + 11]];
              const g12 = sum[base + offsets[o + 12]], g13 = sum[base + offsets[o + 13]], g14 = sum[base + offsets[o + 14]], g15 = sum[base + offsets[o + 15]];
              const centre = g5 - g6 - g9 + g10;
              const code =
                (g0 - g1 - g4 + g5 >= centre ? 128 : 0) | (g1 - g2 - g5 + g6 >= centre ? 64 : 0) | (g2 - g3 - g6 + g7 >= centre ? 32 : 0) |
                (g6 - g7 - g10 + g11 >= centre ? 16 : 0) | (g10 - g11 - g14 + g15 >= centre ? 8 : 0) | (g9 - g10 - g13 + g14 >= centre ? 4 : 0) |
                (g8 - g9 - g12 + g13 >= centre ? 2 : 0) | (g4 - g5 - g8 + g9 >= centre ? 1 : 0);
              total += weak.subset[code >> 5] & (1 << (code & 31)) ? weak.leafValues[0] : weak.leafValues[1];
            } else {
              let node = 0;
              for (;;) {
                const { left, right, feature, threshold } = weak.tree[node];
                const o = base;
                const f12 = feature * 12;
                const f3 = feature * 3;
                let value =
                  weights[f3] * (sum[o + offsets[f12]] - sum[o + offsets[f12 + 1]] - sum[o + offsets[f12 + 2]] + sum[o + offsets[f12 + 3]]) +
                  weights[f3 + 1] * (sum[o + offsets[f12 + 4]] - sum[o + offsets[f12 + 5]] - sum[o + offsets[f12 + 6]] + sum[o + offsets[f12 + 7]]);
                if (weights[f3 + 2] !== 0) value += weights[f3 + 2] * (sum[o + offsets[f12 + 8]] - sum[o + offsets[f12 + 9]] - sum[o + offsets[f12 + 10]] + sum[o + offsets[f12 + 11]]);
                const next = value * normFactor < threshold ? left : right;
                if (next <= 0) {
                  total += weak.leafValues[-next];
                  break;
                }
                node = next;
              }
            }
          }
          if (total < stage.threshold) passed = false;
        }
        if (passed) candidates.push([x * scale, y * scale, windowWidth * scale, windowHeight * scale]);
      }
    }
  }
  return { candidates, bytes };
}

/** OpenCV's groupRectangles: clusters of alike windows, averaged, kept when more than `minNeighbours` windows agree. */
function groupWindows(windows, minNeighbours, eps = 0.2) {
  const parent = windows.map((_, i) => i);
  const find = (i) => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const alike = (a, b) => {
    const delta = (eps * (Math.min(a[2], b[2]) + Math.min(a[3], b[3]))) / 2;
    return Math.abs(a[0] - b[0]) <= delta && Math.abs(a[1] - b[1]) <= delta && Math.abs(a[0] + a[2] - b[0] - b[2]) <= delta && Math.abs(a[1] + a[3] - b[1] - b[3]) <= delta;
  };
  for (let i = 0; i < windows.length; i++) for (let j = i + 1; j < windows.length; j++) if (alike(windows[i], windows[j])) parent[find(i)] = find(j);
  const clusters = new Map();
  windows.forEach((w, i) => {
    const c = clusters.get(find(i)) ?? { box: [0, 0, 0, 0], count: 0 };
    for (let k = 0; k < 4; k++) c.box[k] += w[k];
    c.count++;
    clusters.set(find(i), c);
  });
  const kept = [...clusters.values()].filter((c) => c.count > minNeighbours).map((c) => ({ box: c.box.map((v) => v / c.count), count: c.count }));
  // A small cluster inside a bigger, as strong one is dropped (OpenCV's last pass).
  return kept
    .filter((a) => !kept.some((b) => b !== a && b.count >= Math.max(3, a.count) && inside(a.box, b.box, 0.2)))
    .map((c) => c.box);
}

function inside([x, y, w, h], [bx, by, bw, bh], eps) {
  const dx = bw * eps;
  const dy = bh * eps;
  return x >= bx - dx && y >= by - dy && x + w <= bx + bw + dx && y + h <= by + bh + dy && bw * bh > w * h;
}

export function detect(cascade, gray, minFace = MIN_FACE_PX) {
  const { candidates, bytes } = scan(cascade, gray, minFace);
  return { boxes: groupWindows(candidates, MIN_NEIGHBOURS), windows: candidates.length, bytes };
}

function iou([ax, ay, aw, ah], [bx, by, bw, bh]) {
  const w = Math.max(0, Math.min(ax + aw, bx + bw) - Math.max(ax, bx));
  const h = Math.max(0, Math.min(ay + ah, by + bh) - Math.max(ay, by));
  return (w * h) / (aw * ah + bw * bh - w * h);
}

// ---- run ----
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const longEdge = Number(option("--long-edge") ?? 1155);
const minFace = Number(option("--min-face") ?? MIN_FACE_PX);
const only = option("--only");

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleWorkerCode({ entryPoints: [join(root, "bench", "codecs.ts")], outdir: out, outExtension: { ".js": ".mjs" } });
  const codecs = await import(pathToFileURL(join(out, "codecs.mjs")).href);
  integrals = codecs.integrate;
  const opencvData = findPackageFolder(out, {
    deb: "opencv-data",
    folder: "usr/share/opencv4",
    probe: "haarcascades/haarcascade_frontalface_default.xml",
    installed: ["/usr/share/opencv4", "/usr/share/opencv"],
    unpackTo: "opencv-data",
  });
  if (!opencvData) {
    console.log("opencv-data not found (apt-get download opencv-data): no cascade to run");
    process.exit(0);
  }
  const photos = (await benchPhotos({ root, out, codecs })).filter((p) => p.faces);
  const chosen = only ? photos.filter((p) => only.split("|").some((text) => p.label.includes(text))) : photos;
  const cascades = CASCADES.map(([file, finds]) => ({ file, finds, cascade: readCascade(readFileSync(join(opencvData, file), "utf8")) }));
  const hasOpenCv = existsSync("/usr/bin/python3") && spawnSync("/usr/bin/python3", ["-c", "import cv2"]).status === 0;
  console.log(`Viola-Jones cascades on the face photos scaled to a ${longEdge} px long edge (scale factor ${SCALE_FACTOR}, step ${STEP} px, ${MIN_NEIGHBOURS}+ neighbours, faces from ${minFace} px); hit = IoU >= ${HIT_IOU} with a hand box`);
  for (const photo of chosen) {
    const rgba = await codecs.decodeJpegRgba(new Uint8Array(readFileSync(photo.path)));
    const full = { data: new Uint8Array(rgba.width * rgba.height), width: rgba.width, height: rgba.height };
    for (let i = 0; i < full.data.length; i++) full.data[i] = (rgba.data[i * 4] * 299 + rgba.data[i * 4 + 1] * 587 + rgba.data[i * 4 + 2] * 114 + 500) / 1000;
    const factor = longEdge / Math.max(full.width, full.height);
    const gray = resizeGray(full, Math.round(full.width * factor), Math.round(full.height * factor));
    const handBoxes = photo.faces.map((b) => b.map((v) => v * factor));
    console.log(`\n${photo.label}: ${gray.width}x${gray.height}, ${handBoxes.length} face(s) by hand`);
    for (const { file, finds, cascade } of cascades) {
      let best = Infinity;
      let result;
      for (let run = 0; run < RUNS; run++) {
        const start = cpuMs();
        result = detect(cascade, gray, minFace);
        best = Math.min(best, cpuMs() - start);
      }
      const hits = handBoxes.filter((hand) => result.boxes.some((box) => iou(hand, box) >= HIT_IOU)).length;
      const falseBoxes = result.boxes.filter((box) => !handBoxes.some((hand) => iou(hand, box) >= HIT_IOU));
      const inPhoto = (box) => `[${box.map((v) => Math.round(v / factor)).join(",")}]`;
      const shown = result.boxes.length > 6 ? `${result.boxes.length} boxes` : result.boxes.map(inPhoto).join(" ") || "none";
      let reference = "";
      if (hasOpenCv) {
        const script = `import cv2,sys\ng=cv2.imread(sys.argv[1],0)\nf=${longEdge}/max(g.shape)\ng=cv2.resize(g,(round(g.shape[1]*f),round(g.shape[0]*f)))\nc=cv2.CascadeClassifier(sys.argv[2])\nprint(len(c.detectMultiScale(g,${SCALE_FACTOR},${MIN_NEIGHBOURS},minSize=(${minFace},${minFace}))))`;
        const run = spawnSync("/usr/bin/python3", ["-c", script, photo.path, join(opencvData, file)], { encoding: "utf8" });
        reference = `; OpenCV's own finds ${run.stdout.trim()}`;
      }
      console.log(
        `  ${file.split("/")[1].replace(".xml", "").padEnd(36)} (${finds}) ${String(hits).padStart(2)}/${handBoxes.length} hit, ${falseBoxes.length} false, ` +
          `${best.toFixed(0).padStart(5)} ms CPU, ${(result.bytes / 2 ** 20).toFixed(1)} MB${reference}; ours (photo px): ${shown}`,
      );
    }
  }
}
