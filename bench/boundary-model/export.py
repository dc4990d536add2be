"""Writes a fitted boundary model (train.py's model.pkl) as the JSON the kernel reads
(workers/sketch/kernel/boundary/forest.ts ForestJson): per tree, per node its feature, threshold,
children (-1 at a leaf) and value (leaves); the baseline log-odds.

    python3 bench/boundary-model/export.py OUT/model.pkl workers/sketch/kernel/boundary/model.json
"""
import json
import pickle
import sys

import numpy as np

model = pickle.load(open(sys.argv[1], "rb"))
trees = []
for (predictor,) in model._predictors:
    nodes = predictor.nodes
    leaf = nodes["is_leaf"].astype(bool)
    trees.append({
        "feature": [0 if is_leaf else int(f) for f, is_leaf in zip(nodes["feature_idx"], leaf)],
        # float32, as the kernel compares: a value on the threshold goes left in both
        "threshold": [0.0 if is_leaf else float(np.float32(t)) for t, is_leaf in zip(nodes["num_threshold"], leaf)],
        "left": [-1 if is_leaf else int(a) for a, is_leaf in zip(nodes["left"], leaf)],
        "right": [-1 if is_leaf else int(b) for b, is_leaf in zip(nodes["right"], leaf)],
        "value": [round(float(v), 6) if is_leaf else 0.0 for v, is_leaf in zip(nodes["value"], leaf)],
    })
json.dump({"baseline": float(np.ravel(model._baseline_prediction)[0]), "trees": trees}, open(sys.argv[2], "w"), separators=(",", ":"))
print(f"{len(trees)} trees, {sum(len(tree['feature']) for tree in trees)} nodes: {sys.argv[2]}")
