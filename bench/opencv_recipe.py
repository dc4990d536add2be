"""The same job in OpenCV, one thread, for bench/run.mjs to compare against.

Prints JSON, best of `repeats` runs each:
  decode_ms:    libjpeg-turbo straight to grey at full size
  reference_ms: the dodge + Sobel reference (docs/decisions/004-sketch-kernel.md) at the photo's full
                resolution, from the grey plane:
                invert -> GaussianBlur(sigma = long edge / 200) -> divide (dodge) + Sobel magnitude
  job_ms:       what our kernel does (workers/sketch/kernel/regions/index.ts finestBorders and
                buildHierarchy), from the full grey plane and no chroma, as our kernel-alone column
                runs ours (bench/job.ts, source "full"); with the nearest OpenCV / numpy steps:
                - the tone curve's histogram and the noise estimate, on the decoded plane;
                - INTER_AREA resize to the analysis grid (long edge <= analysisLongEdge, never up),
                  grey and chroma in one call, the tone curve as a LUT on the grey;
                - edge maps (edge-map.ts): the grey blurred by hypot(smoothingMm x px/mm,
                  noise x 0.15) and Sobel'd; with colour, Cb and Cr reduced to half the grid
                  (INTER_AREA), blurred by at least CHROMA_SMOOTHING_PX grid px, Sobel'd, brought
                  up to the grid (INTER_LINEAR) and added in quadrature, a unit of chroma counting
                  colourWeight grey levels (cv2.accumulateSquare, cv2.sqrt); magnitude / 4 = the
                  flood map; its surround (blur by surroundSigmaMm), saliency = max(0, magnitude -
                  surroundSuppression x surround), faded under visibleStep as edge-map.ts fades
                  it; both in quarter grey levels; the blurs are ours' three stacked boxes, by
                  cv2.blur;
                - the faces (faces/, decision 034): the grid's toned grey reduced (INTER_AREA) to
                  searchLongEdge, cv2.CascadeClassifier with OpenCV's haarcascade_frontalface_alt
                  (the cascade ours reads from the jsfeat package; here from Debian's opencv-data,
                  found as bench/photo-set.mjs finds packages, never downloaded) by
                  detectMultiScale (scaleStep, fewestAgreeingWindows, faces from smallestFaceShare
                  of the long edge), the boxes scaled back to the grid; each face's oval weights
                  in numpy; each region's face mass (the sum of its pixels' weights) is one more
                  column of its histogram, and a border between two regions both in a face
                  loses insideOdds x the square of the smaller face share (BorderKeys);
                - watershed basins: the flood map's regional minima (erode, connectedComponents)
                  as markers for cv2.watershed, its lines given to a neighbouring basin;
                - the adjacency graph in numpy (np.unique, np.bincount): border length, summed
                  crest saliency and crest magnitude, area per basin; basins joined across
                  borders of mean saliency under noBorderBelow (merge-tree.ts joinAcrossNoBorder:
                  union-find as hooking and pointer jumping in numpy), the joined regions' graph
                  from the basins' edges (adjacency.ts coarserGraph);
                - the boundary model (boundary/, decision 035): the grid's toned grey and
                  chroma brought to the model's plane (INTER_AREA), its 34 feature planes by
                  cv2.boxFilter (the four squares at a pixel's corners compared across it),
                  cv2.Sobel and our blurs; its boosted trees (boundary/model.json) walked in
                  numpy, level by level for all trees at once, at the plane's pixels nearest the
                  finest borders' cracks; per border the crest of the chance summed (np.bincount)
                  and discounted by the border's blur, read from the magnitude along it and
                  from the magnitude blurred;
                - each region's inside (region-features.ts): per pixel a lightness bin (12, around
                  the mean, finer on a faint photo), a grain bin (floor(log2(1 + magnitude)), 6)
                  and a bin on each colour axis (8, colourBin's rule, by cv2.LUT); per region the
                  histograms by np.bincount (lightness x grain and Cb x Cr jointly, then summed
                  to each feature's own);
                - the merge tree (merge-tree.ts with region-features.ts HistogramJudge), three
                  phases (detailed, standard, simple): the border least likely drawn first, by
                  BORDER_MODEL's logistic chance of its mean saliency, mean magnitude and the χ²
                  distances of its two regions' normalised histograms; regions too small or too
                  narrow merge first unless they stand out (standOutBorder, smallestStandingOutCm2);
                  a phase stops at weakestBorderKept or at fewestRegions; a merge adds the
                  histograms, and every border of the merged region is judged again. A Python
                  heapq loop, the one step OpenCV has no primitive for, each merge's borders
                  judged at once in numpy;
                - the finest level's borders traced (cv2.findContours) and smoothed along their
                  length (arcSmoothingMm, every arcPointStep-th point kept), as ours keeps them;
                - the feature strokes (strokes/, decision 033): the black top-hat of the smoothed
                  grey (cv2.morphologyEx MORPH_BLACKHAT, a square widestLineMm wide) over the
                  photo's contrast, minus surroundSuppression x its mean around (our three boxes;
                  inside a face eased towards strokeSurroundSuppression by its weight), floored at
                  0; the pixels at least traceShare of the finest level's weakest depth thinned
                  (Guo and Hall's rule, pixel for pixel cv2.ximgproc.thinning's, in numpy) and
                  followed from end or junction to the next as ours (a Python walk: OpenCV has no
                  primitive for it); twigs (under spurMm, a free end to a junction) dropped; each
                  chain judged by its judgedAtShare depth (x up to strokeWeight in a face),
                  smoothed as arcs, its length in mm;
                - the standard level's borders traced, smoothed, scaled to the page (long edge
                  3300, whatever the photo's size) and drawn by cv2.polylines; its strokes (deep
                  and long enough by LEVEL_STROKES) cut where they come within clearanceMm of
                  those borders (the borders drawn on the grid, cv2.dilate by a square) and drawn
                  by cv2.polylines with the level's line.
                The tuning (REGION_TUNING, LEVEL_REGIONS, BORDER_MODEL) is read from tuning.ts,
                STROKE_TUNING and LEVEL_STROKES from strokes/tuning.ts, FACE_TUNING from
                faces/tuning.ts, the few constants beside them from the files that hold them.
                Without opencv-data's cascade the mirror stops and says so on stderr: a mirror
                without the face stage would not be the same job.
  (whole_ms and whole_cpu_ms are no longer printed here: see --serve)

`opencv_recipe.py --serve` reads lines "PATH RUNS" on stdin and answers each with one JSON line,
{"wall_ms", "cpu_ms"} (after a first line with OpenCV's version): the best of RUNS runs of the
whole same job from the file (decode in colour with OpenCV's reduced JPEG modes,
IMREAD_REDUCED_COLOR_2/4/8, the largest reduction still at least the analysis grid, as our
decoder's DCT scaling does, and cv2.cvtColor to YCrCb, whose Y is the grey and whose Cb and Cr are
the chroma; then the job above, with colour; then a 1-bit grey PNG, as ours), the first request
for a path preceded by one untimed run. bench/run.mjs keeps one server for the whole run and
alternates rounds of our runs with rounds of these, so both sides are timed in the same moments
of the machine (see bench/run.mjs, sameJobRounds).

`opencv_recipe.py --pages PATH PREFIX` runs the whole same job's hierarchy once, writes each
level's page to PREFIX-<level>.png and prints the faces found (x, y, side on the grid) and the
levels' region and stroke counts as JSON: for looking at the mirror's pages beside ours.

`opencv_recipe.py --stages PATH [RUNS]` times the whole same job's stages (decode, grid, edge
maps, faces, basins, boundary model, insides, merge, arcs, strokes, draw, encode: the kernel's
own stage names) and prints each one's best of RUNS as JSON: for bench/stages.mjs, which puts
them beside ours.
"""
import functools
import heapq
import json
import math
import os
import re
import subprocess
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


REGIONS_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "workers", "sketch", "kernel", "regions")


def source_without_comments(name):
    with open(os.path.join(REGIONS_SOURCE, name)) as file:
        return re.sub(r"/\*.*?\*/|//[^\n]*", "", file.read(), flags=re.S)


def read_tuning():
    """The engine's numbers, read from its files (they still move, and the mirror should follow
    them): REGION_TUNING, LEVEL_REGIONS and BORDER_MODEL from tuning.ts, and the few constants kept
    beside the code that uses them. These values where a file cannot be read, said on stderr."""
    tuning = {
        "analysisLongEdge": 1100, "smoothingMm": 0.35, "noiseSmoothing": 0.15, "surroundSigmaMm": 2.5, "surroundSuppression": 1,
        "visibleStep": 12, "clearPhotoEdgeSteps": 2, "noBorderBelow": 0.5, "colourWeight": 3.5, "fewestRegions": 2,
        "smallestStandingOutCm2": 0.03, "arcSmoothingMm": 1.6, "arcPointStep": 2,
    }
    levels = {
        "detailed": {"minAreaCm2": 0.5, "minWidthMm": 1.2, "weakestBorderKept": 0.14, "standOutBorder": 0.5, "lineWidthMm": 0.4},
        "standard": {"minAreaCm2": 1, "minWidthMm": 2, "weakestBorderKept": 0.22, "standOutBorder": 0.55, "lineWidthMm": 0.5},
        "simple": {"minAreaCm2": 1.5, "minWidthMm": 2, "weakestBorderKept": 0.3, "standOutBorder": 0.6, "lineWidthMm": 0.6},
    }
    model = {
        "bias": -6.127, "logSaliency": -0.568, "logMagnitude": 2.039, "lightness": -0.749, "grain": 1.097, "colour": 0.032,
        "sqrtLightness": 0.935, "sqrtGrain": 1.071, "sqrtColour": 0.641, "logSmallerArea": 0.274, "logLength": -0.252, "greyPhoto": 0.332,
        "smootherGrain": -0.668, "grainierGrain": -3.675, "logBoundary": 0.611,
    }
    constants = {
        ("edge-map.ts", "CHROMA_SMOOTHING_PX"): 2, ("edge-map.ts", "SOBEL_VARIANCE"): 0.5, ("index.ts", "MIN_CONTRAST"): 0.05,
        ("region-features.ts", "LIGHTNESS_BINS"): 12, ("region-features.ts", "GRAIN_BINS"): 6, ("region-features.ts", "COLOUR_BINS"): 8,
    }
    number = r"(\w+)\s*:\s*(-?[\d.]+)"
    unread = []
    try:
        text = source_without_comments("tuning.ts")
        for name, into in (("REGION_TUNING", tuning), ("BORDER_MODEL", model)):
            block = re.search(name + r"\s*(?::\s*\w+\s*)?=\s*\{(.*?)\}", text, re.S)
            if block:
                into.update((key, float(value)) for key, value in re.findall(number, block.group(1)))
            else:
                unread.append(name)
        found = re.findall(r"(detailed|standard|simple)\s*:\s*\{([^}]*)\}", text)
        for level, body in found:
            levels[level].update((key, float(value)) for key, value in re.findall(number, body))
        if len(found) < 3:
            unread.append("LEVEL_REGIONS")
    except OSError:
        unread.append("tuning.ts")
    for (file, name) in list(constants):
        try:
            value = re.search(r"\b" + name + r"\s*=\s*(-?[\d.]+)", source_without_comments(file))
        except OSError:
            value = None
        if value:
            constants[(file, name)] = float(value.group(1))
        else:
            unread.append(name)
    if unread:
        print(f"opencv_recipe.py: not read from the engine's files, so as last known: {', '.join(unread)}", file=sys.stderr)
    return tuning, levels, model, {name: value for (_, name), value in constants.items()}


