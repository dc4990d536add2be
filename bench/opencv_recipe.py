"""The same job in OpenCV, one thread, for bench/run.mjs to compare against.

Prints JSON, best of `repeats` runs each:
  decode_ms:    libjpeg-turbo straight to grey at full size
  reference_ms: the TOOLCHAIN.md reference at the photo's full resolution, from the grey plane:
                invert -> GaussianBlur(sigma = long edge / 200) -> divide (dodge) + Sobel magnitude
  job_ms:       what our kernel does (workers/sketch/kernel/regions/index.ts), from the full grey
                plane, with the nearest OpenCV / numpy steps:
                - the tone curve's histogram and the noise estimate, on the decoded plane;
                - INTER_AREA resize to the analysis grid (long edge <= analysisLongEdge, never up),
                  the tone curve as a LUT;
                - edge maps (edge-map.ts): blur by hypot(smoothingMm x px/mm, noise x 0.15), Sobel
                  magnitude / 4 = the flood map; its surround (blur by surroundSigmaMm), saliency =
                  max(0, magnitude - surroundSuppression x surround), faded under visibleStep
                  as edge-map.ts fades it; both in quarter grey levels;
                  the blurs are ours' three stacked boxes, by cv2.blur;
                - watershed basins: the flood map's regional minima (erode, connectedComponents)
                  as markers for cv2.watershed, its lines given to a neighbouring basin;
                - the adjacency graph in numpy (np.unique, np.bincount): border length, summed
                  crest saliency, area per basin;
                - the merge tree, three phases (detailed, standard, simple), weakest border first
                  and small regions first: a Python heapq loop, the one step OpenCV has no
                  primitive for;
                - the finest level's borders traced (cv2.findContours) and smoothed, as ours keeps
                  them; the standard level's borders traced, smoothed, scaled to the page (long
                  edge 3300, whatever the photo's size) and drawn by cv2.polylines.
                The tuning (REGION_TUNING, LEVEL_REGIONS) is read from tuning.ts.
  (whole_ms and whole_cpu_ms are no longer printed here: see --serve)

`opencv_recipe.py --serve` reads lines "PATH RUNS" on stdin and answers each with one JSON line,
{"wall_ms", "cpu_ms"} (after a first line with OpenCV's version): the best of RUNS runs of the whole same job from the file (decode with
OpenCV's reduced-grey JPEG modes, IMREAD_REDUCED_GRAYSCALE_2/4/8, the largest reduction still at
least print size, as our decoder's DCT scaling does; then job; then a 1-bit grey PNG, as ours), the first
request for a path preceded by one untimed run. bench/run.mjs keeps one server for the whole run
and alternates rounds of our runs with rounds of these, so both sides are timed in the same
moments of the machine (see bench/run.mjs, sameJobRounds).
"""
import heapq
import json
import os
import re
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


def read_tuning():
    """workers/sketch/kernel/regions/tuning.ts, REGION_TUNING and LEVEL_REGIONS, read from the file
    (its numbers still move, and the mirror should follow them); these values if it cannot be read."""
    tuning = {"analysisLongEdge": 1100, "smoothingMm": 0.35, "noiseSmoothing": 0.15, "surroundSigmaMm": 2.5, "surroundSuppression": 1, "visibleStep": 12, "clearPhotoEdgeSteps": 2, "arcSmoothingPx": 2.2}
    levels = {
        "detailed": {"minAreaCm2": 0.1, "maxSaliency": 5, "lineWidthMm": 0.4},
        "standard": {"minAreaCm2": 0.25, "maxSaliency": 8, "lineWidthMm": 0.5},
        "simple": {"minAreaCm2": 1, "maxSaliency": 14, "lineWidthMm": 0.7},
    }
    number = r"(\w+)\s*:\s*(-?[\d.]+)"
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "workers", "sketch", "kernel", "regions", "tuning.ts")) as file:
            text = re.sub(r"/\*.*?\*/|//[^\n]*", "", file.read(), flags=re.S)
        block = re.search(r"REGION_TUNING\s*=\s*\{(.*?)\}", text, re.S)
        tuning.update((name, float(value)) for name, value in re.findall(number, block.group(1)))
        for level, body in re.findall(r"(detailed|standard|simple)\s*:\s*\{([^}]*)\}", text):
            levels[level].update((name, float(value)) for name, value in re.findall(number, body))
    except (OSError, AttributeError):
        pass
    return tuning, levels


