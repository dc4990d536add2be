/**
 * Boosted decision trees as flat typed arrays (the per-pixel boundary model's, fitted offline by
 * scikit-learn's HistGradientBoostingClassifier and written out as JSON): a pixel's chance is the
 * logistic of the baseline plus one leaf's value per tree.
 *
 * Each tree is laid out complete to the forest's deepest leaf, in heap order (node k's children at
 * 2k + 1 and 2k + 2): a leaf that ends higher up is carried down by splits no value passes (an
 * infinite threshold) to copies of itself. Every walk is then the same number of steps with no
 * test for a leaf, and the next node is arithmetic on the comparison, not a branch the processor
 * must guess (docs/decisions/035-boundary-model.md).
 */
export interface ForestJson {
  baseline: number;
  trees: { feature: number[]; threshold: number[]; left: number[]; right: number[]; value: number[] }[];
}

export interface Forest {
  baseline: number;
  /** The steps from a root to a leaf (every tree's). */
  depth: number;
  /** Per tree, its 2^depth - 1 splits in heap order: the feature read and its threshold (right if the value is above it). */
  feature: Uint8Array;
  threshold: Float32Array;
  /** Per tree, its 2^depth leaves' values, left to right. */
  leaf: Float32Array;
  trees: number;
}

export function forestFromJson(json: ForestJson): Forest {
  const depthOf = (tree: ForestJson["trees"][number], node: number): number =>
    tree.left[node] < 0 ? 0 : 1 + Math.max(depthOf(tree, tree.left[node]), depthOf(tree, tree.right[node]));
  const depth = Math.max(...json.trees.map((tree) => depthOf(tree, 0)));
  const splits = 2 ** depth - 1;
  const leaves = 2 ** depth;
  const trees = json.trees.length;
  const forest: Forest = {
    baseline: json.baseline,
    depth,
    feature: new Uint8Array(trees * splits),
    threshold: new Float32Array(trees * splits).fill(Infinity),
    leaf: new Float32Array(trees * leaves),
    trees,
  };
  json.trees.forEach((tree, t) => {
    // Place `node` of the JSON tree at heap position `at`; a leaf fills every leaf slot below it.
    const place = (node: number, at: number, level: number) => {
      if (tree.left[node] >= 0) {
        forest.feature[t * splits + at] = tree.feature[node];
        forest.threshold[t * splits + at] = tree.threshold[node];
        place(tree.left[node], 2 * at + 1, level + 1);
        place(tree.right[node], 2 * at + 2, level + 1);
        return;
      }
      // Heap position `at` at `level`: its leaf slots below are a run of 2^(depth - level).
      const first = (at - (2 ** level - 1)) * 2 ** (depth - level);
      forest.leaf.fill(tree.value[node], t * leaves + first, t * leaves + first + 2 ** (depth - level));
    };
    place(0, 0, 0);
  });
  return forest;
}

/**
 * Each pixel's chance (0..1) from its feature planes; only the pixels `wanted` marks (all if none).
 * A pixel's features are first laid side by side, so its walk down every tree reads one short run.
 */
export function evaluateForest(forest: Forest, planes: Float32Array[], count: number, wanted?: Uint8Array): Float32Array {
  const { feature, threshold, leaf, depth, trees } = forest;
  const splits = 2 ** depth - 1;
  const leaves = 2 ** depth;
  const stride = planes.length;
  const out = new Float32Array(count);
  const row = new Float32Array(stride);
  for (let i = 0; i < count; i++) {
    if (wanted && wanted[i] === 0) continue;
    for (let f = 0; f < stride; f++) row[f] = planes[f][i];
    let sum = forest.baseline;
    for (let t = 0, base = 0, leafBase = 0; t < trees; t++, base += splits, leafBase += leaves) {
      let node = 0;
      for (let step = 0; step < depth; step++) {
        const k = base + node;
        node = 2 * node + 1 + (row[feature[k]] > threshold[k] ? 1 : 0);
      }
      sum += leaf[leafBase + node - splits];
    }
    out[i] = 1 / (1 + Math.exp(-sum));
  }
  return out;
}
