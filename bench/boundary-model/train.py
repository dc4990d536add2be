"""Fits the per-pixel boundary model (workers/sketch/kernel/boundary/, decision 035) on BSDS500's
train photos: boosted trees (scikit-learn's HistGradientBoostingClassifier) from the kernel's own
feature planes to the share of the photo's people who drew a line within 2 px of the pixel.

    python3 bench/boundary-model/train.py BSDS500 FEATURES NEAR OUT [--extra DIR] [--maps-only N]

FEATURES: the planes `node bench/boundary-model/dump.mjs BSDS500 FEATURES` wrote (ID.f32, ID.shape);
NEAR: bench/out/bsds-fit after `npm run bench:bsds-fit -- BSDS500 --as-merged` (ID.near, ID.shape,
the drawn share per pixel). Writes to OUT: model.pkl (fitted on all of train), and per train photo
ID.f32, its chance map from a model fitted on the other half of train (cross-fitted, so the border
model can be fitted on maps of photos their model never saw: `npm run bench:bsds-fit -- BSDS500
--as-merged --boundary-maps OUT`). Then `python3 bench/boundary-model/export.py OUT/model.pkl
workers/sketch/kernel/boundary/model.json`.

A candidate input is tried before it is written in TypeScript: `--extra DIR` adds the planes
histogram_gradients.py wrote (ID.npy, ID.colour.npy), or a map structured_forest.py wrote (ID.f32,
ID.colour.f32), to the kernel's, and `--maps-only N` writes
only the first N photos' cross-fitted maps (no model.pkl), for map_pages.py and the scorer.
"""
import os
import pickle
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

from planes import extra_planes, kernel_planes

TREES, DEPTH, LEARNING_RATE = 40, 6, 0.25
PIXELS_PER_PHOTO = 1500  # drawn-near pixels, and as many anywhere, per photo
COLOUR_ONLY_SHARE = float(os.environ.get("COLOUR_ONLY_SHARE", 0.5))  # of those, again from the photo without its lightness

data, features, near_dir, out = sys.argv[1:5]
extra = sys.argv[sys.argv.index("--extra") + 1] if "--extra" in sys.argv else None
maps_only = int(sys.argv[sys.argv.index("--maps-only") + 1]) if "--maps-only" in sys.argv else None
os.makedirs(out, exist_ok=True)
train = sorted(name[:-4] for name in os.listdir(os.path.join(data, "images", "train")) if name.endswith(".jpg"))
random = np.random.default_rng(0)


def planes(name, suffix=""):
    kernel = kernel_planes(features, name, suffix)
    return np.hstack([kernel, extra_planes(extra, name, suffix)]) if extra else kernel


def near(name):
    width, height = map(int, open(os.path.join(near_dir, name + ".shape")).read().split())
    return np.fromfile(os.path.join(near_dir, name + ".near"), dtype=np.float32)[: width * height]


def fit(names):
    X, y = [], []
    for name in names:
        share = near(name)
        drawn = np.flatnonzero(share > 0)
        picked = np.r_[random.choice(drawn, min(PIXELS_PER_PHOTO, len(drawn)), replace=False), random.choice(len(share), PIXELS_PER_PHOTO, replace=False)]
        X.append(planes(name)[picked]); y.append(share[picked])
        # The same pixels with the photo's lightness taken away, a share of them (dump.mjs): the
        # lines people drew where only the colour shows them.
        colour_only = random.choice(picked, int(len(picked) * COLOUR_ONLY_SHARE), replace=False)
        X.append(planes(name, ".colour")[colour_only]); y.append(share[colour_only])
    X, y = np.concatenate(X), np.concatenate(y)
    # The share as a soft label: each row once drawn (weight share) and once not (1 - share).
    model = HistGradientBoostingClassifier(max_iter=TREES, max_depth=DEPTH, learning_rate=LEARNING_RATE)
    model.fit(np.vstack([X, X]), np.r_[np.ones(len(X)), np.zeros(len(X))], sample_weight=np.r_[y, 1 - y] + 1e-6)
    return model


for half in (0, 1):
    model = fit([name for i, name in enumerate(train) if i % 2 != half])
    for i, name in enumerate(train[:maps_only]):
        if i % 2 == half:
            model.predict_proba(planes(name))[:, 1].astype(np.float32).tofile(os.path.join(out, name + ".f32"))
    print(f"half {half}: cross-fitted maps written", flush=True)
if maps_only is not None:
    sys.exit(0)
pickle.dump(fit(train), open(os.path.join(out, "model.pkl"), "wb"))
print(f"model on all {len(train)} train photos: {os.path.join(out, 'model.pkl')}")
