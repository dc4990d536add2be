"""A fitted boundary model's maps of other photos (the val photos, say), to see its pages before
it is written in TypeScript: `npm run bench:bsds -- BSDS500/images/val --boundary-maps OUT`.

    python3 bench/boundary-model/predict.py MODEL.pkl FEATURES OUT [--extra DIR]

MODEL.pkl: train.py's model fitted on all of train (with `--extra` if it was fitted with one);
FEATURES: the kernel's planes of the photos (`node bench/boundary-model/dump.mjs BSDS500 FEATURES
--split val`); DIR: the extra planes of the same photos, as ID.npy (pixels x planes) or ID.f32 (one
plane, as structured_forest.py writes its maps). Writes OUT/ID.f32, the chance per pixel.
"""
import os
import pickle
import sys

import numpy as np

from planes import photo_planes

model_path, features, out = sys.argv[1:4]
extra = sys.argv[sys.argv.index("--extra") + 1] if "--extra" in sys.argv else None
model = pickle.load(open(model_path, "rb"))
os.makedirs(out, exist_ok=True)

names = sorted(f[:-6] for f in os.listdir(features) if f.endswith(".shape"))
for name in names:
    model.predict_proba(photo_planes(features, extra, name))[:, 1].astype(np.float32).tofile(os.path.join(out, name + ".f32"))
print(f"{len(names)} maps -> {out}")
