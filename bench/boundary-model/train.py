"""Fits the per-pixel boundary model (workers/sketch/kernel/boundary/, decision 035) on BSDS500's
train photos: boosted trees (scikit-learn's HistGradientBoostingClassifier) from the kernel's own
feature planes to the share of the photo's people who drew a line within 2 px of the pixel.

    python3 bench/boundary-model/train.py BSDS500 FEATURES NEAR OUT [--extra DIR] [--maps-only N] [--seed N]

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

from pixel_trees import chance, fit, train_photos
from planes import photo_planes

data, features, near_dir, out = sys.argv[1:5]
extra = sys.argv[sys.argv.index("--extra") + 1] if "--extra" in sys.argv else None
maps_only = int(sys.argv[sys.argv.index("--maps-only") + 1]) if "--maps-only" in sys.argv else None
os.makedirs(out, exist_ok=True)
train = train_photos(data)
# --seed: another draw of the same fit, to see how far two fits' pages differ by chance alone.
random = np.random.default_rng(int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 0)


def planes(name, suffix=""):
    return photo_planes(features, extra, name, suffix)


for half in (0, 1):
    model = fit([name for i, name in enumerate(train) if i % 2 != half], planes, near_dir, random)
    for i, name in enumerate(train[:maps_only]):
        if i % 2 == half:
            chance(model, planes(name)).tofile(os.path.join(out, name + ".f32"))
    print(f"half {half}: cross-fitted maps written", flush=True)
if maps_only is not None:
    sys.exit(0)
pickle.dump(fit(train, planes, near_dir, random), open(os.path.join(out, "model.pkl"), "wb"))
print(f"model on all {len(train)} train photos: {os.path.join(out, 'model.pkl')}")
