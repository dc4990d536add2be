"""A structured edge forest with its published splits (decision 035, "a structured edge forest
with its own splits"): Dollar and Zitnick's recipe (2013, 2015) on the 32 px patches of
patch_channels.py, measured as a map before anything of it is written in TypeScript.

What differs from structured_forest.py, whose splits are regressions on fixed components:
- **Labels are segmentations.** A patch's label is one person's segmentation over its middle
  16 x 16 px (as many patches labelled by each of the photo's people), not the people's lines
  averaged.
- **Each split is judged on the label's structure at that node.** At every node, 256 random pairs
  of the label's pixels, "do these two lie in one segment?" for every sample, the first principal
  component of those answers over the node's samples, and the two classes its sign makes; the
  split is the feature and threshold of the lowest Gini impurity of those classes (features in 256
  quantile bins, edge_forest_split.c).
- **A leaf answers with one drawing.** The leaf keeps the person's lines of its medoid sample (the
  one whose pair answers are nearest the leaf's mean), as sharp as a drawing, not a mean patch.
- 8 trees, each on its own random quarter of the features and its own random share of the
  patches (half of them near a person's line, within 4 px: --radius), grown to 8 samples a side; each
  position (every second pixel) reads 4 of them, alternating, and the map is the mean of the leaves'
  lines over every patch covering a pixel, smoothed by a triangle of radius 1; optionally read at
  several scales of the photo and averaged (--scales 0.5,1,2).

    python3 bench/boundary-model/edge_forest.py fit BSDS500 MODEL.pkl [--half H] [--trees 8] [--patches 5000] [--bag 0.5] [--radius 4]
    python3 bench/boundary-model/edge_forest.py maps BSDS500 MODEL.pkl OUT [--split train|val] [--half H] [--scales 1] [--limit N] [--without-lightness]

`--half` as in structured_forest.py: fit on the train photos whose place in the sorted list is not
H modulo 2, map those that are. `--patches` per photo, half near a line; `--bag` the share of them
each tree is grown on. OUT/ID.f32 at the photo's size, as map_pages.py and train.py --extra read
(ID.colour.f32 with --without-lightness: the photo's Y set to one grey, as dump.mjs takes the
lightness away). Scored alone, the maps are cut times 6 (`map_pages.py --times 6`).
Needs numpy, scipy, OpenCV and a C compiler (cc).
"""
import ctypes
import multiprocessing
import os
import pickle
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np
from scipy.io import loadmat

from patch_channels import FEATURE_COUNT, GRID, GRID_FEATURES, LABEL, PAIRS, POINTS, channels, features, names, overlay, padded, photo, triangle, write_maps

FEATURE_SHARE, MIN_CHILD, MAX_DEPTH = 0.25, 8, 64
LABEL_PAIRS = 256  # pixel pairs a node's label structure is read from
TREES_READ = 4  # trees each position reads
QUANTILE_SAMPLE = 200  # patches a photo the features' bins are cut from

command, data = sys.argv[1], sys.argv[2]
option = lambda name, fallback: sys.argv[sys.argv.index(name) + 1] if name in sys.argv else fallback
half = int(option("--half", -1))
line_radius = int(option("--radius", 4))  # a patch is "near a line" if its middle is within this of the person's line
split = option("--split", "train")


def load_helper():
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "edge_forest_split.c")
    built = os.path.join(tempfile.gettempdir(), "edge_forest_split.so")
    if not os.path.exists(built) or os.path.getmtime(built) < os.path.getmtime(source):
        subprocess.run(["cc", "-O3", "-march=native", "-shared", "-fPIC", source, "-o", built], check=True)
    helper = ctypes.CDLL(built)
    pointer = ctypes.c_void_p
    helper.quantise.argtypes = [pointer, ctypes.c_int64, ctypes.c_int64, pointer, pointer]
    helper.best_split.argtypes = [pointer, ctypes.c_int64, pointer, ctypes.c_int64, pointer, ctypes.c_int64, pointer, pointer]
    helper.best_split.restype = ctypes.c_int
    return helper


def address(array):
    return array.ctypes.data_as(ctypes.c_void_p)