def read_stroke_tuning():
    """The feature strokes' numbers (decision 033): STROKE_TUNING and LEVEL_STROKES from
    strokes/tuning.ts, read as read_tuning reads the regions'; these values where it cannot be
    read, said on stderr."""
    tuning = {
        "widestLineMm": 1.8, "surroundSigmaMm": 6, "surroundSuppression": 1.5, "traceShare": 0.6, "judgedAtShare": 0.75,
        "spurMm": 2, "smoothingMm": 0.6, "pointStep": 2, "clearanceMm": 0.6,
    }
    levels = {
        "detailed": {"weakestDepth": 15, "shortestMm": 1.5},
        "standard": {"weakestDepth": 19, "shortestMm": 2.5},
        "simple": {"weakestDepth": 23, "shortestMm": 3.5},
    }
    number = r"(\w+)\s*:\s*(-?[\d.]+)"
    unread = []
    try:
        text = source_without_comments(os.path.join("..", "strokes", "tuning.ts"))
        block = re.search(r"STROKE_TUNING\s*(?::\s*\w+\s*)?=\s*\{(.*?)\}", text, re.S)
        if block:
            tuning.update((key, float(value)) for key, value in re.findall(number, block.group(1)))
        else:
            unread.append("STROKE_TUNING")
        found = re.findall(r"(detailed|standard|simple)\s*:\s*\{([^}]*)\}", text)
        for level, body in found:
            levels[level].update((key, float(value)) for key, value in re.findall(number, body))
        if len(found) < 3:
            unread.append("LEVEL_STROKES")
    except OSError:
        unread.append("strokes/tuning.ts")
    if unread:
        print(f"opencv_recipe.py: not read from the engine's files, so as last known: {', '.join(unread)}", file=sys.stderr)
    return tuning, levels


def read_boundary_model():
    """The boundary model (decision 031): BOUNDARY_TUNING from boundary/tuning.ts, the square
    sides from boundary/features.ts, read as read_tuning reads the regions' (these values where
    they cannot be read, said on stderr), and its trees from boundary/model.json, laid out as
    forest.ts lays them: complete to the deepest leaf, in heap order."""
    tuning = {"modelLongEdge": 481, "blurProbePx": 2.5, "sharpPx": 2.5, "blurredPx": 5, "squareSides": [3, 6, 12], "spreadSides": [6, 12]}
    unread = []
    try:
        block = re.search(r"BOUNDARY_TUNING\s*=\s*\{(.*?)\}", source_without_comments(os.path.join("..", "boundary", "tuning.ts")), re.S)
    except OSError:
        block = None
    if block:
        tuning.update((key, float(value)) for key, value in re.findall(r"(\w+)\s*:\s*(-?[\d.]+)", block.group(1)))
    else:
        unread.append("BOUNDARY_TUNING")
    try:
        text = source_without_comments(os.path.join("..", "boundary", "features.ts"))
        for key, name in (("squareSides", "SQUARE_SIDES"), ("spreadSides", "SPREAD_SIDES")):
            found = re.search(name + r"\s*=\s*\[([^\]]*)\]", text)
            if found:
                tuning[key] = [int(value) for value in re.findall(r"\d+", found.group(1))]
            else:
                unread.append(name)
    except OSError:
        unread.append("features.ts")
    if unread:
        print(f"opencv_recipe.py: not read from the engine's files, so as last known: {', '.join(unread)}", file=sys.stderr)
    with open(os.path.join(REGIONS_SOURCE, "..", "boundary", "model.json")) as file:
        model = json.load(file)

    def depth_of(tree, node):
        return 0 if tree["left"][node] < 0 else 1 + max(depth_of(tree, tree["left"][node]), depth_of(tree, tree["right"][node]))

    depth = max(depth_of(tree, 0) for tree in model["trees"])
    splits, leaves = 2 ** depth - 1, 2 ** depth
    feature = np.zeros((len(model["trees"]), splits), np.int64)
    threshold = np.full((len(model["trees"]), splits), np.inf, np.float32)
    leaf = np.zeros((len(model["trees"]), leaves), np.float32)
    for t, tree in enumerate(model["trees"]):
        def place(node, at, level):
            if tree["left"][node] >= 0:
                feature[t, at], threshold[t, at] = tree["feature"][node], tree["threshold"][node]
                place(tree["left"][node], 2 * at + 1, level + 1)
                place(tree["right"][node], 2 * at + 2, level + 1)
            else:
                first = (at - (2 ** level - 1)) * 2 ** (depth - level)
                leaf[t, first:first + 2 ** (depth - level)] = tree["value"][node]
        place(0, 0, 0)
    return tuning, {"baseline": model["baseline"], "depth": depth, "feature": feature, "threshold": threshold, "leaf": leaf}


def read_face_tuning():
    """The face stage's numbers (decision 034): FACE_TUNING from faces/tuning.ts, read as
    read_tuning reads the regions'; these values where it cannot be read, said on stderr."""
    tuning = {
        "searchLongEdge": 640, "smallestFaceShare": 0.035, "scaleStep": 1.1, "windowStep": 2, "fewestAgreeingWindows": 3,
        "agreement": 0.2, "ovalCentreDown": 0.55, "ovalHalfWidth": 0.5, "ovalHalfHeight": 0.65, "ovalCore": 0.75,
        "insideOdds": 2, "strokeSurroundSuppression": 0.6, "strokeWeight": 2.3,
    }
    try:
        text = source_without_comments(os.path.join("..", "faces", "tuning.ts"))
        block = re.search(r"FACE_TUNING\s*(?::\s*\w+\s*)?=\s*\{(.*?)\}", text, re.S)
    except OSError:
        block = None
    if block:
        tuning.update((key, float(value)) for key, value in re.findall(r"(\w+)\s*:\s*(-?[\d.]+)", block.group(1)))
    else:
        print("opencv_recipe.py: not read from the engine's files, so as last known: FACE_TUNING", file=sys.stderr)
    return tuning


TUNING, LEVEL_REGIONS, BORDER_MODEL, CONSTANTS = read_tuning()
STROKE_TUNING, LEVEL_STROKES = read_stroke_tuning()
FACE_TUNING = read_face_tuning()
BOUNDARY_TUNING, BOUNDARY_FOREST = read_boundary_model()
ANALYSIS_LONG_EDGE = int(TUNING["analysisLongEdge"])
SMOOTHING_MM = TUNING["smoothingMm"]
NOISE_SMOOTHING = TUNING["noiseSmoothing"]
SURROUND_SIGMA_MM = TUNING["surroundSigmaMm"]
SURROUND_SUPPRESSION = TUNING["surroundSuppression"]
VISIBLE_STEP = TUNING["visibleStep"]
CLEAR_PHOTO_EDGE_STEPS = TUNING["clearPhotoEdgeSteps"]
NO_BORDER_BELOW = TUNING["noBorderBelow"]
COLOUR_WEIGHT = TUNING["colourWeight"]
FEWEST_REGIONS = int(TUNING["fewestRegions"])
SMALLEST_STANDING_OUT_CM2 = TUNING["smallestStandingOutCm2"]
ARC_SMOOTHING_MM = TUNING["arcSmoothingMm"]
ARC_POINT_STEP = int(TUNING["arcPointStep"])
CHROMA_SMOOTHING_PX = CONSTANTS["CHROMA_SMOOTHING_PX"]
SOBEL_VARIANCE = CONSTANTS["SOBEL_VARIANCE"]
MIN_CONTRAST = CONSTANTS["MIN_CONTRAST"]
LIGHTNESS_BINS = int(CONSTANTS["LIGHTNESS_BINS"])
GRAIN_BINS = int(CONSTANTS["GRAIN_BINS"])
COLOUR_BINS = int(CONSTANTS["COLOUR_BINS"])
PRINT_LONG_EDGE_MM = PRINT_LONG_EDGE / 300 * 25.4  # 279.4
LEVEL_NAMES = ("detailed", "standard", "simple")  # finest first, the order the merge phases run in
DRAWN_LEVEL = "standard"  # DEFAULT_DETAIL_LEVEL, the level our job draws
# edge-map.ts: strengths in quarter grey levels of a step, 0 .. 1023.
STEPS_PER_GREY_LEVEL = 4
STRENGTH_LEVELS = 1024
CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def quantised(grey_levels):
    """edge-map.ts quantised: quarter grey levels, rounded, at most 1023."""
    return np.minimum(grey_levels * STEPS_PER_GREY_LEVEL + 0.5, STRENGTH_LEVELS - 1).astype(np.uint16)


def box_widths_for_gaussian(sigma, passes=3):
    """float-plane.ts boxWidthsForGaussian: odd box widths whose stacked variance is sigma²."""
    variance = sigma * sigma
    lower = int(np.sqrt(12 * variance / passes + 1))
    if lower % 2 == 0:
        lower -= 1
    lower = max(1, lower)
    upper = lower + 2
    lower_count = min(passes, max(0, round((12 * variance - passes * upper * upper + passes) / (lower * lower - upper * upper))))
    return [lower if i < lower_count else upper for i in range(passes)]


def blur(plane, sigma):
    """float-plane.ts blurFloatInPlace: a Gaussian as three stacked boxes (cv2.blur, clamped edges),
    nothing under sigma 0.5."""
    if sigma < 0.5:
        return plane
    for width in box_widths_for_gaussian(sigma):
        if width > 1:
            plane = cv2.blur(plane, (width, width), borderType=cv2.BORDER_REPLICATE)
    return plane


