"""The 32 px patches both patch forests read (decision 035, "Measured: a structured forest"):
13 channel planes at half the photo's size (CIE Luv; the gradient's magnitude, normalised by its
mean around, and its 4 orientations, at the photo's size and at half of it), each blurred by a
triangle of radius 1 for the grid's values and of radius 4 for the points' differences; per patch,
the 13 channels on its 16 x 16 grid and the differences between 25 of its points, 7228 features.
Used by structured_forest.py and edge_forest.py."""
import os

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

PATCH, LABEL, SHRINK = 32, 16, 2  # photo px; the label patch in its middle; channel px per photo px
GRID = PATCH // SHRINK  # the patch in channel px
POINTS = np.array([2, 5, 8, 11, 14])  # the 5 x 5 points whose differences are features
PAIRS = np.array([(a, b) for a in range(25) for b in range(a + 1, 25)])
CHANNELS = 13
GRID_FEATURES = CHANNELS * GRID * GRID  # 3328, then CHANNELS * len(PAIRS) = 3900 differences
FEATURE_COUNT = GRID_FEATURES + CHANNELS * len(PAIRS)


def triangle(plane, radius):
    kernel = np.r_[np.arange(1, radius + 2), np.arange(radius, 0, -1)].astype(np.float32)
    kernel /= kernel.sum()
    return cv2.sepFilter2D(plane, -1, kernel, kernel, borderType=cv2.BORDER_REFLECT)


def oriented_gradients(luv):
    """The gradient's magnitude (the largest channel's, over its mean around) and its 4 orientations."""
    gx = np.stack([cv2.Sobel(luv[..., c], cv2.CV_32F, 1, 0) for c in range(3)], -1) / 8
    gy = np.stack([cv2.Sobel(luv[..., c], cv2.CV_32F, 0, 1) for c in range(3)], -1) / 8
    strongest = (gx * gx + gy * gy).argmax(-1)[..., None]
    gx = np.take_along_axis(gx, strongest, -1)[..., 0]
    gy = np.take_along_axis(gy, strongest, -1)[..., 0]
    magnitude = np.sqrt(gx * gx + gy * gy)
    magnitude /= cv2.boxFilter(magnitude, -1, (9, 9)) + 0.01
    orientation = np.mod(np.arctan2(gy, gx), np.pi) / np.pi * 4  # 0 to 4
    planes = [magnitude]
    for k in range(4):
        away = np.abs(orientation - k - 0.5)
        planes.append(magnitude * np.clip(1 - np.minimum(away, 4 - away), 0, 1))
    return planes


def channels(rgb):
    """13 channel planes at half the (padded) photo's size: blurred for the grid, and for the points."""
    luv = cv2.cvtColor(rgb, cv2.COLOR_RGB2Luv)
    luv = np.stack([luv[..., 0] / 100, (luv[..., 1] + 90) / 270, (luv[..., 2] + 135) / 245], -1).astype(np.float32)
    height, width = rgb.shape[:2]
    small = lambda plane: cv2.resize(plane, (width // SHRINK, height // SHRINK), interpolation=cv2.INTER_AREA)
    planes = [small(luv[..., c]) for c in range(3)]
    for image in (luv, cv2.resize(luv, (width // 2, height // 2), interpolation=cv2.INTER_AREA)):
        planes += [small(plane) for plane in oriented_gradients(image)]
    planes = np.stack(planes)
    return np.stack([triangle(p, 1) for p in planes]), np.stack([triangle(p, 4) for p in planes])


def names(data, of_split):
    """A split's photo ids in sorted order (the order the forests' halves are cut by)."""
    return sorted(f[:-4] for f in os.listdir(os.path.join(data, "images", of_split)) if f.endswith(".jpg"))


def padded(rgb):
    """The photo padded by 16 px (reflected), to an even size: every patch's middle on the photo."""
    height, width = rgb.shape[:2]
    return cv2.copyMakeBorder(rgb, 16, 16 + height % 2, 16, 16 + width % 2, cv2.BORDER_REFLECT)


def photo(data, of_split, name, without_lightness=False):
    """The photo as RGB in [0, 1], and padded by 16 px (reflected) to an even size."""
    bgr = cv2.imread(os.path.join(data, "images", of_split, name + ".jpg"))
    if without_lightness:
        ycc = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)
        ycc[..., 0] = 128
        bgr = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
    rgb = bgr[..., ::-1].astype(np.float32) / 255
    return rgb, padded(rgb)


def features(grid_planes, point_planes, ys, xs):
    """Per patch (its top left corner in channel px): the grid's values and the points' differences."""
    windows = sliding_window_view(grid_planes, (GRID, GRID), axis=(1, 2))[:, ys, xs]  # C, n, 16, 16
    grid = np.transpose(windows, (1, 0, 2, 3)).reshape(len(ys), -1)
    py, px = (a.ravel() for a in np.meshgrid(POINTS, POINTS, indexing="ij"))
    values = point_planes[:, ys[:, None] + py[None], xs[:, None] + px[None]]  # C, n, 25
    differences = values[:, :, PAIRS[:, 0]] - values[:, :, PAIRS[:, 1]]
    return np.concatenate([grid, np.transpose(differences, (1, 0, 2)).reshape(len(ys), -1)], 1).astype(np.float32)


def overlay(answers, height, width):
    """Label patches answered at every second pixel (rows x columns x LABEL x LABEL) added up where
    they overlap, over the (LABEL / 2)² patches that cover each pixel: a map at the photo's size."""
    rows, columns = answers.shape[:2]
    total = np.zeros((2 * rows + LABEL, 2 * columns + LABEL), np.float32)
    for dy in range(LABEL):
        for dx in range(LABEL):
            total[dy : dy + 2 * rows : 2, dx : dx + 2 * columns : 2] += answers[:, :, dy, dx]
    return total[LABEL // 2 : LABEL // 2 + height, LABEL // 2 : LABEL // 2 + width] / (LABEL // 2) ** 2


def write_maps(data, split, half, out, map_of, without_lightness=False, limit=None):
    """map_of(rgb, padded) of a split's photos as OUT/ID.f32 (ID.colour.f32 without the lightness);
    with half >= 0 only the photos whose place in the sorted list is half modulo 2."""
    os.makedirs(out, exist_ok=True)
    written = 0
    for i, name in enumerate(names(data, split)[:limit]):
        if half >= 0 and i % 2 != half:
            continue
        chance = map_of(*photo(data, split, name, without_lightness))
        chance.astype(np.float32).tofile(os.path.join(out, name + (".colour" if without_lightness else "") + ".f32"))
        written += 1
    print(f"{written} {split} maps -> {out}")
