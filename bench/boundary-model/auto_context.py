"""Auto-context (Tu and Bai 2010) for the boundary model, tried before it is written in TypeScript
(decision 035, "Measured (2026-12-02): auto-context"): a second set of trees reads the kernel's
planes and, beside them, what the first set's map looks like around each pixel (its blurs at four
scales, its largest value nearby, its values a few pixels away across and along the line it
crosses, how many crests lie around), so that a response among many parallel ones (fur, stripes,
gravel) can be told from one that runs on by itself (an outline).

    python3 bench/boundary-model/auto_context.py BSDS500 FEATURES VAL_FEATURES NEAR OUT [--extra DIR --extra-val DIR]

FEATURES, NEAR, --extra as train.py reads them; VAL_FEATURES: `dump.mjs BSDS500 VAL_FEATURES
--split val`; --extra-val: the extra planes of the val photos. Writes OUT/ID.f32 for each train
photo, its second-stage map cross-fitted by the halves of train (both stages of the half that
never saw it), for `npm run bench:bsds-fit -- BSDS500 --as-merged --boundary-maps OUT`, and
OUT/val/ID.f32, both stages fitted on all of train, for `npm run bench:bsds -- …/val
--boundary-maps OUT/val` (bench/boundary-model/README.md, steps 4-6).
"""
import os
import sys

import numpy as np
from scipy import ndimage

from pixel_trees import chance, fit, train_photos
from planes import photo_planes

data, features, val_features, near_dir, out = sys.argv[1:6]
option = lambda flag: sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv else None
extra, extra_val = option("--extra"), option("--extra-val")
os.makedirs(os.path.join(out, "val"), exist_ok=True)
train = train_photos(data)
val = sorted(name[:-6] for name in os.listdir(val_features) if name.endswith(".shape"))
random = np.random.default_rng(0)
CREST_AT_LEAST = 0.15  # a crest of the first map counted as one of the lines around


def grid_shape(planes_dir, name):
    _, height, width = map(int, open(os.path.join(planes_dir, name + ".shape")).read().split())
    return height, width


def first_planes(name, suffix):
    return photo_planes(features, extra, name, suffix)


def context(first_map, height, width):
    """The first map around each pixel, as pixels x 22 planes."""
    m = first_map.reshape(height, width).astype(np.float64)
    planes = [m] + [ndimage.gaussian_filter(m, s) for s in (2, 4, 8, 16)]
    planes += [ndimage.maximum_filter(m, size) for size in (7, 15)]
    # The direction across the line: the structure tensor's first axis, on the map smoothed a little.
    smooth = ndimage.gaussian_filter(m, 1)
    gy, gx = np.gradient(smooth)
    jxx, jxy, jyy = (ndimage.gaussian_filter(product, 3) for product in (gx * gx, gx * gy, gy * gy))
    across = 0.5 * np.arctan2(2 * jxy, jxx - jyy)
    nx, ny = np.cos(across), np.sin(across)
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    at = lambda plane, dx, dy: ndimage.map_coordinates(plane, [y + dy, x + dx], order=1, mode="nearest")
    blurred = planes[1]  # the map blurred by 2 px, so that a neighbour is read off its line's middle
    for d in (3, 6, 12):
        # Across: the two sides' mean and larger; along: the line's two continuations, weaker and stronger.
        a, b = at(blurred, d * nx, d * ny), at(blurred, -d * nx, -d * ny)
        c, e = at(blurred, -d * ny, d * nx), at(blurred, d * ny, -d * nx)
        planes += [0.5 * (a + b), np.maximum(a, b), np.minimum(c, e), np.maximum(c, e)]
    crest = (smooth >= at(smooth, nx, ny)) & (smooth >= at(smooth, -nx, -ny)) & (smooth > CREST_AT_LEAST)
    planes += [ndimage.gaussian_filter(crest.astype(np.float64), s) for s in (6, 12)]
    planes.append(np.sqrt((jxx - jyy) ** 2 + 4 * jxy**2) / (jxx + jyy + 1e-9))  # how much one direction rules
    return np.stack([plane.ravel() for plane in planes], 1).astype(np.float32)


halves = [[name for i, name in enumerate(train) if i % 2 != half] for half in (0, 1)]  # the photos half k's trees are fitted on
first_maps = {}
for half in (0, 1):
    model = fit(halves[half], first_planes, near_dir, random)
    for i, name in enumerate(train):
        if i % 2 == half:
            for suffix in ("", ".colour"):
                first_maps[name + suffix] = chance(model, first_planes(name, suffix))
    print(f"first stage, half {half}", flush=True)
first_model = fit(train, first_planes, near_dir, random)
contexts = {}


def second_planes(name, suffix):
    # Each train photo's context comes from its cross-fitted first map: the second trees learn
    # from maps of photos the first trees never saw, as they will read them on a customer's photo.
    if name + suffix not in contexts:
        contexts[name + suffix] = context(first_maps[name + suffix], *grid_shape(features, name))
    return np.hstack([first_planes(name, suffix), contexts[name + suffix]])


for half in (0, 1):
    model = fit(halves[half], second_planes, near_dir, random)
    for i, name in enumerate(train):
        if i % 2 == half:
            chance(model, second_planes(name, "")).tofile(os.path.join(out, name + ".f32"))
    print(f"second stage, half {half}: cross-fitted maps written", flush=True)
second_model = fit(train, second_planes, near_dir, random)
for name in val:
    planes = photo_planes(val_features, extra_val, name)
    first = chance(first_model, planes)
    chance(second_model, np.hstack([planes, context(first, *grid_shape(val_features, name))])).tofile(os.path.join(out, "val", name + ".f32"))
print(f"{len(val)} val maps -> {os.path.join(out, 'val')}")