def edge_maps(grey, noise, px_per_mm, chroma=None):
    """edge-map.ts: the flood map (Sobel magnitude of grey and colour, in grey levels of a step)
    and the saliency (the magnitude minus its surround), both in quarter grey levels; also the
    smoothed grey and the magnitude (grey levels), which the regions' insides are read from, and
    the smoothing's sigma (grid px).
    `chroma`: Cr and Cb on the grid, one 2-channel uint8 image, or None."""
    sigma = np.hypot(SMOOTHING_MM * px_per_mm, noise * NOISE_SMOOTHING)
    smooth = blur(grey.astype(np.float32), sigma)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    if chroma is None or COLOUR_WEIGHT <= 0:
        magnitude = cv2.magnitude(gx, gy)
    else:
        # The colour's own steps, a unit of chroma as colourWeight grey levels, added in
        # quadrature (Sobel's scale weights them; both axes blurred in one call).
        energy = cv2.multiply(gx, gx)
        cv2.accumulateSquare(gy, energy)
        # edge-map.ts chromaSteps: the chroma read at half the grid's resolution (INTER_AREA),
        # its steps scaled by the ratio and brought up to the grid (INTER_LINEAR).
        height, width = grey.shape
        half = cv2.resize(chroma, ((width + 1) // 2, (height + 1) // 2), interpolation=cv2.INTER_AREA)
        ratio = half.shape[1] / width
        # less blur by as much as Sobel's own smoothing spans more of the grid on the coarser plane
        sobel_spread = SOBEL_VARIANCE / ratio ** 2 - SOBEL_VARIANCE
        colour = blur(half.astype(np.float32), math.sqrt(max(0.0, max(sigma, CHROMA_SMOOTHING_PX) ** 2 - sobel_spread)) * ratio)
        for axis in cv2.split(colour):
            steps = cv2.magnitude(cv2.Sobel(axis, cv2.CV_32F, 1, 0), cv2.Sobel(axis, cv2.CV_32F, 0, 1))
            steps = cv2.resize(steps * (ratio * COLOUR_WEIGHT), (width, height), interpolation=cv2.INTER_LINEAR)
            cv2.accumulateSquare(steps, energy)
        magnitude = cv2.sqrt(energy)
    magnitude *= 0.25  # sobelSteps: a clean step of h grey levels answers h
    # sobelSteps: the border pixels copy their inner neighbour (ours copies each plane's before
    # adding them up: the same pixels)
    magnitude[:, 0], magnitude[:, -1] = magnitude[:, 1], magnitude[:, -2]
    magnitude[0], magnitude[-1] = magnitude[1], magnitude[-2]
    surround = blur(magnitude, SURROUND_SIGMA_MM * px_per_mm)
    saliency = cv2.max(magnitude - SURROUND_SUPPRESSION * surround, 0.0)
    flood = quantised(magnitude)
    # The strongest 0.5 % of the pixels, and the faint-edge gate it sets (edge-map.ts).
    counts = np.bincount(flood.ravel(), minlength=STRENGTH_LEVELS)
    above = np.cumsum(counts[::-1])
    strongest = (STRENGTH_LEVELS - 1 - int(np.argmax(above >= flood.size * 0.005))) / STEPS_PER_GREY_LEVEL
    visible = VISIBLE_STEP * min(1.0, max(0.0, (strongest - VISIBLE_STEP) / ((CLEAR_PHOTO_EDGE_STEPS - 1) * VISIBLE_STEP))) if VISIBLE_STEP > 0 else 0.0
    if visible > 0:
        faint = magnitude < visible
        saliency[faint] *= (magnitude[faint] / visible) ** 2
    return flood, quantised(saliency), strongest, smooth, magnitude, sigma


def watershed_basins(flood):
    """watershed.ts: every grid pixel in the basin of one regional minimum of the flood map (4-connected).
    Answers the basin of each pixel (0 .. count - 1) and the count."""
    # Regional minima: the 4-connected plateaus every pixel of which is as low as its neighbours
    # (equal to its erosion), without a pixel of the same height next to them that is not.
    low = flood == cv2.erode(flood, CROSS)
    raised = flood.copy()
    raised[low] = STRENGTH_LEVELS
    # A minimum's pixel with an equal neighbour that has a lower one: that plateau is no minimum.
    spills = low & (cv2.erode(raised, CROSS) == flood)
    count, markers = cv2.connectedComponents(low.view(np.uint8), connectivity=4, ltype=cv2.CV_32S)
    minimum = np.ones(count, bool)
    minimum[0] = False
    minimum[markers[spills]] = False
    markers[~minimum[markers]] = 0
    # cv2.watershed floods by the largest channel difference between a pixel and the neighbour it
    # is reached from, not by the image's value, so the map goes in on a checkerboard: channel 0
    # holds it on the even squares, channel 1 on the odd ones; every 4-neighbour pair is one of
    # each, so a pixel is queued at max(map here, map there), i.e. flooded on the map. The map,
    # 1024 levels, goes to cv2's 256 by its own cumulative histogram (order kept, fewest ties).
    counts = np.bincount(flood.ravel(), minlength=STRENGTH_LEVELS)
    to_byte = (np.cumsum(counts) * (255 / flood.size)).astype(np.uint8)
    relief = to_byte[flood]
    h, w = flood.shape
    even = (np.add.outer(np.arange(h), np.arange(w)) & 1) == 0
    image = np.zeros((h, w, 3), np.uint8)
    image[..., 0] = np.where(even, relief, 0)
    image[..., 1] = np.where(even, 0, relief)
    cv2.watershed(image, markers)
    # Its watershed lines (and the frame it draws round the image) are -1, and a pocket the lines
    # closed off stays 0: such a pixel takes the largest label around it (float32 holds labels
    # exactly; cv2.dilate has no int32), so every pixel has a basin, as ours.
    lines = markers <= 0
    while lines.any():
        around = cv2.dilate(markers.astype(np.float32), CROSS).astype(np.int32)
        markers[lines] = around[lines]
        lines = markers <= 0
    # Labels 0 .. count - 1, dropping markers the frame or the lines swallowed.
    present = np.bincount(markers.ravel()) > 0
    compact = np.cumsum(present) - 1
    return compact[markers].astype(np.int32), int(present.sum())


def numbered_pairs(a, b, count):
    """The distinct unordered pairs among (a, b), numbered in the order first met (as ours'
    PairTable numbers them): the pairs' two ends and each element's pair."""
    key = np.minimum(a, b).astype(np.int64) * count + np.maximum(a, b)
    pairs, first, edge = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    pairs = pairs[order]
    return pairs // count, pairs % count, rank[edge]


def adjacency_of(label, count, saliency, flood):
    """adjacency.ts adjacencyOf: per touching pair, the border's length in cracks and its summed
    saliency and magnitude (each the larger of the two pixels', in grey levels); pixels per region.
    Edges are numbered as ours numbers them, by where the raster scan first meets them (the right
    neighbour, then the one below)."""
    h, w = label.shape
    # Per pixel, its right neighbour's label and then the one below (itself at the edges: no crack).
    other = np.empty((h, w, 2), np.int32)
    other[:, :-1, 0] = label[:, 1:]
    other[:, -1, 0] = label[:, -1]
    other[:-1, :, 1] = label[1:]
    other[-1, :, 1] = label[-1]
    a = np.repeat(label.ravel(), 2)
    b = other.ravel()
    crack = np.flatnonzero(a != b)
    edge_a, edge_b, edge = numbered_pairs(a[crack], b[crack], count)
    sums = []
    for plane in (saliency, flood):
        crest = np.zeros((h, w, 2), np.uint16)
        crest[:, :-1, 0] = np.maximum(plane[:, :-1], plane[:, 1:])
        crest[:-1, :, 1] = np.maximum(plane[:-1], plane[1:])
        sums.append(np.bincount(edge, weights=crest.ravel()[crack], minlength=len(edge_a)) / STEPS_PER_GREY_LEVEL)
    length = np.bincount(edge, minlength=len(edge_a)).astype(np.float64)
    area = np.bincount(label.ravel(), minlength=count).astype(np.float64)
    return edge_a, edge_b, length, sums[0], sums[1], area


def join_across_no_border(edge_a, edge_b, length, strength, count):
    """merge-tree.ts joinAcrossNoBorder: basins joined across every border whose mean saliency is
    under noBorderBelow. Union-find in numpy: every root hooked to the smallest root across its
    joining borders (np.minimum.at), then pointer jumping, until no joining border has two roots.
    Answers the region of each basin, numbered by its first basin as ours, and the count."""
    parent = np.arange(count)
    a = edge_a[strength < NO_BORDER_BELOW * length]
    b = edge_b[strength < NO_BORDER_BELOW * length]
    while len(a):
        root_a, root_b = parent[a], parent[b]
        apart = root_a != root_b
        if not apart.any():
            break
        a, b, root_a, root_b = a[apart], b[apart], root_a[apart], root_b[apart]
        np.minimum.at(parent, np.maximum(root_a, root_b), np.minimum(root_a, root_b))
        while True:
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up
    root = parent == np.arange(count)
    return (np.cumsum(root) - 1)[parent], int(root.sum())


def coarser_graph(edge_a, edge_b, length, strength, magnitude, area, region_of, count):
    """adjacency.ts coarserGraph: the joined regions' graph from the basins' edges alone (their
    lengths and sums added up), numbered as ours."""
    a, b = region_of[edge_a], region_of[edge_b]
    between = np.flatnonzero(a != b)
    new_a, new_b, edge = numbered_pairs(a[between], b[between], count)
    edges = len(new_a)
    sums = [np.bincount(edge, weights=values[between], minlength=edges) for values in (length, strength, magnitude)]
    return new_a, new_b, *sums, np.bincount(region_of, weights=area, minlength=count)


def colour_bin(value):
    """region-features.ts colourBin: colour axes spread finely near neutral."""
    signed = value - 128
    magnitude = min(COLOUR_BINS // 2 - 1, int(np.floor(np.log2(1 + abs(signed) / 3))))
    return COLOUR_BINS // 2 - 1 - magnitude if signed < 0 else COLOUR_BINS // 2 + magnitude


COLOUR_BIN_OF = np.array([colour_bin(value) for value in range(256)], np.uint8)
# floor(log2(1 + m)) >= k where m >= 2^k - 1: the grain bins' lower bounds.
GRAIN_FROM = np.array([2.0**k - 1 for k in range(1, GRAIN_BINS)], np.float32)


def region_histograms(smooth, magnitude, contrast, chroma, label, count):
    """region-features.ts pixelFeatures + regionHistograms: each region's counts over the
    lightness bins (around the mean, as much finer as the photo is faint), the grain bins and, with
    colour, each colour axis' bins; count x bins, in ours' order. Two bincounts, not one a
    feature: lightness x grain and Cb x Cr jointly, each then summed to its two features'."""
    per_level = LIGHTNESS_BINS / 256 / contrast
    lightness = smooth * per_level
    lightness += LIGHTNESS_BINS / 2 - cv2.mean(smooth)[0] * per_level
    np.floor(lightness, out=lightness)
    np.clip(lightness, 0, LIGHTNESS_BINS - 1, out=lightness)
    grain = np.searchsorted(GRAIN_FROM, magnitude, side="right")
    joint = label * (LIGHTNESS_BINS * GRAIN_BINS) + lightness.astype(np.int32) * GRAIN_BINS + grain
    lg = np.bincount(joint.ravel(), minlength=count * LIGHTNESS_BINS * GRAIN_BINS).reshape(count, LIGHTNESS_BINS, GRAIN_BINS)
    parts = [lg.sum(axis=2), lg.sum(axis=1)]
    if chroma is not None:
        cr, cb = cv2.split(cv2.LUT(chroma, COLOUR_BIN_OF))
        joint = label * (COLOUR_BINS * COLOUR_BINS) + cb.astype(np.int32) * COLOUR_BINS + cr
        colour = np.bincount(joint.ravel(), minlength=count * COLOUR_BINS * COLOUR_BINS).reshape(count, COLOUR_BINS, COLOUR_BINS)
        parts += [colour.sum(axis=2), colour.sum(axis=1)]
    return np.concatenate(parts, axis=1).astype(np.float64)


def key_of_chance(chance):
    """A chance as the merge's keys hold it: its log-odds, in steps from ODDS_FLOOR."""
    return (math.log(chance / (1 - chance)) - ODDS_FLOOR) * ODDS_STEPS


class BorderKeys:
    """region-features.ts HistogramJudge.chance as the merge's keys: BORDER_MODEL's logistic
    function of a border's mean saliency, mean magnitude and mean boundary chance (the boundary
    model's, discounted where blurred), of the χ² distances of its two
    regions' normalised histograms (lightness, grain, colour; each also as its square root), of
    the smaller region's share of the photo and the border's length over its scale, of whether
    the photo has colour, of the smoother and the grainier side's grain level (mean grain bin)
    and, with faces, of how much both sides lie in a face, kept as log-odds in steps of
    1/ODDS_STEPS from ODDS_FLOOR. The logistic function keeps the order, and a threshold's chance
    goes through key_of_chance: the borders merge as ours, without an exp per border. A key is
    the border's own part plus its two sides' part."""

    def __init__(self, bins, pixels, has_colour, has_faces=False):
        m = BORDER_MODEL
        # With faces the histograms' last column is each region's face mass (normalised: its face
        # share), no bin of any feature: a border inside a face loses insideOdds x the square of
        # the smaller share (region-features.ts HistogramJudge faceTerm).
        self.face_odds = ODDS_STEPS * FACE_TUNING["insideOdds"] if has_faces else 0
        feature_bins = bins - 1 if has_faces else bins
        # Sizes are read against the photo: areas as its share, lengths over its scale.
        self.pixels, self.scale = pixels, math.sqrt(pixels)
        self.area_weight, self.length_weight = ODDS_STEPS * m["logSmallerArea"], ODDS_STEPS * m["logLength"]
        # Per bin, half its χ² term into its feature's distance: lightness, grain, colour (none
        # without colour, as ours: 0).
        halves = np.zeros((bins, 3))
        halves[:LIGHTNESS_BINS, 0] = 0.5
        halves[LIGHTNESS_BINS:LIGHTNESS_BINS + GRAIN_BINS, 1] = 0.5
        halves[LIGHTNESS_BINS + GRAIN_BINS:feature_bins, 2] = 0.5
        # One product gives the distances' own terms (column 0, in steps) and the three distances.
        self.terms = np.column_stack([ODDS_STEPS * (halves @ np.array([m["lightness"], m["grain"], m["colour"]])), halves])
        self.rooted = ODDS_STEPS * np.array([m["sqrtLightness"], m["sqrtGrain"], m["sqrtColour"]])
        self.bias = (m["bias"] + (0 if has_colour else m["greyPhoto"]) - ODDS_FLOOR) * ODDS_STEPS
        self.saliency, self.magnitude = ODDS_STEPS * m["logSaliency"], ODDS_STEPS * m["logMagnitude"]
        # The boundary model's mean chance along the border, as log(1 + 100 x it) (region-features.ts).
        self.boundary = ODDS_STEPS * m["logBoundary"]
        # Each side's grain level: its mean grain bin over GRAIN_BINS - 1, by one product.
        self.grain_level = np.zeros(bins)
        self.grain_level[LIGHTNESS_BINS:LIGHTNESS_BINS + GRAIN_BINS] = np.arange(GRAIN_BINS) / (GRAIN_BINS - 1)
        self.smoother, self.grainier = ODDS_STEPS * m["smootherGrain"], ODDS_STEPS * m["grainierGrain"]
        # Distances are 0..1 and means under 256 grey levels: the odds' reach, which the keys'
        # 32 bits hold for any weights of the size the fit gives (a few units); clamped otherwise.
        reach = abs(m["bias"]) + abs(m["greyPhoto"]) + (abs(m["logSaliency"]) + abs(m["logMagnitude"])) * math.log1p(256) + sum(abs(m[name]) for name in ("lightness", "grain", "colour", "sqrtLightness", "sqrtGrain", "sqrtColour"))
        # A region's share lies in 1/pixels..1, a border's length over the scale in 1/scale..4 scale.
        reach += abs(m["logSmallerArea"]) * math.log(pixels) + abs(m["logLength"]) * (math.log(self.scale) + math.log(4 * self.scale))
        reach += self.face_odds / ODDS_STEPS + abs(m["smootherGrain"]) + abs(m["grainierGrain"]) + abs(m["logBoundary"]) * math.log1p(100)
        self.clamped = reach >= -ODDS_FLOOR

    def of_borders(self, length, strength, magnitude, boundary):
        """The borders' own part, from their sums (arrays)."""
        return self.bias + self.saliency * np.log1p(strength / length) + self.magnitude * np.log1p(magnitude / length) + self.boundary * np.log1p(100 * boundary / length) + self.length_weight * np.log(length / self.scale)

    def of_border(self, length, strength, magnitude, boundary):
        return self.bias + self.saliency * math.log1p(strength / length) + self.magnitude * math.log1p(magnitude / length) + self.boundary * math.log1p(100 * boundary / length) + self.length_weight * math.log(length / self.scale)

    def of_sides(self, p, q, area_p, area_q):
        """The two sides' part: p, q their normalised histograms (rows, or one row against many),
        area_p, area_q their areas (arrays, or a number against an array)."""
        # (p - q)² / (p + q); no bin is 0 (merge_sequence adds EMPTY_BIN to each), so no 0 / 0.
        chi = q - p
        chi *= chi
        chi /= q + p
        terms = chi @ self.terms
        key = terms[..., 0] + np.sqrt(terms[..., 1:]) @ self.rooted + self.area_weight * np.log(np.minimum(area_p, area_q) / self.pixels)
        if self.smoother or self.grainier:
            level_p, level_q = p @ self.grain_level, q @ self.grain_level
            key += self.smoother * np.minimum(level_p, level_q) + self.grainier * np.maximum(level_p, level_q)
        if self.face_odds:
            inside = np.minimum(p[..., -1], q[..., -1])
            key -= self.face_odds * inside * inside
        return key


def merge_sequence(edge_a, edge_b, length, strength, magnitude, boundary, area, histograms, phases, pixels, has_colour, has_faces=False):
    """merge-tree.ts mergeSequence with the border judge: the border least likely drawn merged
    first, a phase per level from the finest. In a phase a region under its smallest area, or
    narrower than its narrowest (2 x area / border length), merges whatever its border unless the
    border stands out (chance >= standOutBorder) and it is no speck; the phase ends at the first
    border as likely as weakestBorderKept, or once fewestRegions are left. A merge adds the two
    regions' histograms (in place) and judges every border of the merged region again, as ours.

    Neighbour dicts per region, the one with fewer neighbours merged into the other (ours: by
    edge-list length, dead edges included; which side keeps its number changes no cut), and a
    heapq with lazy deletion: an entry is live while it is its edge's current one (None once the
    edge is merged away). An entry is one int, which heapq compares about 4x faster than a tuple:
    from the top, 1 bit "not a small region joining" (those go first, as merge-tree.ts
    SMALL_REGION_KEY), the key (BorderKeys, 31 bits), then the order of the push, which names the
    edge (through edge_of) and breaks ties first in, first out. A merge judges all of its borders
    in one numpy pass (about 20 calls on arrays of its neighbours: a merged region has 8-10 of
    them at the median, and their χ² took 12 µs in numpy where plain Python over lists took 41);
    the bookkeeping is Python lists and dicts, whose single items are several times faster than
    numpy's. Answers the merges (kept, gone) and how many were done when each phase ended."""
    edges, count = len(edge_a), len(area)
    keys = BorderKeys(histograms.shape[1], pixels, has_colour, has_faces)
    border_key = keys.of_borders(length, strength, magnitude, boundary)  # per edge, kept up to date
    perimeter = (np.bincount(edge_a, weights=length, minlength=count) + np.bincount(edge_b, weights=length, minlength=count)).tolist()
    histograms += EMPTY_BIN
    normalised = histograms / np.maximum(area, 1)[:, None]
    area, length, strength, magnitude, boundary = area.tolist(), length.tolist(), strength.tolist(), magnitude.tolist(), boundary.tolist()
    ends_a = edge_a.tolist()  # an edge's two regions, always the current ones
    ends_b = edge_b.tolist()
    neighbours = [{} for _ in range(count)]  # region -> {neighbouring region: edge}
    for e, a, b in zip(range(edges), ends_a, ends_b):
        neighbours[a][b] = e
        neighbours[b][a] = e
    current = [None] * edges
    kept, gone_ = [], []
    phase_end = []
    regions_left = count
    push, pop = heapq.heappush, heapq.heappop
    order_mask, big = ORDER_MASK, BIG  # locals: faster in the loop
    for phase in phases:
        min_area, min_width, speck_area = phase["minArea"], phase["minWidth"], phase["standOutArea"]
        stand_out = key_of_chance(phase["standOutAbove"])
        # Per region, too small (or narrow) for this level, and a speck; a merge changes only the merged region's.
        area_now, perimeter_now = np.array(area), np.array(perimeter)
        small = (area_now < min_area) | (2 * area_now < min_width * perimeter_now)
        speck = area_now < speck_area

        def entries_of(key, joins, first_push):
            """Heap entries of borders: their keys, whether a small region joins across each (an
            array, or one answer for all), and their first push."""
            if keys.clamped:
                np.maximum(key, 0, out=key)  # not np.clip: its own overhead is 30 µs a call
                np.minimum(key, KEY_TOP, out=key)
            # The "not joining" bit, exact in a float.
            if joins is False:
                key += KEY_TOP + 1
            elif joins is not True:
                key += np.where(joins, 0.0, KEY_TOP + 1)
            entries = key.astype(np.int64)
            entries <<= ORDER_BITS
            entries |= np.arange(first_push, first_push + len(entries))
            return entries.tolist()

        # The phase's entries, all at once (the edges still alive: all of them in the first phase).
        live = np.arange(edges) if not phase_end else np.array([e for e in range(edges) if current[e] is not None], np.int64)
        if len(live):
            a, b = np.array(ends_a, np.int64)[live], np.array(ends_b, np.int64)[live]
            key = border_key[live] + keys.of_sides(normalised[a], normalised[b], area_now[a], area_now[b])
            heap = entries_of(key, (small[a] | small[b]) & ((key < stand_out) | speck[a] | speck[b]), 0)
        else:
            heap = []
        edge_of = live.tolist()  # the edge of each push
        for e, entry in zip(edge_of, heap):
            current[e] = entry
        heapq.heapify(heap)
        pushes = len(heap)
        stop = BIG | (math.ceil(key_of_chance(phase["mergeBelow"])) << ORDER_BITS)
        while heap:
            entry = pop(heap)
            e = edge_of[entry & order_mask]
            if current[e] != entry:
                continue  # stale: the edge is gone or has a newer entry
            if entry >= stop or (entry >= big and regions_left <= FEWEST_REGIONS):
                break
            keep, gone = ends_a[e], ends_b[e]
            mine, theirs_all = neighbours[keep], neighbours[gone]
            if len(mine) < len(theirs_all):
                keep, gone, mine, theirs_all = gone, keep, theirs_all, mine
            kept.append(keep)
            gone_.append(gone)
            regions_left -= 1
            current[e] = None
            del mine[gone]
            area[keep] = area_keep = area[keep] + area[gone]
            perimeter[keep] = perimeter[keep] + perimeter[gone] - 2 * length[e]
            small_keep = small[keep] = area_keep < min_area or 2 * area_keep < min_width * perimeter[keep]
            speck_keep = speck[keep] = area_keep < speck_area
            row = histograms[keep]
            row += histograms[gone]
            np.multiply(row, 1 / area_keep, out=normalised[keep])
            # gone's borders: combined with keep's border to the same neighbour, or moved to keep.
            for other, f in theirs_all.items():
                if f == e:
                    continue
                theirs = neighbours[other]
                del theirs[gone]
                parallel = mine.get(other)
                if parallel is not None:
                    length[parallel] += length[f]
                    strength[parallel] += strength[f]
                    magnitude[parallel] += magnitude[f]
                    boundary[parallel] += boundary[f]
                    border_key[parallel] = keys.of_border(length[parallel], strength[parallel], magnitude[parallel], boundary[parallel])
                    current[f] = None
                else:
                    mine[other] = f
                    theirs[keep] = f
                    if ends_a[f] == gone:
                        ends_a[f] = keep
                    else:
                        ends_b[f] = keep
            neighbours[gone] = None
            # keep's inside changed: every border of it judged again, in new entries.
            if mine:
                others = np.fromiter(mine, np.int64, len(mine))
                fs_list = list(mine.values())
                key = border_key[fs_list]
                key += keys.of_sides(normalised[keep], normalised[others], area_keep, np.array([area[o] for o in others]))
                if small_keep:
                    joins = True if speck_keep else (key < stand_out) | speck[others]
                else:
                    joins = small[others]
                    if not speck_keep and not joins.any():
                        joins = False
                    elif not speck_keep:
                        joins &= (key < stand_out) | speck[others]
                for f, entry in zip(fs_list, entries_of(key, joins, pushes)):
                    current[f] = entry
                    push(heap, entry)
                edge_of += fs_list
                pushes += len(fs_list)
        phase_end.append(len(kept))
    return np.array(kept, np.int64), np.array(gone_, np.int64), phase_end


ORDER_BITS = 28  # pushes in a phase: a few times the edges
ORDER_MASK = (1 << ORDER_BITS) - 1
ODDS_STEPS = 1 << 24  # a key's log-odds, in steps of 2^-24 ...
ODDS_FLOOR = -64  # ... from -64 (a chance of 1.6e-28) ...
KEY_TOP = (1 << 31) - 1  # ... to +64, in 31 bits
EMPTY_BIN = 1e-200  # in every bin of every histogram: far under one pixel's share, and no 0 / 0 in χ²
BIG = (KEY_TOP + 1) << ORDER_BITS  # the "not joining" bit, above every key; entries stay under 2^60




def partition_after(count, kept, gone, merges):
    """index.ts partitionAfter: the region (a root) of each finest region after the first `merges`
    merges, by pointer jumping."""
    parent = np.arange(count)
    parent[gone[:merges]] = kept[:merges]
    while True:
        up = parent[parent]
        if np.array_equal(up, parent):
            return parent
        parent = up


def border_mask(label):
    """The grid pixels whose right or bottom neighbour is in another region."""
    border = np.zeros(label.shape, np.uint8)
    border[:, :-1] |= label[:, :-1] != label[:, 1:]
    border[:-1, :] |= label[:-1, :] != label[1:, :]
    return border


def smoothed_borders(label, sigma):
    """arcs.ts traceArcs + smoothArcs: a partition's borders (the grid pixels whose right or bottom
    neighbour is in another region) traced by cv2.findContours, each a closed loop, smoothed along
    their length by a Gaussian of `sigma` points wrapping round each loop and kept every
    ARC_POINT_STEP-th point, as ours (all loops at once: a gather per tap, at the kept points
    only). Answers the points (x, y: the corner after the pixel, in grid px) and where each loop
    starts."""
    contours, _ = cv2.findContours(border_mask(label), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return np.zeros((0, 2)), np.zeros(1, np.int64)
    sizes = np.fromiter((len(c) for c in contours), np.int64, len(contours))
    starts = np.concatenate(([0], np.cumsum(sizes)))
    pixels = np.concatenate(contours).reshape(-1, 2)
    loop_start = np.repeat(starts[:-1], sizes)
    loop_size = np.repeat(sizes, sizes)
    along = np.arange(len(pixels)) - loop_start
    taken = np.flatnonzero(along % ARC_POINT_STEP == 0)
    loop_start, loop_size, along = loop_start[taken], loop_size[taken], along[taken]
    radius = max(1, int(np.ceil(2.5 * sigma)))
    weights = np.exp(-np.arange(-radius, radius + 1) ** 2 / (2 * sigma**2))
    smooth = np.zeros((len(taken), 2))
    for k, weight in zip(range(-radius, radius + 1), weights / weights.sum()):
        smooth += weight * pixels[loop_start + (along + k) % loop_size]
    kept_sizes = (sizes + ARC_POINT_STEP - 1) // ARC_POINT_STEP
    return smooth + 1, np.concatenate(([0], np.cumsum(kept_sizes)))


# ---- Faces (workers/sketch/kernel/faces/, decision 034) ----

BENCH_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
FACE_CASCADE = os.path.join("haarcascades", "haarcascade_frontalface_alt.xml")


def opencv_data_folder():
    """Debian's opencv-data, found as bench/photo-set.mjs findPackageFolder finds a package:
    installed, or already unpacked in bench/out/opencv-data, or unpacked there (dpkg-deb -x) from
    a .deb (`apt-get download opencv-data`) in the current folder, bench/out, /tmp/wp or apt's
    cache. Nothing is downloaded. None where it is nowhere."""
    unpacked = os.path.join(BENCH_OUT, "opencv-data", "usr", "share", "opencv4")
    for candidate in ("/usr/share/opencv4", "/usr/share/opencv", unpacked):
        if os.path.exists(os.path.join(candidate, FACE_CASCADE)):
            return candidate
    for place in (os.getcwd(), BENCH_OUT, "/tmp/wp", "/var/cache/apt/archives"):
        if not os.path.isdir(place):
            continue
        deb = next((name for name in sorted(os.listdir(place)) if name.startswith("opencv-data_") and name.endswith(".deb")), None)
        if deb is None:
            continue
        # dpkg-deb makes the folder it unpacks into, not its parents: a fresh clone has no bench/out.
        os.makedirs(BENCH_OUT, exist_ok=True)
        subprocess.run(["dpkg-deb", "-x", os.path.join(place, deb), os.path.join(BENCH_OUT, "opencv-data")], check=True)
        if os.path.exists(os.path.join(unpacked, FACE_CASCADE)):
            return unpacked
    return None


@functools.lru_cache(maxsize=1)
def face_cascade():
    """OpenCV's haarcascade_frontalface_alt, the cascade ours reads from the jsfeat package. Without
    it the mirror would skip a stage ours always runs, so it stops and says so."""
    folder = opencv_data_folder()
    cascade = cv2.CascadeClassifier(os.path.join(folder, FACE_CASCADE)) if folder else None
    if cascade is None or cascade.empty():
        raise SystemExit(
            "opencv_recipe.py: OpenCV's face cascade (opencv-data's " + FACE_CASCADE + ") was not found: "
            "`apt-get download opencv-data` in the repository's folder or bench/out (it is unpacked into "
            "bench/out/opencv-data; nothing is downloaded at run time). Without it the mirror cannot find faces as ours does."
        )
    return cascade


def find_faces(grey):
    """faces/index.ts findFaces: on the analysis grid's toned grey reduced (INTER_AREA) to
    searchLongEdge, never up, cv2's detectMultiScale for faces at least smallestFaceShare of that
    long edge (scaleStep, fewestAgreeingWindows as minNeighbors); the boxes (x, y, side) scaled
    back to the grid. cv2 steps its windows 2 px below a pyramid scale of 2 and 1 px above, ours 2
    px at every scale, and cv2's boxes are whole pixels, ours the windows' means: the same faces,
    boxes a few px apart."""
    h, w = grey.shape
    longest = FACE_TUNING["searchLongEdge"]
    if max(w, h) > longest:
        search = (max(1, js_round(w * longest / max(w, h))), max(1, js_round(h * longest / max(w, h))))
        small = cv2.resize(grey, search, interpolation=cv2.INTER_AREA)
    else:
        search, small = (w, h), grey
    scale = w / search[0]
    smallest = math.ceil(FACE_TUNING["smallestFaceShare"] * max(search))
    boxes = face_cascade().detectMultiScale(
        small, scaleFactor=FACE_TUNING["scaleStep"], minNeighbors=int(FACE_TUNING["fewestAgreeingWindows"]), minSize=(smallest, smallest)
    )
    return [(x * scale, y * scale, side * scale) for x, y, side, _ in np.asarray(boxes, np.float64).reshape(-1, 4)]


def face_weights(faces, width, height):
    """faces/index.ts faceWeights: per grid pixel how much it belongs to a face, 1 inside ovalCore of
    a face's oval (centred ovalCentreDown of its box down, half-axes ovalHalfWidth and
    ovalHalfHeight of its side), falling linearly to 0 at the oval's edge, the largest over the
    faces; float32, as ours. None without a face."""
    if not faces:
        return None
    weights = np.zeros((height, width), np.float32)
    core = FACE_TUNING["ovalCore"]
    for x, y, size in faces:
        centre_x, centre_y = x + size / 2, y + FACE_TUNING["ovalCentreDown"] * size
        half_width, half_height = FACE_TUNING["ovalHalfWidth"] * size, FACE_TUNING["ovalHalfHeight"] * size
        top, bottom = max(0, math.floor(centre_y - half_height)), min(height - 1, math.ceil(centre_y + half_height))
        left, right = max(0, math.floor(centre_x - half_width)), min(width - 1, math.ceil(centre_x + half_width))
        if top > bottom or left > right:
            continue
        rows = (np.arange(top, bottom + 1)[:, None] + 0.5 - centre_y) / half_height
        columns = (np.arange(left, right + 1)[None, :] + 0.5 - centre_x) / half_width
        radius = np.hypot(columns, rows)
        weight = np.where(radius <= core, 1.0, np.where(radius < 1, (1 - radius) / (1 - core), 0.0))
        window = weights[top:bottom + 1, left:right + 1]
        np.maximum(window, weight.astype(np.float32), out=window)
    return weights


# ---- Feature strokes (workers/sketch/kernel/strokes/, decision 033) ----

# skeleton.ts: the 8 neighbours, the 4 beside a pixel first (a line is followed along its sides
# before its diagonals), and the ring clockwise from north that a pixel's crossings are counted on.
STROKE_NEIGHBOURS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))
STROKE_RING = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def sobel_steps(plane):
    """edge-map.ts sobelSteps: the Sobel magnitude in grey levels of a step, the border pixels
    copying their inner neighbour."""
    steps = cv2.magnitude(cv2.Sobel(plane, cv2.CV_32F, 1, 0), cv2.Sobel(plane, cv2.CV_32F, 0, 1)) * 0.25
    steps[:, 0], steps[:, -1] = steps[:, 1], steps[:, -2]
    steps[0], steps[-1] = steps[1], steps[-2]
    return steps


def across_squares(plane, side):
    """boundary/features.ts acrossSquares: the largest and the smallest of the four differences
    across each pixel between the side x side squares touching its corners (box means by
    cv2.boxFilter, the plane's edges replicated where ours clips the squares)."""
    mean = cv2.boxFilter(plane, -1, (side, side), anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    padded = cv2.copyMakeBorder(mean, side + 1, side + 1, side + 1, side + 1, cv2.BORDER_REPLICATE)
    h, w = plane.shape
    near, far = slice(1, 1 + h), slice(side + 2, side + 2 + h)
    near_x, far_x = slice(1, 1 + w), slice(side + 2, side + 2 + w)
    tl, tr, bl, br = padded[near, near_x], padded[near, far_x], padded[far, near_x], padded[far, far_x]
    across = np.stack([np.abs(tl + bl - tr - br) / 2, np.abs(tl + tr - bl - br) / 2, np.abs(tr - bl), np.abs(tl - br)])
    return across.max(0), across.min(0)


def boundary_features(lightness, cb, cr):
    """boundary/features.ts boundaryFeatures: the 34 planes, in its order."""
    grain = np.log1p(sobel_steps(blur(lightness, 1)))
    planes = []
    for plane in (lightness, cb, cr, grain):
        for side in BOUNDARY_TUNING["squareSides"]:
            planes.extend(across_squares(plane, side))
    for side in BOUNDARY_TUNING["spreadSides"]:
        before = side >> 1
        mean = cv2.boxFilter(lightness, -1, (side, side), anchor=(before, before), borderType=cv2.BORDER_REPLICATE)
        square = cv2.boxFilter(lightness * lightness, -1, (side, side), anchor=(before, before), borderType=cv2.BORDER_REPLICATE)
        planes.extend(across_squares(np.sqrt(np.maximum(0, square - mean * mean)), side))
    planes.extend(sobel_steps(blur(lightness, sigma)) for sigma in (1, 2, 4))
    planes.extend([sobel_steps(blur(cb, 2)), sobel_steps(blur(cr, 2)), blur(grain, 4)])
    return planes


def border_boundary(grey, chroma, label, count, edge_a, edge_b, magnitude, sigma):
    """boundary/index.ts borderBoundary: per border of the finest regions, the boundary model's
    chance summed along it (each crack's larger pixel), discounted by the border's blur. The model
    reads the grid at its own scale (INTER_AREA); its trees are walked, level by level for all of
    them at once in numpy, only at the model's pixels nearest a border's cracks."""
    h, w = label.shape
    scale = min(1.0, BOUNDARY_TUNING["modelLongEdge"] / max(w, h))
    size = (max(1, js_round(w * scale)), max(1, js_round(h * scale))) if scale < 1 else (w, h)
    small = lambda plane: cv2.resize(plane, size, interpolation=cv2.INTER_AREA) if scale < 1 else plane
    lightness = small(grey).astype(np.float32)
    if chroma is None:
        cb = cr = np.full(lightness.shape, 128, np.float32)
    else:
        colour = small(chroma).astype(np.float32)
        cr, cb = colour[..., 0], colour[..., 1]
    features = np.stack(boundary_features(lightness, cb, cr), axis=-1).reshape(size[0] * size[1], -1)
    # Each grid pixel's nearest model pixel; the cracks' pixels (both sides) among them.
    column = np.minimum(size[0] - 1, ((np.arange(w) + 0.5) * size[0] / w).astype(np.int64))
    row = np.minimum(size[1] - 1, ((np.arange(h) + 0.5) * size[1] / h).astype(np.int64))
    nearest = row[:, None] * size[0] + column[None, :]
    across = np.zeros((h, w), bool)
    across[:, :-1] |= label[:, :-1] != label[:, 1:]
    across[:, 1:] |= label[:, :-1] != label[:, 1:]
    across[:-1] |= label[:-1] != label[1:]
    across[1:] |= label[:-1] != label[1:]
    wanted = np.unique(nearest[across])
    forest = BOUNDARY_FOREST
    splits = forest["feature"].shape[1]
    rows = features[wanted]
    node = np.zeros((len(wanted), len(forest["leaf"])), np.int64)
    trees = np.arange(len(forest["leaf"]))
    for _ in range(forest["depth"]):
        split = (trees * splits + node)
        value = np.take_along_axis(rows, forest["feature"].ravel()[split], axis=1)
        node = 2 * node + 1 + (value > forest["threshold"].ravel()[split])
    odds = forest["baseline"] + forest["leaf"][trees, node - splits].sum(1)
    chance = np.zeros(size[0] * size[1], np.float32)
    chance[wanted] = 1 / (1 + np.exp(-odds))
    chance = chance[nearest]
    # The border's step in the edge maps' magnitude (grey and colour) and in it blurred by
    # blurProbePx: their ratio gives its blur (boundary/index.ts), which takes its evidence away
    # from sharpPx to blurredPx.
    steps = magnitude
    wider = blur(magnitude, BOUNDARY_TUNING["blurProbePx"])
    key = np.minimum(edge_a, edge_b).astype(np.int64) * count + np.maximum(edge_a, edge_b)
    order = np.argsort(key)
    sums = np.zeros((3, len(key)))
    # The vertical cracks (each pixel and the one to its right), then the horizontal ones (below).
    for neighbours in (lambda plane: (plane[:, :-1], plane[:, 1:]), lambda plane: (plane[:-1], plane[1:])):
        first, second = neighbours(label)
        crack = first != second
        pair = np.minimum(first[crack], second[crack]).astype(np.int64) * count + np.maximum(first[crack], second[crack])
        edge = order[np.searchsorted(key, pair, sorter=order)]
        for k, plane in enumerate((chance, steps, wider)):
            one, other = neighbours(plane)
            sums[k] += np.bincount(edge, weights=np.maximum(one[crack], other[crack]), minlength=len(key))
    near = sigma * sigma + SOBEL_VARIANCE
    far = near + BOUNDARY_TUNING["blurProbePx"] ** 2
    ratio2 = (sums[1] / np.maximum(sums[2], 1e-6)) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        blur_px = np.where(ratio2 <= 1, np.inf, np.sqrt(np.maximum(0, (far - ratio2 * near) / (ratio2 - 1))))
    sharp, blurred = BOUNDARY_TUNING["sharpPx"], BOUNDARY_TUNING["blurredPx"]
    return sums[0] * np.clip((blurred - blur_px) / (blurred - sharp), 0, 1)


def dark_line_depth(smooth, mm_per_px, contrast, suppression=None):
    """dark-lines.ts darkLineDepth: the black top-hat of the smoothed grey (cv2.morphologyEx
    MORPH_BLACKHAT: its closing by a square of 2r + 1, r = widestLineMm / 2 on the grid, minus the
    grey; cv2's default border leaves the outside out of the max and the min, as ours clips the
    square to the plane), minus surroundSuppression x its mean around (a Gaussian of
    surroundSigmaMm, our three stacked boxes), floored at 0, divided by the photo's contrast.
    `suppression`: one per pixel (float32, as ours) in place of surroundSuppression, or None."""
    radius = max(1, js_round(STROKE_TUNING["widestLineMm"] / mm_per_px / 2))
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * radius + 1, 2 * radius + 1))
    depth = cv2.morphologyEx(smooth, cv2.MORPH_BLACKHAT, square)
    surround = blur(depth, STROKE_TUNING["surroundSigmaMm"] / mm_per_px)
    depth = cv2.max(depth - (STROKE_TUNING["surroundSuppression"] if suppression is None else suppression) * surround, 0.0)
    depth /= contrast
    return depth


def guo_hall_table(sub_iteration):
    """Per code of a pixel's 8 neighbours (bit k: STROKE_RING[k] on), whether Guo and Hall's
    thinning (CACM 1989) removes it in that sub-iteration, in OpenCV's words (ximgproc/thinning.cpp,
    THINNING_GUOHALL): one crossing, 2 or 3 neighbour pairs on, and the sub-iteration's side free."""
    table = np.zeros(256, bool)
    for code in range(256):
        p2, p3, p4, p5, p6, p7, p8, p9 = ((code >> k) & 1 for k in range(8))
        crossings = ((1 - p2) & (p3 | p4)) + ((1 - p4) & (p5 | p6)) + ((1 - p6) & (p7 | p8)) + ((1 - p8) & (p9 | p2))
        pairs = min((p9 | p2) + (p3 | p4) + (p5 | p6) + (p7 | p8), (p2 | p3) + (p4 | p5) + (p6 | p7) + (p8 | p9))
        side = ((p6 | p7 | (1 - p9)) & p8) if sub_iteration == 0 else ((p2 | p3 | (1 - p5)) & p4)
        table[code] = crossings == 1 and 2 <= pairs <= 3 and side == 0
    return table


GUO_HALL_TABLES = (guo_hall_table(0), guo_hall_table(1))


def thin_guo_hall(framed):
    """Thins a mask (with a frame of 0 round it) to 8-connected lines one pixel wide: pixel for
    pixel what cv2.ximgproc.thinning(..., THINNING_GUOHALL) answers (checked on the bench's
    photos), in numpy on the mask's pixels alone: each sub-iteration reads every candidate's 8
    neighbours at once (np.packbits of 8 gathers) and removes those its table says. OpenCV's own
    runs a per-pixel loop over the whole plane at every pass: 50-200 ms on the analysis grid where
    this takes 4-27. Guo and Hall's, not Zhang and Suen's: OpenCV removes a sub-iteration's pixels
    together, and with Zhang and Suen's rule that erases a 2 x 2 spot (a pupil) whole, which ours
    keeps by removing each pixel as soon as it is found removable; Guo and Hall's keeps it as a
    pixel."""
    h, w = framed.shape
    on = framed.ravel() > 0
    offsets = np.array([dy * w + dx for dx, dy in STROKE_RING])
    candidates = np.flatnonzero(on)
    while True:
        removed = 0
        for table in GUO_HALL_TABLES:
            code = np.packbits(on[candidates[:, None] + offsets], axis=1, bitorder="little")[:, 0]
            gone = candidates[table[code]]
            on[gone] = False
            removed += len(gone)
        candidates = candidates[on[candidates]]
        if not removed:
            return on.reshape(h, w)


def crossings_of(on):
    """skeleton.ts traceChains' crossings of each pixel of a thinned mask (with a frame of 0 round
    it): the runs of line pixels round it, 1 at an end, 2 along a line, 3 or more at a junction."""
    ring = [np.roll(on, (-dy, -dx), axis=(0, 1)) for dx, dy in STROKE_RING]  # ring[k][y, x] = on[y + dy, x + dx]
    runs = sum((~ring[k] & ring[(k + 1) & 7]).astype(np.uint8) for k in range(8))
    # A pixel whose every neighbour is on (inside a blob thinning left) counts as a junction.
    return np.where((runs == 0) & ring[2], 3, runs)


def trace_chains(thinned, crossings=None):
    """skeleton.ts traceChains, step for step, as a Python walk (OpenCV has no primitive that
    follows a skeleton from junction to junction: cv2.findContours goes round each line and back
    again): from each end or junction (told by its crossings, counted in numpy) along the line to
    the next; lone pixels as chains of one; loops without a junction from their first pixel round
    to it again. Given ours' thinned mask it gives ours' chains (577, 1620 and 1497 on the
    astronaut, Grace Hopper and the dog, and from there the same strokes per level). `thinned`:
    the mask with a frame of 0 round it; `crossings`: crossings_of it, if already counted. Answers each chain's pixels (flat indices into the framed
    plane) and where each chain starts."""
    h, w = thinned.shape
    on = thinned > 0
    crossings = crossings_of(on) if crossings is None else crossings
    node = (on & (crossings != 2)).tobytes()
    lone = set(np.flatnonzero(on & (crossings == 0)).tolist())
    mask = on.tobytes()
    offsets = [dy * w + dx for dx, dy in STROKE_NEIGHBOURS]
    taken = bytearray(h * w)
    pixels, start = [], [0]

    def follow(origin, first):
        pixels.append(origin)
        previous, current = origin, first
        while True:
            pixels.append(current)
            if node[current] or current == origin:
                break
            taken[current] = 1
            step = -1
            for d in offsets:
                j = current + d
                if mask[j] and j != previous and (node[j] or not taken[j] or j == origin):
                    step = j
                    break
            if step < 0:
                break
            previous, current = current, step
        start.append(len(pixels))

    everyone = np.flatnonzero(on).tolist()
    for i in everyone:
        if not node[i]:
            continue
        if i in lone:
            pixels.append(i)
            start.append(len(pixels))
            continue
        for d in offsets:
            j = i + d
            # A chain between two adjacent nodes is followed once, from the lower index.
            if mask[j] and (i < j if node[j] else not taken[j]):
                follow(i, j)
    for i in everyone:
        if node[i] or taken[i]:
            continue
        first = next(i + d for d in offsets if mask[i + d])
        taken[i] = 1
        follow(i, first)
    return np.array(pixels, np.int64), np.array(start, np.int64)


def smooth_open_lines(points, starts, sigma, step):
    """arcs.ts smoothLines: each line smoothed along its length by a Gaussian of `sigma` points,
    within a window that never passes an open line's ends (they stay put) and wraps round a closed
    one (first point = last), every `step`-th point kept and the last; all lines at once, a gather
    per tap at the kept points only."""
    sizes = np.diff(starts)
    line = np.repeat(np.arange(len(sizes)), sizes)
    along = np.arange(len(points)) - starts[line]
    n = sizes[line]
    taken = np.flatnonzero((along % step == 0) & (along < n - 1) | (along == n - 1))
    line, along, n = line[taken], along[taken], n[taken]
    first = starts[line]
    closed = (n > 2) & np.all(points[first] == points[first + n - 1], axis=1)
    radius = max(1, math.ceil(2.5 * sigma))
    reach = np.where(closed, radius, np.minimum(radius, np.minimum(along, n - 1 - along)))
    period = np.maximum(n - 1, 1)
    total = np.zeros((len(taken), 2))
    weight_sum = np.zeros(len(taken))
    for k in range(-radius, radius + 1):
        inside = abs(k) <= reach
        j = np.where(closed, (along + k) % period, np.clip(along + k, 0, n - 1))
        weight = np.where(inside, math.exp(-k * k / (2 * sigma * sigma)), 0.0)
        total += weight[:, None] * points[first + j]
        weight_sum += weight
    kept_starts = np.concatenate(([0], np.cumsum(np.bincount(line, minlength=len(sizes)))))
    return total / weight_sum[:, None], kept_starts


def line_lengths(points, starts):
    """Each polyline's length (its points' steps added up), in the points' unit."""
    line = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
    steps = np.hypot(*np.diff(points, axis=0).T)
    within = line[1:] == line[:-1]
    return np.bincount(line[1:][within], weights=steps[within], minlength=len(starts) - 1)


def find_strokes(smooth, mm_per_px, contrast, face_weight=None):
    """strokes/index.ts findStrokes: the pixels at least traceShare of the finest level's weakest
    depth, thinned (thin_guo_hall) and traced (trace_chains); each chain a stroke unless it is a
    twig (is_spur), judged by the depth judgedAtShare of its pixels stay under (a sort within each
    chain), smoothed as arcs (smooth_open_lines), its length in mm. Inside a face (`face_weight`,
    face_weights'), texture suppresses dark lines less (surroundSuppression eased towards
    strokeSurroundSuppression by the weight) and a stroke counts more (its depth x 1 + (strokeWeight
    - 1) x its pixels' mean weight). Points in grid px (pixel centres at x + 0.5)."""
    h, w = smooth.shape
    suppression = None
    if face_weight is not None:
        everywhere, in_face = STROKE_TUNING["surroundSuppression"], FACE_TUNING["strokeSurroundSuppression"]
        suppression = (everywhere - (everywhere - in_face) * face_weight.astype(np.float64)).astype(np.float32)
    depth = dark_line_depth(smooth, mm_per_px, contrast, suppression)
    trace_from = STROKE_TUNING["traceShare"] * min(level["weakestDepth"] for level in LEVEL_STROKES.values())
    framed = np.zeros((h + 2, w + 2), np.uint8)
    framed[1:-1, 1:-1][depth >= trace_from] = 255
    thinned = thin_guo_hall(framed)
    crossings = crossings_of(thinned)
    pixels, starts = trace_chains(thinned, crossings)
    if len(pixels):
        pixels, starts = without_spurs(pixels, starts, crossings, STROKE_TUNING["spurMm"] / mm_per_px)
    if len(pixels) == 0:
        return {"points": np.zeros((0, 2)), "starts": np.zeros(1, np.int64), "depth": np.zeros(0), "length_mm": np.zeros(0)}
    y, x = np.divmod(pixels, w + 2)
    y -= 1
    x -= 1
    sizes = np.diff(starts)
    chain = np.repeat(np.arange(len(sizes)), sizes)
    # A stroke is as deep as most of it: its depths sorted within each chain, the judgedAtShare-th taken.
    along_depth = depth[y, x]
    order = np.lexsort((along_depth, chain))
    judged = along_depth[order][starts[:-1] + np.floor(STROKE_TUNING["judgedAtShare"] * (sizes - 1)).astype(np.int64)]
    if face_weight is not None:
        # A face's feature counts more, as much as the stroke lies in the face.
        in_face = np.bincount(chain, weights=face_weight[y, x], minlength=len(sizes)) / sizes
        judged = (1 + (FACE_TUNING["strokeWeight"] - 1) * in_face) * judged
    points = np.column_stack((x + 0.5, y + 0.5))
    points, starts = smooth_open_lines(points, starts, STROKE_TUNING["smoothingMm"] / mm_per_px, int(STROKE_TUNING["pointStep"]))
    return {"points": points, "starts": starts, "depth": judged, "length_mm": line_lengths(points, starts) * mm_per_px}


def without_spurs(pixels, starts, crossings, longest_px):
    """strokes/index.ts isSpur, for every chain: a twig, a chain of fewer pixels than `longest_px`
    from a free end (crossings 1) to a junction (3 or more), is no stroke. Answers the other chains
    (pixels, starts)."""
    sizes = np.diff(starts)
    flat = crossings.ravel()
    first, last = flat[pixels[starts[:-1]]], flat[pixels[starts[1:] - 1]]
    spur = (sizes < longest_px) & (((first == 1) & (last >= 3)) | ((first >= 3) & (last == 1)))
    if not spur.any():
        return pixels, starts
    kept = np.repeat(~spur, sizes)
    return pixels[kept], np.concatenate(([0], np.cumsum(sizes[~spur])))


def stroke_drawn_at(strokes, level):
    """strokes/index.ts strokeDrawnAt, for every stroke: deep enough, and long enough unless twice as deep."""
    weakest, shortest = LEVEL_STROKES[level]["weakestDepth"], LEVEL_STROKES[level]["shortestMm"]
    depth = strokes["depth"]
    return (depth >= weakest) & ((strokes["length_mm"] >= shortest) | (depth >= 2 * weakest))


def near_lines(points, starts, shape, mm_per_px):
    """Which grid pixels lie within clearanceMm (a square's half side) of a region line drawn at
    the level (regions/index.ts nearDrawnArcs): the level's smoothed borders (`points`, `starts`:
    smoothed_borders') drawn one pixel wide on the grid by cv2.polylines, dilated by a square of
    2 x reach + 1."""
    lines = np.zeros(shape, np.uint8)
    if len(points):
        shift = 3
        # Ours marks the pixel a point falls in (its floor); cv2's pixel j is centred on j.
        loops = np.split(np.round((points - 0.5) * (1 << shift)).astype(np.int32), starts[1:-1])
        cv2.polylines(lines, loops, True, 1, 1, cv2.LINE_8, shift)
    reach = max(0, js_round(STROKE_TUNING["clearanceMm"] / mm_per_px))
    return cv2.dilate(lines, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1))) > 0