TUNING, LEVEL_REGIONS = read_tuning()
ANALYSIS_LONG_EDGE = int(TUNING["analysisLongEdge"])
SMOOTHING_MM = TUNING["smoothingMm"]
NOISE_SMOOTHING = TUNING["noiseSmoothing"]
SURROUND_SIGMA_MM = TUNING["surroundSigmaMm"]
SURROUND_SUPPRESSION = TUNING["surroundSuppression"]
VISIBLE_STEP = TUNING["visibleStep"]
CLEAR_PHOTO_EDGE_STEPS = TUNING["clearPhotoEdgeSteps"]
ARC_SMOOTHING_PX = TUNING["arcSmoothingPx"]
PRINT_LONG_EDGE_MM = PRINT_LONG_EDGE / 300 * 25.4  # 279.4
# Finest first, the order the merge phases run in: (name, min area cm², max saliency, line width mm).
LEVELS = tuple((name, LEVEL_REGIONS[name]["minAreaCm2"], LEVEL_REGIONS[name]["maxSaliency"], LEVEL_REGIONS[name]["lineWidthMm"]) for name in ("detailed", "standard", "simple"))
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


def edge_maps(grey, noise, px_per_mm):
    """edge-map.ts: the flood map (Sobel magnitude, in grey levels of a step) and the saliency
    (the magnitude minus its surround), both in quarter grey levels."""
    smooth = blur(grey.astype(np.float32), np.hypot(SMOOTHING_MM * px_per_mm, noise * NOISE_SMOOTHING))
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    magnitude = cv2.magnitude(gx, gy)
    magnitude *= 0.25  # sobelSteps: a clean step of h grey levels answers h
    # sobelSteps: the border pixels copy their inner neighbour
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
    return flood, quantised(saliency), strongest


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


def adjacency_of(label, count, saliency):
    """adjacency.ts: per touching pair, the border's length in cracks and its summed strength (the
    larger saliency of the two pixels, in grey levels); pixels per region. Edges are numbered as
    ours numbers them, by where the raster scan first meets them (the right neighbour, then the one
    below): the merge breaks ties by that order (merge_sequence)."""
    h, w = label.shape
    # Per pixel, its right neighbour's label and then the one below (itself at the edges: no crack).
    other = np.empty((h, w, 2), np.int32)
    other[:, :-1, 0] = label[:, 1:]
    other[:, -1, 0] = label[:, -1]
    other[:-1, :, 1] = label[1:]
    other[-1, :, 1] = label[-1]
    crest = np.empty((h, w, 2), np.uint16)
    crest[:, :-1, 0] = np.maximum(saliency[:, :-1], saliency[:, 1:])
    crest[:-1, :, 1] = np.maximum(saliency[:-1], saliency[1:])
    crest[:, -1, 0] = 0
    crest[-1, :, 1] = 0
    a = np.repeat(label.ravel(), 2)
    b = other.ravel()
    crack = np.flatnonzero(a != b)
    a, b = a[crack], b[crack]
    key = np.minimum(a, b).astype(np.int64) * count + np.maximum(a, b)
    pairs, first, edge = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first)  # edges in the order the scan meets them
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    edge = rank[edge]
    pairs = pairs[order]
    length = np.bincount(edge).astype(np.float64)
    strength = np.bincount(edge, weights=crest.ravel()[crack]) / STEPS_PER_GREY_LEVEL
    area = np.bincount(label.ravel(), minlength=count).astype(np.float64)
    return pairs // count, pairs % count, length, strength, area


