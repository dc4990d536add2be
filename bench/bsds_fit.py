"""Fits the border model (decision 031) on the borders bench/bsds-fit.mjs wrote.

  python3 bench/bsds_fit.py BSDS500_DIR BORDERS_DIR             the finest regions' borders (<id>.json, <id>.label)
  python3 bench/bsds_fit.py --near BSDS500_DIR BORDERS_DIR      writes each train photo's near map for --as-merged
  python3 bench/bsds_fit.py --merged BSDS500_DIR BORDERS_DIR    the borders as the tree weighed them (<id>.merged)
  python3 bench/bsds_fit.py --people-maps BSDS500_DIR SPLIT OUT  each photo's near map as OUT/<id>.f32: a boundary
                                                                 map that is right everywhere, for bench:bsds's
                                                                 --boundary-maps (bench/boundary-model/README.md)
  ... --drop NAME[,NAME]                                         fits without these inputs (their weights 0);
                                                                 compare the printed log-loss with and without

A border's target is the share of people who drew a line within 2 px of it (on the photo's own
grid), averaged over its cracks; borders are weighted by their length (the merged rows: by their
share of their checkpoint's length, so every checkpoint counts alike). Only borders whose two
regions hold at least MIN_AREA pixels are used: the tree judges mostly merged, larger regions,
and the tiny first basins' borders taught the model the wrong thing (decision 031). Prints the
weights as tuning.ts writes them. Needs numpy, scipy and OpenCV (python3-scipy, python3-opencv).
"""
import json, os, sys
import numpy as np, cv2
from scipy.io import loadmat
from scipy.optimize import minimize

MIN_AREA = 60
NEAR_PX = 2

def border_targets(label, near, rows):
    """The mean of `near` over each border's cracks (the larger of its two pixels)."""
    count = int(label.max()) + 1
    index = {int(a) * count + int(b): i for i, (a, b) in enumerate(rows[:, :2])}
    total = np.zeros(len(rows)); cracks = np.zeros(len(rows))
    for p, q, vp, vq in [(label[:, :-1], label[:, 1:], near[:, :-1], near[:, 1:]), (label[:-1, :], label[1:, :], near[:-1, :], near[1:, :])]:
        on = p != q
        a = np.minimum(p[on], q[on]).astype(np.int64); b = np.maximum(p[on], q[on])
        value = np.maximum(vp[on], vq[on])
        pairs, which = np.unique(a * count + b, return_inverse=True)
        edge = np.array([index.get(int(pair), -1) for pair in pairs])
        sums = np.bincount(which, weights=value, minlength=len(pairs)); counts = np.bincount(which, minlength=len(pairs))
        known = edge >= 0
        np.add.at(total, edge[known], sums[known]); np.add.at(cracks, edge[known], counts[known])
    return total / np.maximum(cracks, 1)

def evidence(rows, pixels, grey, grain_levels):
    """The model's inputs from rows of (a, b, length, saliency, magnitude, lightness, grain, colour, smaller area); `pixels` the photo's pixel count, `grey` 1 where it was read without colour, `grain_levels` the smoother and the grainier side's grain level (two columns)."""
    length, saliency, magnitude, lightness, grain, colour, smaller = (rows[:, i] for i in range(2, 9))
    return np.column_stack([np.log1p(saliency), np.log1p(magnitude), lightness, grain, colour, np.sqrt(lightness), np.sqrt(grain), np.sqrt(colour), np.log(smaller / pixels), np.log(length / np.sqrt(pixels)), grey * np.ones(len(rows)), grain_levels])

NAMES = ["logSaliency", "logMagnitude", "lightness", "grain", "colour", "sqrtLightness", "sqrtGrain", "sqrtColour", "logSmallerArea", "logLength", "greyPhoto", "smootherGrain", "grainierGrain", "logBoundary"]

def near_map(data, name, split="train"):
    """Per pixel of a photo, the share of its people who drew a line within NEAR_PX."""
    truth = loadmat(os.path.join(data, "groundTruth", split, name + ".mat"))["groundTruth"]
    drawings = [truth[0, i]["Boundaries"][0, 0].astype(np.uint8) for i in range(truth.shape[1])]
    kernel = np.ones((2 * NEAR_PX + 1, 2 * NEAR_PX + 1), np.uint8)
    return np.mean([cv2.dilate(d, kernel) > 0 for d in drawings], axis=0)

def write_near(data, out):
    """--near: each train photo's near map as <id>.near (float32, the photo's rows), for the merged fit."""
    names = sorted(f[:-4] for f in os.listdir(os.path.join(data, "images", "train")) if f.endswith(".jpg"))
    for name in names:
        near = near_map(data, name).astype(np.float32)
        near.tofile(os.path.join(out, name + ".near"))
        with open(os.path.join(out, name + ".shape"), "w") as f:
            f.write(f"{near.shape[1]} {near.shape[0]}")