def stroke_pieces(strokes, level, near, mm_per_px):
    """strokes/index.ts strokePiecesAt: the level's strokes cut where a point comes near a region
    line; a piece shorter than the level's shortest stroke dropped unless it is the whole stroke.
    In numpy: per point of a drawn stroke, kept or not; pieces as runs of kept points."""
    points, starts = strokes["points"], strokes["starts"]
    sizes = np.diff(starts)
    stroke = np.repeat(np.arange(len(sizes)), sizes)
    h, w = near.shape
    column = np.clip(np.floor(points[:, 0]).astype(np.int64), 0, w - 1)
    row = np.clip(np.floor(points[:, 1]).astype(np.int64), 0, h - 1)
    kept = stroke_drawn_at(strokes, level)[stroke] & ~near[row, column]
    if not kept.any():
        return []
    along = np.arange(len(points)) - starts[stroke]
    begins = kept & ((along == 0) | ~np.concatenate(([False], kept[:-1])))
    piece = np.cumsum(begins)[kept] - 1
    piece_points = points[kept]
    piece_starts = np.concatenate(([0], np.cumsum(np.bincount(piece))))
    whole = np.diff(piece_starts) == sizes[stroke[kept][piece_starts[:-1]]]
    long_enough = line_lengths(piece_points, piece_starts) * mm_per_px >= LEVEL_STROKES[level]["shortestMm"]
    return [line for line, keep in zip(np.split(piece_points, piece_starts[1:-1]), whole | long_enough) if keep]