def merge_sequence(edge_a, edge_b, length, strength, area, count, phases):
    """merge-tree.ts: the weakest border (mean strength) merged first, a phase per level from the
    finest; in a phase, a region under its smallest area merges whatever its border, and the phase
    ends at the first border as strong as its saliency. Adjacency dicts, merged small into large,
    and a heapq with lazy deletion: an entry is live while it is its edge's current one (None once
    the edge is merged away). An entry is one int, which heapq compares about 4x faster than a
    tuple: from the top, 1 bit "no small region on this border" (small ones go first, as
    merge-tree.ts SMALL_REGION_KEY), the mean strength in 2^-21 grey levels, then the order of the push, which
    names the edge (through edge_of) and breaks ties first in, first out, as ours nearly does (a
    new entry sinks below its equals). The tie order matters: most borders of a flat sky or wall
    tie at 0, and taken by edge number instead one region snowballs through them, leaving a third
    fewer regions. Answers the merges (kept, gone) and how many were done when each phase ended."""
    edges = len(edge_a)
    length_in, strength_in, area_in = length, strength, area
    ends_a = edge_a.tolist()  # an edge's two regions, always the current ones
    ends_b = edge_b.tolist()
    length = length.tolist()
    strength = strength.tolist()
    area = area.tolist()
    neighbours = [{} for _ in range(count)]  # region -> {neighbouring region: edge}
    for e, a, b in zip(range(edges), ends_a, ends_b):
        neighbours[a][b] = e
        neighbours[b][a] = e
    current = [None] * edges
    kept, gone_ = [], []
    phase_end = []
    push, pop = heapq.heappush, heapq.heappop
    steps, order_bits, order_mask, big = KEY_STEPS, ORDER_BITS, ORDER_MASK, BIG  # locals: faster in the loop
    for phase, (min_area, max_saliency) in enumerate(phases):
        # The phase's entries, all at once.
        if phase == 0:
            live = np.arange(edges)
            mean = strength_in / length_in
            small = np.minimum(area_in[edge_a], area_in[edge_b]) < min_area
        else:  # the few edges left
            live = np.array([e for e in range(edges) if current[e] is not None], np.int64)
            mean = np.array([strength[e] / length[e] for e in live.tolist()])
            small = np.array([min(area[ends_a[e]], area[ends_b[e]]) < min_area for e in live.tolist()], bool)
        edge_of = live.tolist()  # the edge of each push
        remember = edge_of.append
        heap = (np.where(small, 0, BIG) | ((mean * KEY_STEPS + 0.5).astype(np.int64) << ORDER_BITS) | np.arange(len(live))).tolist()
        for e, entry in zip(edge_of, heap):
            current[e] = entry
        heapq.heapify(heap)
        pushes = len(heap)
        stop = BIG | (int(max_saliency * KEY_STEPS) << ORDER_BITS)
        while heap:
            entry = pop(heap)
            e = edge_of[entry & order_mask]
            if current[e] != entry:
                continue  # stale: the edge is gone or has a newer entry
            if entry >= stop:
                break
            keep, gone = ends_a[e], ends_b[e]
            mine, theirs_all = neighbours[keep], neighbours[gone]
            if len(mine) < len(theirs_all):
                keep, gone, mine, theirs_all = gone, keep, theirs_all, mine
            kept.append(keep)
            gone_.append(gone)
            current[e] = None
            was_small = area[keep] < min_area
            area[keep] += area[gone]
            small = area[keep] < min_area
            del mine[gone]
            # gone's borders: combined with keep's border to the same neighbour, or moved to keep;
            # either way a new entry (at the back of its equals, as ours).
            for other, f in theirs_all.items():
                if f == e:
                    continue
                theirs = neighbours[other]
                del theirs[gone]
                parallel = mine.get(other)
                if parallel is not None:
                    length[parallel] += length[f]
                    strength[parallel] += strength[f]
                    current[f] = None
                    f = parallel
                else:
                    mine[other] = f
                    theirs[keep] = f
                    if ends_a[f] == gone:
                        ends_a[f] = keep
                    else:
                        ends_b[f] = keep
                entry = (int(strength[f] / length[f] * steps + 0.5) << order_bits) | pushes
                if not small and area[other] >= min_area:
                    entry |= big
                pushes += 1
                remember(f)
                current[f] = entry
                push(heap, entry)
            neighbours[gone] = None
            if was_small and not small:
                # keep stopped being small: all its borders, in new entries
                for other, f in mine.items():
                    entry = (int(strength[f] / length[f] * steps + 0.5) << order_bits) | pushes
                    if area[other] >= min_area:
                        entry |= big
                    pushes += 1
                    remember(f)
                    current[f] = entry
                    push(heap, entry)
        phase_end.append(len(kept))
    return np.array(kept, np.int64), np.array(gone_, np.int64), phase_end


ORDER_BITS = 28  # pushes in a phase: a few times the edges
ORDER_MASK = (1 << ORDER_BITS) - 1
BIG = 1 << (29 + ORDER_BITS)  # a mean strength is under 256 grey levels: under 2^29 steps; entries stay under 2^58
KEY_STEPS = 1 << 21  # a heap entry's mean strength, in steps per grey level


