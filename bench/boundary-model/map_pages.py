"""The boundary model's map alone, as pages the benchmark's scorer reads (decision 035, "the map
alone against the hierarchy"): each photo's chance map thinned to its crests (kept where it is
no lower than its two neighbours across the ridge, the direction of the map's sharpest downward
curvature, as structured edge forests' non-maximum suppression reads it) and cut at 17 thresholds,
written as MAPS_DIR's photos' pages OUT/<id>-t<hundredths>.pgm (ink 0 on 255).

    python3 bench/boundary-model/map_pages.py BSDS500 MAPS_DIR OUT [--split train|val] [--limit N] [--only ID,ID,...] [--times K] [--no-crests]
    python3 evaluate.py BSDS500 OUT --split train --limit N --levels t06,t10,...,t70  (it prints the list)

MAPS_DIR: ID.f32 at the photo's own size, as train.py writes the cross-fitted maps (train) and
predict.py or edge_forest.py the val photos' (`--split val`). `--no-crests` cuts the map as it is
and leaves the thinning to the scorer, as it thins a page.
`--times K` multiplies a map before it is cut, for maps whose values do not span the thresholds
(a patch forest's mean of drawn lines peaks near 0.2: edge_forest.py's maps are cut times 6).
Scoring the map this way says how much the per-pixel evidence alone agrees with people, beside
the hierarchy cut at its thresholds (`npm run bench:bsds -- ... --cuts`) on the same photos: the
regions add to the map what gPb-owt-ucm adds to gPb's.
"""
import os
import sys

import cv2
import numpy as np

data, maps, out = sys.argv[1:4]
option = lambda name: sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None
limit = int(option("--limit")) if option("--limit") else None
only = set(option("--only").split(",")) if option("--only") else None
times = float(option("--times") or 1)
split = option("--split") or "train"
PLATEAU_MARGIN = 1.01  # a crest's pixel stays if within 1 % of a neighbour, as edgesNms keeps a plateau whole
THRESHOLDS = np.linspace(0.06, 0.70, 17)


def crests(chance):
    """The map where it is a crest across its ridge, 0 elsewhere.

    A map of lines is a ridge, not a step: on its crest its gradient is nought and points nowhere
    in particular, so the direction across it comes from its curvature (the Hessian's eigenvector
    of the smaller eigenvalue, of the map blurred by 2 px), and the two neighbours one pixel either
    way along it are read bilinearly. Until 2026-12-02 the direction was the blurred map's
    gradient (Canny's rule for a step), which breaks a line along its own crest and doubles it on a
    diagonal. The two rules favour maps of different shapes (a sharp line, a wide ridge) the other
    way round, so maps of different shapes are compared on the pages too (decision 035, "the map's
    crests across its ridge", has the figures)."""
    smooth = cv2.GaussianBlur(chance, (0, 0), 2.0)
    dxx = cv2.Sobel(smooth, cv2.CV_32F, 2, 0)
    dyy = cv2.Sobel(smooth, cv2.CV_32F, 0, 2)
    dxy = cv2.Sobel(smooth, cv2.CV_32F, 1, 1)
    across = 0.5 * np.arctan2(2 * dxy, dxx - dyy) + np.pi / 2
    step_x, step_y = np.cos(across).astype(np.float32), np.sin(across).astype(np.float32)
    rows, columns = np.mgrid[0:chance.shape[0], 0:chance.shape[1]].astype(np.float32)
    keep = np.ones(chance.shape, bool)
    for side in (-1.0, 1.0):
        neighbour = cv2.remap(chance, columns + side * step_x, rows + side * step_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        keep &= chance * PLATEAU_MARGIN >= neighbour
    return chance * keep


def shape_of(name):
    # 481 x 321 and 321 x 481 hold as many values: the photo says which way up the map is.
    photo = cv2.imread(os.path.join(data, "images", split, name + ".jpg"), cv2.IMREAD_GRAYSCALE)
    if photo is None:
        raise SystemExit(f"{name}: no {split} photo of that id in {data}")
    return photo.shape


os.makedirs(out, exist_ok=True)
names = [name for name in sorted(f[:-4] for f in os.listdir(maps) if f.endswith(".f32") and ".colour" not in f) if only is None or name in only][:limit]
for name in names:
    values = np.fromfile(os.path.join(maps, name + ".f32"), dtype=np.float32)
    chance = values.reshape(shape_of(name)) * times
    thinned = chance if "--no-crests" in sys.argv else crests(chance)
    for threshold in THRESHOLDS:
        page = np.where(thinned > threshold, 0, 255).astype(np.uint8)
        cv2.imwrite(os.path.join(out, f"{name}-t{round(threshold * 100):02d}.pgm"), page)
levels = ",".join(f"t{round(t * 100):02d}" for t in THRESHOLDS)
print(f"{len(names)} maps x {len(THRESHOLDS)} thresholds -> {out}; score with: evaluate.py BSDS500 {out} --split {split} --levels {levels}")