def draw_level(label, page_size, line_width_mm, arc_sigma, strokes=None, level=None):
    """draw.ts and regions/index.ts drawLevel: a level's borders on a white page at print size: its
    regions' borders smoothed (smoothed_borders) and scaled from the grid to the page, drawn by
    cv2.polylines as closed loops (LINE_8, 1/8 px points). A border between two regions is the loop
    of each of them: drawn twice, on the same pixels. Then, given `strokes` (find_strokes'), the
    level's feature strokes clear of those borders (stroke_pieces), as open lines of the same width
    (a piece of one point as a dot)."""
    grid_h, grid_w = label.shape
    page_w, page_h = page_size
    page = np.full((page_h, page_w), 255, np.uint8)
    points, starts = smoothed_borders(label, arc_sigma)
    shift = 3
    to_page = np.array([page_w / grid_w, page_h / grid_h]) * (1 << shift)
    thickness = max(1, round(line_width_mm * PRINT_LONG_EDGE / PRINT_LONG_EDGE_MM))
    if len(points):
        loops = np.split(np.round(points * to_page).astype(np.int32), starts[1:-1])
        cv2.polylines(page, loops, True, 0, thickness, cv2.LINE_8, shift)
    if strokes is not None and len(strokes["depth"]):
        mm_per_px = PRINT_LONG_EDGE_MM / max(grid_w, grid_h)
        pieces = stroke_pieces(strokes, level, near_lines(points, starts, label.shape, mm_per_px), mm_per_px)
        # Stroke points are pixel centres (x + 0.5 on the grid); cv2's page pixel j is centred on j.
        lines = [np.round(piece * to_page - (1 << shift) / 2).astype(np.int32) for piece in pieces]
        lines = [line if len(line) > 1 else np.repeat(line, 2, axis=0) for line in lines]
        cv2.polylines(page, lines, False, 0, thickness, cv2.LINE_8, shift)
    return page


