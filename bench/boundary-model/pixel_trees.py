"""The boundary model's trees and how they are fitted, shared by train.py and auto_context.py:
boosted trees (scikit-learn's HistGradientBoostingClassifier) from a photo's planes to the share of
its people who drew a line within 2 px of the pixel."""
import os

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

TREES, DEPTH, LEARNING_RATE = 40, 6, 0.25
PIXELS_PER_PHOTO = 1500  # drawn-near pixels, and as many anywhere, per photo
COLOUR_ONLY_SHARE = float(os.environ.get("COLOUR_ONLY_SHARE", 0.5))  # of those, again from the photo without its lightness


def train_photos(data):
    return sorted(name[:-4] for name in os.listdir(os.path.join(data, "images", "train")) if name.endswith(".jpg"))


def drawn_share(near_dir, name):
    """Per grid pixel, the share of people who drew near it (`npm run bench:bsds-fit -- BSDS500 --as-merged`)."""
    width, height = map(int, open(os.path.join(near_dir, name + ".shape")).read().split())
    return np.fromfile(os.path.join(near_dir, name + ".near"), dtype=np.float32)[: width * height]


def fit(names, planes, near_dir, random):
    """Trees fitted on the photos `names`; `planes(name, suffix)` gives a photo's planes as pixels x
    planes, suffix "" as it is and ".colour" without its lightness."""
    X, y = [], []
    for name in names:
        share = drawn_share(near_dir, name)
        drawn = np.flatnonzero(share > 0)
        picked = np.r_[random.choice(drawn, min(PIXELS_PER_PHOTO, len(drawn)), replace=False), random.choice(len(share), PIXELS_PER_PHOTO, replace=False)]
        X.append(planes(name, "")[picked]); y.append(share[picked])
        # The same pixels with the photo's lightness taken away, a share of them (dump.mjs): the
        # lines people drew where only the colour shows them.
        colour_only = random.choice(picked, int(len(picked) * COLOUR_ONLY_SHARE), replace=False)
        X.append(planes(name, ".colour")[colour_only]); y.append(share[colour_only])
    X, y = np.concatenate(X), np.concatenate(y)
    # The share as a soft label: each row once drawn (weight share) and once not (1 - share). The
    # trees stop early on a tenth of the rows held out; the held-out rows are drawn from `random`
    # too, so that a fit is the same each time it is run (scikit-learn draws them afresh otherwise).
    model = HistGradientBoostingClassifier(max_iter=TREES, max_depth=DEPTH, learning_rate=LEARNING_RATE, random_state=int(random.integers(2**31)))
    model.fit(np.vstack([X, X]), np.r_[np.ones(len(X)), np.zeros(len(X))], sample_weight=np.r_[y, 1 - y] + 1e-6)
    return model


def chance(model, planes):
    return model.predict_proba(planes)[:, 1].astype(np.float32)