def write_people_maps(data, split, out):
    """--people-maps: each photo's near map as <id>.f32, the map a perfect boundary model would give."""
    os.makedirs(out, exist_ok=True)
    for name in sorted(f[:-4] for f in os.listdir(os.path.join(data, "images", split)) if f.endswith(".jpg")):
        near_map(data, name, split).astype(np.float32).tofile(os.path.join(out, name + ".f32"))

def merged_rows(borders):
    """--merged: the rows bench/bsds-job.ts mergedBorderRows wrote (stage, length, saliency, magnitude, lightness, grain, colour, smaller area, drawn share, smoother and grainier grain level, the boundary model's mean chance), the last as log(1 + 100 x it) (region-features.ts)."""
    X, Y, W = [], [], []
    for name in sorted(f[:-7] for f in os.listdir(borders) if f.endswith(".merged")):
        rows = np.array(json.load(open(os.path.join(borders, name + ".merged"))), dtype=float)
        if len(rows) == 0:
            continue
        keep = rows[:, 7] >= MIN_AREA
        rows = rows[keep]
        # Each checkpoint of a photo counts as much as any other: weights are its rows' share of its length.
        stage_length = {}
        for stage in np.unique(rows[:, 0]):
            stage_length[stage] = rows[rows[:, 0] == stage, 1].sum()
        width, height = map(int, open(os.path.join(borders, name + ".shape")).read().split())
        X.append(np.column_stack([evidence(rows[:, [0, 0, 1, 2, 3, 4, 5, 6, 7]], width * height, (rows[:, 0] < 0).astype(float), rows[:, 9:11]), np.log1p(100 * rows[:, 11])])); Y.append(rows[:, 8])
        W.append(rows[:, 1] / np.array([stage_length[s] for s in rows[:, 0]]))
    return np.concatenate(X), np.concatenate(Y), np.concatenate(W)

def finest_rows(data, borders):
    X, Y, W = [], [], []
    for name in sorted(f[:-5] for f in os.listdir(borders) if f.endswith(".json")):
        meta = json.load(open(os.path.join(borders, name + ".json")))
        label = np.fromfile(os.path.join(borders, name + ".label"), dtype=np.int32).reshape(meta["height"], meta["width"])
        near = near_map(data, name)
        if near.shape != label.shape:
            continue  # the analysis grid is the photo's own size for BSDS's 481 x 321 photos
        rows = np.array(meta["rows"], dtype=float)
        keep = rows[:, 8] >= MIN_AREA
        # No boundary model's answers on these rows (the first fit's): its weight fits to 0.
        X.append(np.column_stack([evidence(rows[keep], label.size, 0, rows[keep, 9:11]), np.zeros(keep.sum())])); Y.append(border_targets(label, near, rows)[keep]); W.append(rows[keep, 2])
    return np.concatenate(X), np.concatenate(Y), np.concatenate(W)

def main():
    args = sys.argv[1:]
    dropped = set()
    if "--drop" in args:
        at = args.index("--drop")
        dropped = set(args[at + 1].split(","))
        del args[at:at + 2]
    if args[0] == "--near":
        return write_near(args[1], args[2])
    if args[0] == "--people-maps":
        return write_people_maps(args[1], args[2], args[3])
    if args[0] == "--merged":
        X, Y, W = merged_rows(args[2])
    else:
        X, Y, W = finest_rows(args[0], args[1])
    # A dropped input is a column of zeros: its weight fits to 0 (the penalty pulls it there).
    for name in dropped:
        X[:, NAMES.index(name)] = 0
    mean, spread = X.mean(0), X.std(0) + 1e-9
    Z = np.hstack([(X - mean) / spread, np.ones((len(X), 1))])

    def loss(w):
        p = 1 / (1 + np.exp(-(Z @ w)))
        value = -(W * (Y * np.log(p + 1e-9) + (1 - Y) * np.log(1 - p + 1e-9))).sum() / W.sum() + 1e-4 * (w[:-1] ** 2).sum()
        gradient = Z.T @ (W * (p - Y)) / W.sum(); gradient[:-1] += 2e-4 * w[:-1]
        return value, gradient

    w = minimize(loss, np.zeros(Z.shape[1]), jac=True, method="L-BFGS-B").x
    weights = w[:-1] / spread
    bias = w[-1] - (w[:-1] * mean / spread).sum()
    # The fit's own weighted log-loss (its small weight penalty included): with fifteen weights on
    # millions of borders it is as good as a held-out one, and it is how a candidate input is
    # compared (with and without it, --drop).
    print(f"{len(Y)} borders of regions >= {MIN_AREA} px; people drew {(W * Y).sum() / W.sum():.3f} of their length; weighted log-loss {loss(w)[0]:.4f}")
    print("export const BORDER_MODEL: BorderModel = {")
    print(f"  bias: {bias:.3f},")
    for name, value in zip(NAMES, weights):
        print(f"  {name}: {value:.3f},")
    print("};")

if __name__ == "__main__":
    main()