def js_round(value):
    """Math.round, as ours rounds (Python's round takes a half to the even neighbour)."""
    return int(np.floor(value + 0.5))


def print_page_size(w, h):
    """index.ts printPageSize: the photo's aspect with its long edge at print size, whatever its size."""
    scale = PRINT_LONG_EDGE / max(w, h)
    return max(1, js_round(w * scale)), max(1, js_round(h * scale))


def analysis_grid(photo):
    """regions/index.ts finestBorders' first steps, from a decoded plane of any size: the toned
    grey on the analysis grid, the chroma there (or None), the grid's size and its noise."""
    h, w = photo.shape[:2]
    grey = photo if photo.ndim == 2 else cv2.extractChannel(photo, 0)
    lut = tone_curve(grey)
    noise = noise_of(grey)
    scale = min(1.0, ANALYSIS_LONG_EDGE / max(w, h))  # fitWithin: never up
    grid = (max(1, js_round(w * scale)), max(1, js_round(h * scale))) if scale < 1 else (w, h)
    small = cv2.resize(photo, grid, interpolation=cv2.INTER_AREA) if scale < 1 else photo
    chroma = None
    if small.ndim == 3:
        chroma = small[..., 1:]
        small = cv2.extractChannel(small, 0)
    small = cv2.LUT(small, lut)
    grid_noise = noise * grid[1] / h  # averaging n x n pixels divides the noise by n
    return small, chroma, grid, grid_noise