def partition_after(count, kept, gone, merges):
    """index.ts partitionAfter: the region (a root basin) of each basin after the first `merges`
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


def smoothed_borders(label):
    """arcs.ts traceArcs + smoothArcs: a partition's borders (the grid pixels whose right or bottom
    neighbour is in another region) traced by cv2.findContours, each a closed loop, and smoothed
    along their length by a Gaussian of ARC_SMOOTHING_PX points wrapping round each loop (all loops
    at once: a gather per tap). Answers the points (x, y: the corner after the pixel, in grid px)
    and where each loop starts."""
    contours, _ = cv2.findContours(border_mask(label), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return np.zeros((0, 2)), np.zeros(1, np.int64)
    sizes = np.fromiter((len(c) for c in contours), np.int64, len(contours))
    starts = np.concatenate(([0], np.cumsum(sizes)))
    pixels = np.concatenate(contours).reshape(-1, 2)
    loop_start = np.repeat(starts[:-1], sizes)
    loop_size = np.repeat(sizes, sizes)
    along = np.arange(len(pixels)) - loop_start
    radius = int(np.ceil(2.5 * ARC_SMOOTHING_PX))
    weights = np.exp(-np.arange(-radius, radius + 1) ** 2 / (2 * ARC_SMOOTHING_PX**2))
    smooth = np.zeros(pixels.shape)
    for k, weight in zip(range(-radius, radius + 1), weights / weights.sum()):
        smooth += weight * pixels[loop_start + (along + k) % loop_size]
    return smooth + 1, starts


def draw_level(label, page_size, line_width_mm):
    """draw.ts: a level's borders on a white page at print size: its regions' borders smoothed
    (smoothed_borders) and scaled from the grid to the page, drawn by cv2.polylines as closed
    loops (LINE_8, 1/8 px points). A border between two regions is the loop of each of them: drawn
    twice, on the same pixels."""
    grid_h, grid_w = label.shape
    page_w, page_h = page_size
    page = np.full((page_h, page_w), 255, np.uint8)
    points, starts = smoothed_borders(label)
    if len(points) == 0:
        return page
    shift = 3
    points = np.round(points * np.array([page_w / grid_w, page_h / grid_h]) * (1 << shift)).astype(np.int32)
    loops = np.split(points, starts[1:-1])
    thickness = max(1, round(line_width_mm * PRINT_LONG_EDGE / PRINT_LONG_EDGE_MM))
    cv2.polylines(page, loops, True, 0, thickness, cv2.LINE_8, shift)
    return page


def print_page_size(w, h):
    """index.ts printPageSize: the photo's aspect with its long edge at print size, whatever its size."""
    scale = PRINT_LONG_EDGE / max(w, h)
    return max(1, round(w * scale)), max(1, round(h * scale))


def hierarchy(grey):
    """regions/index.ts buildHierarchy, from a decoded grey plane of any size."""
    h, w = grey.shape
    lut = tone_curve(grey)
    noise = noise_of(grey)
    scale = min(1.0, ANALYSIS_LONG_EDGE / max(w, h))  # fitWithin: never up
    grid = (max(1, round(w * scale)), max(1, round(h * scale))) if scale < 1 else (w, h)
    small = cv2.resize(grey, grid, interpolation=cv2.INTER_AREA) if scale < 1 else grey
    small = cv2.LUT(small, lut)
    grid_noise = noise * grid[1] / h  # averaging n x n pixels divides the noise by n
    px_per_mm = max(grid) / PRINT_LONG_EDGE_MM
    flood, saliency, strongest = edge_maps(small, grid_noise, px_per_mm)
    contrast = min(1.0, strongest / (CLEAR_PHOTO_EDGE_STEPS * VISIBLE_STEP))
    basin, count = watershed_basins(flood)
    edge_a, edge_b, length, strength, area = adjacency_of(basin, count, saliency)
    per_cm2 = (max(grid) / (PRINT_LONG_EDGE_MM / 10)) ** 2  # grid pixels per cm² of the page
    phases = [(min_area * per_cm2, max_saliency * contrast) for _, min_area, max_saliency, _ in LEVELS]
    kept, gone, phase_end = merge_sequence(edge_a, edge_b, length, strength, area, count, phases)
    finest = partition_after(count, kept, gone, phase_end[0])[basin]
    return {
        "basin": basin,
        "basins": count,
        "kept": kept,
        "gone": gone,
        "phase_end": phase_end,
        "arcs": smoothed_borders(finest),  # kept, as ours keeps the finest level's arcs
        "page_size": print_page_size(w, h),
    }


def level_label(tree, level):
    """The grid labelled by the level's regions (a root basin each): the cut after its phase."""
    phase = [name for name, *_ in LEVELS].index(level)
    return partition_after(tree["basins"], tree["kept"], tree["gone"], tree["phase_end"][phase])[tree["basin"]]


def region_counts(tree):
    return {name: len(np.unique(level_label(tree, name))) for name, *_ in LEVELS}


def job(grey):
    """Our whole kernel from the decoded grey plane: the hierarchy, then the standard level drawn."""
    tree = hierarchy(grey)
    line_width_mm = next(width for name, _, _, width in LEVELS if name == DRAWN_LEVEL)
    return draw_level(level_label(tree, DRAWN_LEVEL), tree["page_size"], line_width_mm)


def reduced_mode(path):
    """The largest JPEG reduction (1/2, 1/4, 1/8) whose long edge is still at least the analysis grid's, as ours
    (the regions are found on that grid; the page is drawn at print size from their borders)."""
    header = cv2.imread(path, cv2.IMREAD_REDUCED_GRAYSCALE_8)
    long8 = max(header.shape) * 8
    for factor, mode in ((8, cv2.IMREAD_REDUCED_GRAYSCALE_8), (4, cv2.IMREAD_REDUCED_GRAYSCALE_4), (2, cv2.IMREAD_REDUCED_GRAYSCALE_2)):
        if long8 / factor >= ANALYSIS_LONG_EDGE:
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


if __name__ == "__main__":
    main()