def drawings(name):
    """Each person's segmentation and lines of a train photo."""
    truth = loadmat(os.path.join(data, "groundTruth", "train", name + ".mat"))["groundTruth"]
    return [(truth[0, i]["Segmentation"][0, 0].astype(np.uint16), truth[0, i]["Boundaries"][0, 0].astype(bool)) for i in range(truth.shape[1])]


def positions(name, per_photo, random):
    """Patches of one photo (top left in channel px) with the person each is labelled by: as many
    from each person, half with that person's line within line_radius of their middle."""
    people = drawings(name)
    height, width = people[0][0].shape
    ys, xs = (a.ravel() for a in np.mgrid[0 : (height + 1) // 2, 0 : (width + 1) // 2])
    picked = []
    each = max(1, per_photo // (2 * len(people)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * line_radius + 1, 2 * line_radius + 1))
    for person, (_, lines) in enumerate(people):
        near = cv2.dilate(lines.astype(np.uint8), disc)[2 * ys, 2 * xs] > 0
        for where in (np.flatnonzero(near), np.flatnonzero(~near)):
            chosen = random.choice(where, min(each, len(where)), replace=False)
            picked.append(np.stack([chosen, np.full(len(chosen), person)], 1))
    picked = np.concatenate(picked)
    return people, ys[picked[:, 0]], xs[picked[:, 0]], picked[:, 1]


def labels(people, ys, xs, who):
    """Each patch's person's segmentation and lines over its middle 16 x 16 px."""
    segments = np.zeros((len(ys), LABEL * LABEL), np.uint16)
    lines = np.zeros((len(ys), LABEL * LABEL), bool)
    for person, (segmentation, boundaries) in enumerate(people):
        padded_segments = np.pad(segmentation, LABEL // 2, mode="edge")
        padded_lines = np.pad(boundaries, LABEL // 2)
        for k in np.flatnonzero(who == person):
            y, x = 2 * ys[k], 2 * xs[k]
            segments[k] = padded_segments[y : y + LABEL, x : x + LABEL].ravel()
            lines[k] = padded_lines[y : y + LABEL, x : x + LABEL].ravel()
    return segments, lines


def photo_features(name, per_photo, random):
    people, ys, xs, who = positions(name, per_photo, random)
    grid_planes, point_planes = channels(photo(data, "train", name)[1])
    return features(grid_planes, point_planes, ys, xs), labels(people, ys, xs, who)


# The fit's shared state, set before the trees' processes fork (read-only there).
POOL, SEGMENTS, LINES = None, None, None


def node_classes(segments, random):
    """The node's two classes by the sign of the first principal component of its samples' answers
    to "same segment?" over random pixel pairs; and its medoid. None if the labels are all alike."""
    first = random.integers(0, LABEL * LABEL, LABEL_PAIRS)
    second = (first + random.integers(1, LABEL * LABEL, LABEL_PAIRS)) % (LABEL * LABEL)
    answers = (segments[:, first] == segments[:, second]).astype(np.float32)
    answers -= answers.mean(0)
    answers = answers[:, np.any(answers != 0, 0)]
    if answers.shape[1] == 0:
        return None, 0
    medoid = int(np.argmin((answers * answers).sum(1)))
    # The first component by the smaller of the two symmetric eigenproblems, in float64 (an SVD
    # of these 0/1 answers can fail to converge).
    answers = answers.astype(np.float64)
    if len(answers) <= answers.shape[1]:
        projection = np.linalg.eigh(answers @ answers.T)[1][:, -1]  # the rows' projections, scaled
    else:
        sample = answers[random.choice(len(answers), 2048, replace=False)] if len(answers) > 2048 else answers
        projection = answers @ np.linalg.eigh(sample.T @ sample)[1][:, -1]
    classes = (projection < 0).astype(np.uint8)
    return classes, medoid


def grow_tree(seed, bag, out):
    saved = f"{out}.tree{seed}"
    if os.path.exists(saved):
        return pickle.load(open(saved, "rb"))
    helper = load_helper()
    random = np.random.default_rng(seed)
    columns = np.sort(random.choice(FEATURE_COUNT, int(FEATURE_COUNT * FEATURE_SHARE), replace=False))
    rows = np.sort(random.choice(len(POOL), int(len(POOL) * bag), replace=False))
    X = np.empty((len(rows), len(columns)), np.uint8)
    for start in range(0, len(rows), 50000):
        X[start : start + 50000] = POOL[rows[start : start + 50000]][:, columns]
    segments, lines = SEGMENTS[rows], LINES[rows]
    feature, bin_, left, right, leaf = [], [], [], [], []
    stack = [(np.arange(len(rows), dtype=np.int32), 0, 0)]
    feature.append(-1), bin_.append(0), left.append(-1), right.append(-1), leaf.append(-1)
    chosen_f, chosen_b = ctypes.c_int32(), ctypes.c_int32()
    started = time.time()
    while stack:
        members, depth, node = stack.pop()
        classes, medoid = node_classes(segments[members], random)
        split = False
        if classes is not None and depth < MAX_DEPTH and len(members) >= 2 * MIN_CHILD and 0 < classes.sum() < len(members):
            members = np.ascontiguousarray(members)
            split = helper.best_split(address(X), X.shape[1], address(members), len(members), address(classes),
                                      MIN_CHILD, ctypes.byref(chosen_f), ctypes.byref(chosen_b)) > 0
        if not split:
            leaf[node] = int(members[medoid])
            continue
        goes_left = X[members, chosen_f.value] <= chosen_b.value
        feature[node], bin_[node] = int(columns[chosen_f.value]), chosen_b.value
        for side, chosen in ((left, members[goes_left]), (right, members[~goes_left])):
            side[node] = len(feature)
            feature.append(-1), bin_.append(0), left.append(-1), right.append(-1), leaf.append(-1)
            stack.append((chosen, depth + 1, side[node]))
    feature = np.array(feature, np.int32)
    leaves = np.array(leaf)
    leaf_lines = np.zeros((len(feature), LABEL * LABEL), np.uint8)
    leaf_lines[leaves >= 0] = lines[leaves[leaves >= 0]]
    print(f"tree {seed}: {len(feature)} nodes, {(leaves >= 0).sum()} leaves from {len(rows)} patches, {time.time() - started:.0f} s", flush=True)
    tree = feature, np.array(bin_, np.int32), np.array(left, np.int32), np.array(right, np.int32), leaf_lines
    pickle.dump(tree, open(saved, "wb"))  # a long fit's trees survive a later tree's failure
    return tree


def fit(out):
    global POOL, SEGMENTS, LINES
    helper = load_helper()
    trees, per_photo, bag = int(option("--trees", 8)), int(option("--patches", 5000)), float(option("--bag", 0.5))
    fitted_on = [name for i, name in enumerate(names(data, "train")) if i % 2 != half]
    random = np.random.default_rng(1)
    started = time.time()
    pool_file = f"{out}.pool.npz"  # the patches, kept for a fit resumed with the same options
    if os.path.exists(pool_file):
        stored = np.load(pool_file)
        POOL, SEGMENTS, LINES, edges = stored["pool"], stored["segments"], stored["lines"], stored["edges"]
    else:
        sample = np.concatenate([photo_features(name, QUANTILE_SAMPLE, random)[0] for name in fitted_on])
        edges = np.ascontiguousarray(np.quantile(sample, np.arange(1, 256) / 256, axis=0).T.astype(np.float32))
        del sample
        coded, segment_parts, line_parts = [], [], []
        for name in fitted_on:
            values, (segments, lines) = photo_features(name, per_photo, random)
            values = np.ascontiguousarray(values)
            bins = np.empty(values.shape, np.uint8)
            helper.quantise(address(values), len(values), values.shape[1], address(edges), address(bins))
            coded.append(bins), segment_parts.append(segments), line_parts.append(lines)
        POOL = np.concatenate(coded)
        del coded
        SEGMENTS, LINES = np.concatenate(segment_parts), np.concatenate(line_parts)
        np.savez(pool_file, pool=POOL, segments=SEGMENTS, lines=LINES, edges=edges)
    print(f"{len(POOL)} patches of {len(fitted_on)} photos, {time.time() - started:.0f} s", flush=True)
    with multiprocessing.get_context("fork").Pool(2) as workers:
        grown = workers.starmap(grow_tree, [(seed, bag, out) for seed in range(trees)])
    forest = []
    for feature, bins, left, right, leaf_lines in grown:
        inner = feature >= 0
        threshold = np.zeros(len(feature), np.float32)
        threshold[inner] = edges[feature[inner], bins[inner]]
        forest.append((feature, threshold, left, right, leaf_lines))
    pickle.dump(forest, open(out, "wb"))
    print(f"{len(forest)} trees -> {out}, {time.time() - started:.0f} s")


def feature_values(ids, grid_planes, point_planes, ys, xs):
    """Feature `ids[k]` of the patch at (ys[k], xs[k]), as patch_channels.features orders them."""
    values = np.empty(len(ids), np.float32)
    on_grid = ids < GRID_FEATURES
    g = ids[on_grid]
    values[on_grid] = grid_planes[g // (GRID * GRID), ys[on_grid] + (g // GRID) % GRID, xs[on_grid] + g % GRID]
    d = ids[~on_grid] - GRID_FEATURES
    channel, pair = d // len(PAIRS), d % len(PAIRS)
    a, b = PAIRS[pair, 0], PAIRS[pair, 1]
    y, x = ys[~on_grid], xs[~on_grid]
    # Point k of the 5 x 5 is (POINTS[k // 5], POINTS[k % 5]), features' meshgrid order.
    side = len(POINTS)
    values[~on_grid] = point_planes[channel, y + POINTS[a // side], x + POINTS[a % side]] - point_planes[channel, y + POINTS[b // side], x + POINTS[b % side]]
    return values


def chance_map(forest, rgb, padded_rgb):
    height, width = rgb.shape[:2]
    grid_planes, point_planes = channels(padded_rgb)
    rows, columns = (height + 1) // 2, (width + 1) // 2
    ys, xs = (a.ravel() for a in np.mgrid[0:rows, 0:columns])
    read = min(TREES_READ, len(forest))
    answers = np.zeros((len(ys), LABEL * LABEL), np.float32)
    for t, (feature, threshold, left, right, leaf_lines) in enumerate(forest):
        # Position parity p reads trees p * read ... p * read + read - 1 (mod the forest's size).
        readers = np.flatnonzero([(t - p * read) % len(forest) < read for p in (0, 1)])
        chosen = np.flatnonzero(np.isin((ys + xs) % 2, readers))
        node = np.zeros(len(chosen), np.int32)
        y, x = ys[chosen], xs[chosen]
        for _ in range(MAX_DEPTH + 1):
            inner = np.flatnonzero(feature[node] >= 0)
            if len(inner) == 0:
                break
            at = node[inner]
            values = feature_values(feature[at], grid_planes, point_planes, y[inner], x[inner])
            node[inner] = np.where(values < threshold[at], left[at], right[at])
        answers[chosen] += leaf_lines[node]
    chance = overlay(answers.reshape(rows, columns, LABEL, LABEL), height, width) / read
    return triangle(np.ascontiguousarray(chance), 1)


def multiscale_map(forest, rgb, scales):
    height, width = rgb.shape[:2]
    total = np.zeros((height, width), np.float32)
    for scale in scales:
        resized = rgb if scale == 1 else cv2.resize(rgb, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_LINEAR)
        chance = chance_map(forest, resized, padded(resized))
        total += chance if scale == 1 else cv2.resize(chance, (width, height), interpolation=cv2.INTER_LINEAR)
    return total / len(scales)


def maps(model, out):
    forest = pickle.load(open(model, "rb"))
    scales = [float(s) for s in option("--scales", "1").split(",")]
    limit = int(option("--limit", 10**9))
    write_maps(data, split, half, out, lambda rgb, padded: multiscale_map(forest, rgb, scales), "--without-lightness" in sys.argv, limit)


if command == "fit":
    fit(sys.argv[3])
elif command == "maps":
    maps(sys.argv[3], sys.argv[4])
else:
    raise SystemExit(__doc__)