STAGE_CLOCK = None


def stage_done(name):
    """For --stages: the time since the last stage ended goes to `name` (the kernel's stage names,
    workers/sketch/kernel/stage-clock.ts), when a clock is set."""
    if STAGE_CLOCK is not None:
        STAGE_CLOCK(name)


def hierarchy(photo):
    """regions/index.ts buildHierarchy (with finestBorders), from a decoded plane of any size:
    grey (2-D), or YCrCb (3 channels: Y is the grey, Cr and Cb the chroma)."""
    h, w = photo.shape[:2]
    small, chroma, grid, grid_noise = analysis_grid(photo)
    stage_done("grid")
    px_per_mm = max(grid) / PRINT_LONG_EDGE_MM
    flood, saliency, strongest, smooth, magnitude, sigma = edge_maps(small, grid_noise, px_per_mm, chroma)
    stage_done("edge maps")
    faces = find_faces(small)
    face_weight = face_weights(faces, *grid)
    stage_done("faces")
    basin, basins = watershed_basins(flood)
    edge_a, edge_b, length, strength, border_magnitude, area = adjacency_of(basin, basins, saliency, flood)
    region_of, count = join_across_no_border(edge_a, edge_b, length, strength, basins)
    label = region_of[basin]
    edge_a, edge_b, length, strength, border_magnitude, area = coarser_graph(edge_a, edge_b, length, strength, border_magnitude, area, region_of, count)
    stage_done("basins")
    boundary = border_boundary(small, chroma, label, count, edge_a, edge_b, magnitude, sigma)
    stage_done("boundary model")
    # A faint photo's lightness is read in finer steps (index.ts finestBorders).
    contrast = min(1.0, strongest / (CLEAR_PHOTO_EDGE_STEPS * VISIBLE_STEP))
    histograms = region_histograms(smooth, magnitude, max(contrast, MIN_CONTRAST), chroma, label, count)
    if face_weight is not None:
        face_mass = np.bincount(label.ravel(), weights=face_weight.ravel().astype(np.float64), minlength=count)
        histograms = np.column_stack([histograms, face_mass])
    stage_done("insides")
    per_cm2 = (max(grid) / (PRINT_LONG_EDGE_MM / 10)) ** 2  # grid pixels per cm² of the page
    phases = [{
        "minArea": LEVEL_REGIONS[name]["minAreaCm2"] * per_cm2,
        "minWidth": LEVEL_REGIONS[name]["minWidthMm"] * px_per_mm,
        "mergeBelow": LEVEL_REGIONS[name]["weakestBorderKept"],
        "standOutAbove": LEVEL_REGIONS[name]["standOutBorder"],
        "standOutArea": SMALLEST_STANDING_OUT_CM2 * per_cm2,
    } for name in LEVEL_NAMES]
    kept, gone, phase_end = merge_sequence(edge_a, edge_b, length, strength, border_magnitude, boundary, area, histograms, phases, grid[0] * grid[1], chroma is not None, face_weight is not None)
    stage_done("merge")
    arc_sigma = ARC_SMOOTHING_MM * px_per_mm
    finest = partition_after(count, kept, gone, phase_end[0])[label]
    arcs = smoothed_borders(finest, arc_sigma)  # kept, as ours keeps the finest level's arcs
    stage_done("arcs")
    strokes = find_strokes(smooth, 1 / px_per_mm, max(contrast, MIN_CONTRAST), face_weight)
    stage_done("strokes")
    return {
        "label": label,
        "regions": count,
        "kept": kept,
        "gone": gone,
        "phase_end": phase_end,
        "arc_sigma": arc_sigma,
        "arcs": arcs,
        "page_size": print_page_size(w, h),
        "strokes": strokes,
        "faces": faces,
    }


