"""Reading the boundary model's input planes, shared by train.py, predict.py and auto_context.py:
the kernel's own (dump.mjs) and a candidate's extra ones (histogram_gradients.py, structured_forest.py)."""
import os

import numpy as np


def kernel_planes(features, name, suffix=""):
    """The kernel's planes of a photo as dump.mjs wrote them, as pixels x planes."""
    count, height, width = map(int, open(os.path.join(features, name + ".shape")).read().split())
    return np.fromfile(os.path.join(features, name + suffix + ".f32"), dtype=np.float32).reshape(count, height * width).T


def extra_planes(extra, name, suffix=""):
    """A candidate's planes of a photo: ID.npy (pixels x planes), or ID.f32 (one plane, as
    structured_forest.py writes its maps)."""
    stored = os.path.join(extra, name + suffix + ".npy")
    if os.path.exists(stored):
        return np.load(stored)
    return np.fromfile(os.path.join(extra, name + suffix + ".f32"), dtype=np.float32)[:, None]


def photo_planes(features, extra, name, suffix=""):
    """The kernel's planes of a photo, and beside them a candidate's (`extra`, or None for none)."""
    kernel = kernel_planes(features, name, suffix)
    return np.hstack([kernel, extra_planes(extra, name, suffix)]) if extra else kernel
