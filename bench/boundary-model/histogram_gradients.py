"""Candidate inputs for the boundary model, tried before they are written in TypeScript
(decision 035, "Measured: histogram gradients"): how unlike the histograms of the four squares
touching a pixel's corners are across it (chi-squared; left and right, above and below, the two
diagonals; the largest and the smallest of the four), as Martin, Fowlkes and Malik's Pb compares
the half-discs' histograms, for three label maps of each train photo:

- textons: each pixel's responses to a small filter bank (first and second Gaussian derivatives
  at four orientations and two scales, a centre-surround), contrast-normalised, given the nearest
  of 32 centres found by k-means on a sample of train pixels; squares of 6, 12 and 24 px;
- lightness (Y) in 16 bins; squares of 6 and 12 px;
- colour (Cb, Cr) given the nearest of 16 centres; squares of 6 and 12 px.

    python3 bench/boundary-model/histogram_gradients.py BSDS500 OUT [--half]

`--half` reads each photo at half its size (the squares' sides halved, so they cover as much of
the photo) and brings the planes back up: a quarter of the work, as the Worker would afford it.

Writes OUT/ID.npy (pixels x 14 planes) and OUT/ID.colour.npy (the same photo with its lightness
taken away, as dump.mjs gives it: the textons and lightness planes 0, the colour planes kept),
for `train.py ... --extra OUT`. Needs numpy, scikit-learn and OpenCV (python3-opencv).
"""
import os
import sys

import cv2
import numpy as np
from sklearn.cluster import MiniBatchKMeans

data, out = sys.argv[1:3]
half = "--half" in sys.argv
TEXTONS, LIGHTNESS_BINS, COLOURS = 32, 16, 16
os.makedirs(out, exist_ok=True)
names = sorted(f[:-4] for f in os.listdir(os.path.join(data, "images", "train")) if f.endswith(".jpg"))
random = np.random.default_rng(0)


def ycc(name):
    photo = cv2.imread(os.path.join(data, "images", "train", name + ".jpg"))
    if half:
        photo = cv2.resize(photo, ((photo.shape[1] + 1) // 2, (photo.shape[0] + 1) // 2), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(photo, cv2.COLOR_BGR2YCrCb).astype(np.float32)


def filter_bank(lightness):
    responses = []
    for sigma in (1.0, 2.0):
        smooth = cv2.GaussianBlur(lightness, (0, 0), sigma)
        dx, dy = cv2.Sobel(smooth, cv2.CV_32F, 1, 0), cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
        dxx, dyy, dxy = cv2.Sobel(smooth, cv2.CV_32F, 2, 0), cv2.Sobel(smooth, cv2.CV_32F, 0, 2), cv2.Sobel(smooth, cv2.CV_32F, 1, 1)
        for angle in np.arange(4) * np.pi / 4:
            c, s = np.cos(angle), np.sin(angle)
            responses.append((c * c * dxx + 2 * c * s * dxy + s * s * dyy) * sigma * sigma)
            responses.append((c * dx + s * dy) * sigma)
        responses.append(smooth - cv2.GaussianBlur(lightness, (0, 0), 2 * sigma))
    bank = np.stack(responses, -1).reshape(-1, len(responses))
    # Contrast-normalised (Malik et al. 2001): the response vector's length log-compressed.
    length = np.linalg.norm(bank, axis=1, keepdims=True) + 1e-6
    return bank * (np.log1p(length / 8) / length)


def sample(planes_of, count=2000):
    rows = [planes_of(name) for name in names[::4]]
    return np.concatenate([r[random.choice(len(r), count, replace=False)] for r in rows])


def histogram_differences(labels, bins, sides):
    """Largest and smallest chi-squared difference across each pixel, per square side."""
    height, width = labels.shape
    planes = []
    for side in sides:
        pad = side + 1
        # Each bin's share of the side x side square whose top left corner is at each pixel.
        shares = np.empty((bins, height + 2 * pad, width + 2 * pad), np.float32)
        for b in range(bins):
            indicator = np.pad((labels == b).astype(np.float32), pad, mode="reflect")
            shares[b] = cv2.boxFilter(indicator, -1, (side, side), anchor=(0, 0), borderType=cv2.BORDER_REFLECT)

        def square(dy, dx):
            return shares[:, pad + dy:pad + dy + height, pad + dx:pad + dx + width]

        tl, tr, bl, br = square(-side, -side), square(-side, 1), square(1, -side), square(1, 1)

        def chi2(a, b):
            return 0.5 * ((a - b) ** 2 / (a + b + 1e-6)).sum(0)

        across = np.stack([chi2(tl + bl, tr + br) / 2, chi2(tl + tr, bl + br) / 2, chi2(tr, bl), chi2(tl, br)])
        planes += [across.max(0), across.min(0)]
    return planes


textons = MiniBatchKMeans(TEXTONS, random_state=0, n_init=3).fit(sample(lambda n: filter_bank(ycc(n)[:, :, 0])))
colours = MiniBatchKMeans(COLOURS, random_state=0, n_init=3).fit(sample(lambda n: ycc(n)[:, :, 1:].reshape(-1, 2)))
scale = 2 if half else 1
for name in names:
    photo = ycc(name)
    height, width = photo.shape[:2]
    texture = histogram_differences(textons.predict(filter_bank(photo[:, :, 0])).reshape(height, width), TEXTONS, (6 // scale, 12 // scale, 24 // scale))
    lightness = histogram_differences(np.minimum(photo[:, :, 0] / 16, LIGHTNESS_BINS - 1).astype(int), LIGHTNESS_BINS, (6 // scale, 12 // scale))
    colour = histogram_differences(colours.predict(photo[:, :, 1:].reshape(-1, 2)).reshape(height, width), COLOURS, (6 // scale, 12 // scale))
    full_height, full_width = cv2.imread(os.path.join(data, "images", "train", name + ".jpg"), cv2.IMREAD_GRAYSCALE).shape
    planes = np.stack([cv2.resize(p, (full_width, full_height), interpolation=cv2.INTER_LINEAR) for p in texture + lightness + colour])
    planes = planes.reshape(len(planes), -1).T.astype(np.float32)
    np.save(os.path.join(out, name + ".npy"), planes)
    without_lightness = planes.copy()
    without_lightness[:, : len(texture) + len(lightness)] = 0
    np.save(os.path.join(out, name + ".colour.npy"), without_lightness)
print(f"{len(names)} photos x {planes.shape[1]} planes -> {out}")