def level_label(tree, level):
    """The grid labelled by the level's regions (a root each): the cut after its phase."""
    phase = LEVEL_NAMES.index(level)
    return partition_after(tree["regions"], tree["kept"], tree["gone"], tree["phase_end"][phase])[tree["label"]]


def region_counts(tree):
    return {name: len(np.unique(level_label(tree, name))) for name in LEVEL_NAMES}


def draw(tree, level):
    return draw_level(level_label(tree, level), tree["page_size"], LEVEL_REGIONS[level]["lineWidthMm"], tree["arc_sigma"], tree["strokes"], level)


def job(photo):
    """Our whole kernel from the decoded plane (grey, or YCrCb): the hierarchy, then the standard level drawn."""
    page = draw(hierarchy(photo), DRAWN_LEVEL)
    stage_done("draw")
    return page


def reduced_mode(path):
    """The largest JPEG reduction (1/2, 1/4, 1/8) whose long edge is still at least the analysis grid's, as ours
    (the regions are found on that grid; the page is drawn at print size from their borders); in colour."""
    header = cv2.imread(path, cv2.IMREAD_REDUCED_GRAYSCALE_8)
    long8 = max(header.shape) * 8
    for factor, mode in ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2)):
        if long8 / factor >= ANALYSIS_LONG_EDGE:
            return mode
    return cv2.IMREAD_COLOR


def decoded(path, mode):
    """The photo as ours hands it to the kernel: its grey (Y) and chroma (Cb, Cr), here one YCrCb image."""
    return cv2.cvtColor(cv2.imread(path, mode), cv2.COLOR_BGR2YCrCb)


def whole(path, mode):
    photo = decoded(path, mode)
    stage_done("decode")
    page = job(photo)
    # A 1-bit grey PNG, as ours: the page is black and white, and the Worker writes it at bit
    # depth 1 (workers/sketch/encode.ts). An 8-bit PNG here cost OpenCV 0.4-1.9 ms more.
    png = cv2.imencode(".png", page, [cv2.IMWRITE_PNG_BILEVEL, 1])[1]
    stage_done("encode")
    return png


def stages(path, runs):
    """The whole same job's stages (whole() above, the names of ours), each the best of `runs`
    runs after one untimed run, in ms, as JSON: for bench/stages.mjs."""
    global STAGE_CLOCK
    mode = reduced_mode(path)
    whole(path, mode)
    best = {}
    for _ in range(runs):
        last = [time.perf_counter()]

        def clock(name):
            now = time.perf_counter()
            best[name] = min(best.get(name, float("inf")), (now - last[0]) * 1000)
            last[0] = now

        STAGE_CLOCK = clock
        start = last[0]
        whole(path, mode)
        best["whole"] = min(best.get("whole", float("inf")), (time.perf_counter() - start) * 1000)
    STAGE_CLOCK = None
    print(json.dumps(best))


def best_ms(fn, repeats, *args):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def serve():
    face_cascade()  # a missing cascade stops the server before it says it is ready
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


def stroke_counts(tree):
    """Per level, the strokes deep and long enough for it (stroke_drawn_at) and the pieces of them
    drawn clear of its region lines (stroke_pieces)."""
    strokes = tree["strokes"]
    mm_per_px = PRINT_LONG_EDGE_MM / max(tree["label"].shape)
    counts = {}
    for level in LEVEL_NAMES:
        points, starts = smoothed_borders(level_label(tree, level), tree["arc_sigma"])
        near = near_lines(points, starts, tree["label"].shape, mm_per_px)
        counts[level] = {"drawn": int(stroke_drawn_at(strokes, level).sum()), "pieces": len(stroke_pieces(strokes, level, near, mm_per_px))}
    return counts


def pages(path, prefix):
    """The whole same job's hierarchy of one photo, each level's page written to PREFIX-<level>.png;
    prints the levels' region counts and stroke counts (of the strokes traced: drawn, and the
    pieces of them clear of the region lines)."""
    tree = hierarchy(decoded(path, reduced_mode(path)))
    for level in LEVEL_NAMES:
        cv2.imwrite(f"{prefix}-{level}.png", draw(tree, level))
    print(json.dumps({
        "grid": list(tree["label"].shape[::-1]),
        "faces": [[round(value, 1) for value in face] for face in tree["faces"]],
        "finest_regions": tree["regions"],
        "levels": region_counts(tree),
        "strokes_traced": len(tree["strokes"]["depth"]),
        "strokes": stroke_counts(tree),
    }))


def main():
    if sys.argv[1] == "--serve":
        serve()
        return
    if sys.argv[1] == "--pages":
        pages(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "--stages":
        stages(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 10)
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


if __name__ == "__main__":
    main()
