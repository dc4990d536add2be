"""A candidate boundary map tried before it is written in TypeScript (decision 035, "Measured:
a structured forest"): after Dollar and Zitnick's structured edge forests (2013), a forest that
answers each 32 x 32 px patch of a photo with the people's lines over its middle 16 x 16 px, the
answers of the overlapping patches averaged into the map. Where the kernel's trees judge one
pixel from comparisons across it, these trees see the whole patch: the channels' values on a
16 x 16 grid (every second pixel) and the differences between 25 points of the blurred channels,
so they can tell the middle of a texture from its edge and where in the patch the line runs.

- Channels, at half the photo's size: the photo's L, u and v (CIE Luv), and at the photo's size and
  at half of it the gradient's magnitude (the largest of the three channels', normalised by its
  mean over 9 px) and that magnitude split into 4 orientations: 13 in all, each blurred by a
  triangle of radius 1 (the grid's values) and of radius 4 (the points' differences).
- Labels: per patch, the mean of the photo's people's boundary maps over its middle 16 x 16 px.
  The trees are regression trees (scikit-learn's) fitted to the first 8 principal components of
  those patches blurred by 1 px (so a split is judged by where the line runs and how strong it is,
  not pixel by pixel); each leaf keeps the mean patch of the photos' patches that reach it.
- 4 trees, each on a quarter of the 7228 features and half of the samples (600 patches a photo near
  a drawn line, 600 anywhere else), grown until 8 samples a leaf. The map is the mean of the
  leaves' patches over every patch at every second pixel and every tree.

    python3 bench/boundary-model/structured_forest.py fit BSDS500 MODEL.pkl [--half H]
    python3 bench/boundary-model/structured_forest.py maps BSDS500 MODEL.pkl OUT [--split train|val] [--half H] [--without-lightness]

`fit --half H` fits on the train photos whose place in the sorted list is not H modulo 2 (as
train.py cross-fits), `maps --half H` writes the maps of those that are: fit and map with H 0 and
1 for every train photo's map from trees that never saw it. OUT/ID.f32 (float32 at the photo's
size; ID.colour.f32 with --without-lightness: the photo's Y set to one grey, its colour kept, as
dump.mjs takes the lightness away). As `train.py --extra` planes: one more input of the kernel's
trees. Needs numpy, scipy, scikit-learn and OpenCV (python3-opencv).
"""
import os
import pickle
import sys

import cv2
import numpy as np
from scipy.io import loadmat
from sklearn.tree import DecisionTreeRegressor

from patch_channels import LABEL, channels, features, names, overlay, photo as read_photo, write_maps

TREES, COMPONENTS, MIN_LEAF = 4, 8, 8
NEAR_PATCHES, OTHER_PATCHES = 600, 600

command, data = sys.argv[1], sys.argv[2]
option = lambda name, fallback: sys.argv[sys.argv.index(name) + 1] if name in sys.argv else fallback
half = int(option("--half", -1))
split = option("--split", "train")


def photo(of_split, name, without_lightness=False):
    return read_photo(data, of_split, name, without_lightness)


def drawn(name):
    truth = loadmat(os.path.join(data, "groundTruth", "train", name + ".mat"))["groundTruth"]
    return np.mean([truth[0, i]["Boundaries"][0, 0] for i in range(truth.shape[1])], 0).astype(np.float32)


def patches_of(name, random):
    rgb, padded = photo("train", name)
    height, width = rgb.shape[:2]
    grid_planes, point_planes = channels(padded)
    share = drawn(name)
    # Patch k (top left ys, xs in channel px) is centred on the photo's pixel (2 ys, 2 xs).
    ys, xs = (a.ravel() for a in np.mgrid[0 : (height + 1) // 2, 0 : (width + 1) // 2])
    near = cv2.dilate((share > 0).astype(np.uint8), np.ones((3, 3), np.uint8))[2 * ys, 2 * xs] > 0
    picked = np.r_[
        random.choice(np.flatnonzero(near), min(NEAR_PATCHES, near.sum()), replace=False),
        random.choice(np.flatnonzero(~near), min(OTHER_PATCHES, (~near).sum()), replace=False),
    ]
    padded_share = np.pad(share, LABEL // 2)
    labels = np.stack([padded_share[2 * y : 2 * y + LABEL, 2 * x : 2 * x + LABEL] for y, x in zip(ys[picked], xs[picked])])
    return features(grid_planes, point_planes, ys[picked], xs[picked]), labels.reshape(len(picked), -1)


def fit(out):
    random = np.random.default_rng(1)
    fitted_on = [name for i, name in enumerate(names(data, "train")) if i % 2 != half]
    samples = [patches_of(name, random) for name in fitted_on]
    X = np.concatenate([s[0] for s in samples])
    labels = np.concatenate([s[1] for s in samples])
    del samples
    blurred = np.stack([cv2.GaussianBlur(p.reshape(LABEL, LABEL), (0, 0), 1.0) for p in labels]).reshape(len(labels), -1)
    mean = blurred.mean(0)
    components = np.linalg.svd(blurred[:20000] - mean, full_matrices=False)[2][:COMPONENTS]
    targets = (blurred - mean) @ components.T
    forest = []
    for k in range(TREES):
        columns = np.sort(random.choice(X.shape[1], X.shape[1] // 4, replace=False))
        rows = random.choice(len(X), len(X) // 2, replace=False)
        tree = DecisionTreeRegressor(max_features=int(np.sqrt(len(columns))), min_samples_leaf=MIN_LEAF, random_state=k)
        inputs = np.ascontiguousarray(X[rows][:, columns])
        tree.fit(inputs, targets[rows])
        leaf = tree.apply(inputs)
        leaf_patches = np.zeros((tree.tree_.node_count, LABEL * LABEL), np.float32)
        np.add.at(leaf_patches, leaf, labels[rows])
        leaf_patches /= np.maximum(np.bincount(leaf, minlength=tree.tree_.node_count), 1)[:, None]
        forest.append((tree, columns, leaf_patches))
        print(f"tree {k}: {tree.get_n_leaves()} leaves", flush=True)
    pickle.dump(forest, open(out, "wb"))
    print(f"{len(forest)} trees on {len(fitted_on)} photos' {len(X)} patches -> {out}")


def chance_map(forest, rgb, padded):
    """The mean of the leaves' label patches over every patch (every second pixel) and tree."""
    height, width = rgb.shape[:2]
    grid_planes, point_planes = channels(padded)
    rows, columns = (height + 1) // 2, (width + 1) // 2
    ys, xs = (a.ravel() for a in np.mgrid[0:rows, 0:columns])
    leaves = np.zeros((len(forest), len(ys)), np.int64)
    for start in range(0, len(ys), 8000):
        X = features(grid_planes, point_planes, ys[start : start + 8000], xs[start : start + 8000])
        for k, (tree, used, _) in enumerate(forest):
            leaves[k, start : start + 8000] = tree.apply(X[:, used])
    answers = sum(leaf_patches[leaves[k]] for k, (_, _, leaf_patches) in enumerate(forest))
    # Each pixel is in (LABEL / 2)² patches' label, by each tree.
    return overlay(answers.reshape(rows, columns, LABEL, LABEL), height, width) / len(forest)


def maps(model, out):
    forest = pickle.load(open(model, "rb"))
    write_maps(data, split, half, out, lambda rgb, padded: chance_map(forest, rgb, padded), "--without-lightness" in sys.argv)


if command == "fit":
    fit(sys.argv[3])
elif command == "maps":
    maps(sys.argv[3], sys.argv[4])
else:
    raise SystemExit(__doc__)
