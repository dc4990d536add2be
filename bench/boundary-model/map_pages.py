"""The boundary model's map alone, as pages the benchmark's scorer reads (decision 035, "the map
alone against the hierarchy"): each photo's chance map thinned to its crests (kept where it is
no lower than both neighbours across its own gradient, as Canny thins) and cut at 17 thresholds,
written as MAPS_DIR's photos' pages OUT/<id>-t<hundredths>.pgm (ink 0 on 255).

    python3 bench/boundary-model/map_pages.py BSDS500 MAPS_DIR OUT [--limit N] [--only ID,ID,...] [--times K]
    python3 evaluate.py BSDS500 OUT --split train --limit N --levels t06,t10,...,t70  (it prints the list)

MAPS_DIR: ID.f32 at the train photo's own size, as train.py writes the cross-fitted maps.
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
THRESHOLDS = np.linspace(0.06, 0.70, 17)


def crests(chance):
    """The map where it is a local maximum across its own gradient (four directions), 0 elsewhere."""
    smooth = cv2.GaussianBlur(chance, (0, 0), 1.0)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    direction = (np.round(np.arctan2(gy, gx) / (np.pi / 4)) % 4).astype(int)
    padded = np.pad(chance, 1, mode="edge")
    height, width = chance.shape
    keep = np.zeros(chance.shape, bool)
    for k, (dy, dx) in enumerate([(0, 1), (1, 1), (1, 0), (1, -1)]):
        ahead = padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
        behind = padded[1 - dy:1 - dy + height, 1 - dx:1 - dx + width]
        keep |= (direction == k) & (chance >= ahead) & (chance >= behind)
    return chance * keep


def shape_of(name):
    # 481 x 321 and 321 x 481 hold as many values: the photo says which way up the map is.
    photo = cv2.imread(os.path.join(data, "images", "train", name + ".jpg"), cv2.IMREAD_GRAYSCALE)
    if photo is None:
        raise SystemExit(f"{name}: no train photo of that id in {data}")
    return photo.shape


os.makedirs(out, exist_ok=True)
names = [name for name in sorted(f[:-4] for f in os.listdir(maps) if f.endswith(".f32") and ".colour" not in f) if only is None or name in only][:limit]
for name in names:
    values = np.fromfile(os.path.join(maps, name + ".f32"), dtype=np.float32)
    thinned = crests(values.reshape(shape_of(name)) * times)
    for threshold in THRESHOLDS:
        page = np.where(thinned > threshold, 0, 255).astype(np.uint8)
        cv2.imwrite(os.path.join(out, f"{name}-t{round(threshold * 100):02d}.pgm"), page)
levels = ",".join(f"t{round(t * 100):02d}" for t in THRESHOLDS)
print(f"{len(names)} maps x {len(THRESHOLDS)} thresholds -> {out}; score with: evaluate.py BSDS500 {out} --split train --levels {levels}")
