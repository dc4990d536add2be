"""The same recipe in OpenCV, one thread, for bench/run.mjs to compare against.

Prints JSON: decode_ms (libjpeg-turbo straight to grey) and, best of `repeats` runs,
  reference_ms: the TOOLCHAIN.md reference, at the photo's full resolution, from the grey plane:
                invert -> GaussianBlur(sigma = long edge / 200) -> divide (dodge) + Sobel magnitude
  job_ms:       what our kernel does: INTER_AREA resize to <= 3300 px, then the same recipe
                (sigma = working long edge / 200) plus levels, from the same grey plane.
"""
import json
import sys
import time

import cv2
import numpy as np

cv2.setNumThreads(1)
PRINT_LONG_EDGE = 3300


def recipe(grey):
    h, w = grey.shape
    sigma = max(w, h) / 200.0
    inverted = 255 - grey
    blurred = cv2.GaussianBlur(inverted, (0, 0), sigma)
    dodge = cv2.divide(grey, 255 - blurred, scale=255)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    magnitude = cv2.magnitude(gx, gy)
    return dodge, magnitude


def job(grey):
    h, w = grey.shape
    scale = min(1.0, PRINT_LONG_EDGE / max(w, h))
    if scale < 1:
        grey = cv2.resize(grey, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    dodge, magnitude = recipe(grey)
    edge = np.clip((magnitude - 70) * (0.9 / 150), 0, 0.9)
    levels = cv2.convertScaleAbs(dodge, alpha=255 / 116, beta=-120 * 255 / 116)
    return (levels * (1 - edge)).astype(np.uint8)


def best_ms(fn, arg, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(arg)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def main():
    path = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    start = time.perf_counter()
    grey = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    decode_ms = (time.perf_counter() - start) * 1000
    h, w = grey.shape
    print(json.dumps({
        "width": w,
        "height": h,
        "threads": cv2.getNumThreads(),
        "version": cv2.__version__,
        "decode_ms": decode_ms,
        "reference_ms": best_ms(recipe, grey, repeats),
        "job_ms": best_ms(job, grey, repeats),
    }))


main()
