"""The same job in OpenCV, one thread, for bench/run.mjs to compare against.

Prints JSON, best of `repeats` runs each:
  decode_ms:    libjpeg-turbo straight to grey at full size
  reference_ms: the TOOLCHAIN.md reference at the photo's full resolution, from the grey plane:
                invert -> GaussianBlur(sigma = long edge / 200) -> divide (dodge) + Sobel magnitude
  job_ms:       what our kernel does, from the full grey plane: the tone curve's histogram and the
                noise estimate (which sets the smoothing, as edgeSigmaFor does), INTER_AREA resize
                to <= 3300 px, the tone curve as a LUT, edge smoothing, the dodge, Sobel, the
                surround plane (sigma 4 x max(2, edge sigma), as ours), levels, then the
                colouring-page stages (coarse outlines by Canny, hysteresis binarise with
                connected components, strokes by size and reach, 3x3 dilation)
  (whole_ms and whole_cpu_ms are no longer printed here: see --serve)

`opencv_recipe.py --serve` reads lines "PATH RUNS" on stdin and answers each with one JSON line,
{"wall_ms", "cpu_ms"} (after a first line with OpenCV's version): the best of RUNS runs of the whole same job from the file (decode with
OpenCV's reduced-grey JPEG modes, IMREAD_REDUCED_GRAYSCALE_2/4/8, the largest reduction still at
least print size, as our decoder's DCT scaling does; then job; then a 1-bit grey PNG, as ours), the first
request for a path preceded by one untimed run. bench/run.mjs keeps one server for the whole run
and alternates rounds of our runs with rounds of these, so both sides are timed in the same
moments of the machine (see bench/run.mjs, sameJobRounds).
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


# Immerkær's noise mask (workers/sketch/kernel/noise.ts), which cancels edges and gradients:
# [1 -2 1] down the columns times [1 -2 1] along the rows.
NOISE_KERNEL = np.array([1, -2, 1], np.float32)


def tone_curve(grey):
    """tone.ts: the 1 %, 50 % and 99 % greys of every second row (every few of a large photo),
    stretched (gain <= 3), then a gamma that lifts a median still under mid-grey; a 256-entry table."""
    counts = np.cumsum(cv2.calcHist([grey[:: sample_step(grey)]], [0], None, [256], [0, 256]).ravel())
    low, median, high = np.searchsorted(counts, np.array([0.01, 0.5, 0.99]) * counts[-1], side="right")
    gain = min(3.0, 255 / max(1, int(high) - int(low)))
    stretched = np.clip((np.arange(256) - (int(low) + int(high)) / 2) * gain + 127.5, 0, 255) / 255
    lifted = stretched[median]
    gamma = max(0.5, np.log(0.5) / np.log(max(lifted, 1e-3))) if 0 < lifted < 0.5 else 1.0
    return np.round(255 * stretched**gamma).astype(np.uint8)


def noise_of(grey):
    """noise.ts: the noise's standard deviation in grey levels, from the mask's mean absolute response."""
    h, w = grey.shape
    if h < 3 or w < 3:
        return 0.0
    # The rows our estimate reads: every second (the mask over the whole image, one call, then
    # every second row of its response), or every few of a large photo (those rows with their
    # neighbours above and below stacked, the middle of each triplet kept). The mask is separable.
    step = sample_step(grey)
    if step == 2:
        response = cv2.sepFilter2D(grey, cv2.CV_16S, NOISE_KERNEL, NOISE_KERNEL)[1:-1:2, 1:-1]
    else:
        rows = np.arange(1, h - 1, step)
        triplets = grey[(rows[:, None] + np.array([-1, 0, 1])).ravel()]
        response = cv2.sepFilter2D(triplets, cv2.CV_16S, NOISE_KERNEL, NOISE_KERNEL)[1::3, 1:-1]
    return np.sqrt(np.pi / 2) * cv2.norm(response, cv2.NORM_L1) / (6 * response.size)


def sample_step(grey):
    """tone.ts and noise.ts read every second row, every few of a large photo (about 1 MP)."""
    h, w = grey.shape
    return max(2, (w * h) // 1_000_000)


def edge_sigma_for(w, h, noise):
    """scale.ts edgeSigmaFor at the standard level: more smoothing on a noisy photo; under 1, none."""
    long_edge = max(w, h)
    sigma = min(6.0, long_edge / 250, 1.3 * max(long_edge / 1100, noise * 0.15))
    return sigma if sigma >= 1 else 0.0


def job(grey):
    h, w = grey.shape
    lut = tone_curve(grey)
    noise = noise_of(grey)
    scale = min(1.0, PRINT_LONG_EDGE / max(w, h))
    if scale < 1:
        grey = cv2.resize(grey, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
        noise *= scale  # averaging n x n pixels divides the noise by n
    grey = cv2.LUT(grey, lut)
    h, w = grey.shape
    edge_sigma = edge_sigma_for(w, h, noise)
    smoothed = cv2.GaussianBlur(grey, (0, 0), edge_sigma) if edge_sigma > 0 else grey
    dodge, magnitude = recipe(smoothed)
    magnitude *= max(1.0, edge_sigma) / 8
    surround = cv2.GaussianBlur(magnitude, (0, 0), 4 * max(2.0, edge_sigma))
    edge = np.clip((magnitude - 0.7 * surround - 70) * (0.9 / 150), 0, 0.9)
    levels = cv2.convertScaleAbs(dodge, alpha=255 / 116, beta=-120 * 255 / 116) + 0.45 * surround
    page = np.clip(levels * (1 - edge), 0, 255).astype(np.uint8)
    # Coarse outlines (workers/sketch/kernel/outlines.ts): Canny on the grey smoothed by about 1 mm
    # of the page, on a grid as coarse as that sigma allows, drawn into the page before binarise.
    outline_sigma = max(1.5, edge_sigma, max(w, h) / 285)
    factor = 4 if outline_sigma >= 8 else 2 if outline_sigma >= 4 else 1
    coarse = cv2.resize(smoothed, (w // factor, h // factor), interpolation=cv2.INTER_AREA) if factor > 1 else smoothed
    coarse = cv2.GaussianBlur(coarse, (0, 0), max(0.5, outline_sigma / factor))
    to_sobel = 8 / (np.sqrt(2 * np.pi) * outline_sigma / factor)  # a step's height (grey levels) as a Sobel magnitude
    outlines = cv2.Canny(coarse, 25 * to_sobel, 60 * to_sobel, L2gradient=True)
    if factor > 1:
        outlines = cv2.resize(outlines, (w, h), interpolation=cv2.INTER_NEAREST)
    page[outlines > 0] = 0
    # Binarise: components of weak pixels, kept when they hold a strong pixel, are big enough and long enough.
    weak = (page < 190).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(weak, connectivity=8)
    strong = np.zeros(count, bool)
    strong[labels[page <= 90]] = True
    reach = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    keep = strong & (stats[:, cv2.CC_STAT_AREA] >= 144) & (reach >= 60 * max(w, h) / PRINT_LONG_EDGE)
    keep[0] = False
    ink = keep[labels]
    out = np.where(ink, 0, 255).astype(np.uint8)
    return cv2.erode(out, np.ones((3, 3), np.uint8))


def reduced_mode(path):
    """The largest JPEG reduction (1/2, 1/4, 1/8) whose long edge is still at least print size."""
    header = cv2.imread(path, cv2.IMREAD_REDUCED_GRAYSCALE_8)
    long8 = max(header.shape) * 8
    for factor, mode in ((8, cv2.IMREAD_REDUCED_GRAYSCALE_8), (4, cv2.IMREAD_REDUCED_GRAYSCALE_4), (2, cv2.IMREAD_REDUCED_GRAYSCALE_2)):
        if long8 / factor >= PRINT_LONG_EDGE:
            return mode
    return cv2.IMREAD_GRAYSCALE


def whole(path, mode):
    grey = cv2.imread(path, mode)
    page = job(grey)
    # A 1-bit grey PNG, as ours: the page is black and white, and the Worker writes it at bit
    # depth 1 (workers/sketch/encode.ts). An 8-bit PNG here cost OpenCV 0.4-1.9 ms more.
    return cv2.imencode(".png", page, [cv2.IMWRITE_PNG_BILEVEL, 1])[1]


def best_ms(fn, repeats, *args):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def serve():
    print(json.dumps({"version": cv2.__version__, "threads": cv2.getNumThreads()}), flush=True)
    modes = {}
    for line in sys.stdin:
        path, runs = line.rsplit(" ", 1)
        if path not in modes:
            modes[path] = reduced_mode(path)
            whole(path, modes[path])
        best_wall = best_cpu = float("inf")
        for _ in range(int(runs)):
            wall_start = time.perf_counter()
            cpu_start = time.process_time()
            whole(path, modes[path])
            best_cpu = min(best_cpu, (time.process_time() - cpu_start) * 1000)
            best_wall = min(best_wall, (time.perf_counter() - wall_start) * 1000)
        print(json.dumps({"wall_ms": best_wall, "cpu_ms": best_cpu}), flush=True)


def main():
    if sys.argv[1] == "--serve":
        serve()
        return
    path = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    grey = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    h, w = grey.shape
    print(json.dumps({
        "width": w,
        "height": h,
        "threads": cv2.getNumThreads(),
        "version": cv2.__version__,
        "decode_ms": best_ms(cv2.imread, repeats, path, cv2.IMREAD_GRAYSCALE),
        "reference_ms": best_ms(recipe, repeats, grey),
        "job_ms": best_ms(job, repeats, grey),
    }))


main()
