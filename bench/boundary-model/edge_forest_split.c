/* The two loops of edge_forest.py that numpy cannot do at the speed a fit of a million patches
 * needs (decision 035, "a structured edge forest with its own splits"): features quantised to
 * 256 bins, and a node's best split by Gini impurity over every feature and bin at once.
 * Built by edge_forest.py itself (cc -O3 -shared); a measuring tool, never shipped. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* out[i, f] = how many of feature f's 255 ascending edges are <= X[i, f]: bin b holds the values
 * in [edges[b - 1], edges[b]), so "bin <= t" is "value < edges[t]". */
void quantise(const float *X, int64_t n, int64_t F, const float *edges, uint8_t *out) {
  for (int64_t i = 0; i < n; i++) {
    const float *row = X + i * F;
    uint8_t *coded = out + i * F;
    for (int64_t f = 0; f < F; f++) {
      const float *e = edges + f * 255;
      float v = row[f];
      int low = 0, high = 255; /* the first edge > v, by bisection */
      while (low < high) {
        int middle = (low + high) >> 1;
        if (e[middle] <= v) low = middle + 1; else high = middle;
      }
      coded[f] = (uint8_t)low;
    }
  }
}

/* The split "bin <= t" of feature f that most lowers the Gini impurity of the node's two classes,
 * each side keeping at least min_child samples. X is the tree's own N x F bins (row-major), rows the
 * node's samples, cls their class (0 or 1). Returns 0 if no split lowers it, -1 out of memory. */
int best_split(const uint8_t *X, int64_t F, const int32_t *rows, int64_t n, const uint8_t *cls,
               int64_t min_child, int32_t *out_feature, int32_t *out_bin) {
  /* counts[f][b][0] samples in bin b, counts[f][b][1] those of class 1 */
  int32_t *counts = calloc((size_t)F * 512, sizeof(int32_t));
  if (!counts) return -1;
  int64_t ones = 0;
  for (int64_t i = 0; i < n; i++) {
    const uint8_t *row = X + (int64_t)rows[i] * F;
    int32_t c = cls[i];
    ones += c;
    int32_t *at = counts;
    for (int64_t f = 0; f < F; f++, at += 512) {
      int32_t *bin = at + 2 * row[f];
      bin[0] += 1;
      bin[1] += c;
    }
  }
  double zeros = (double)(n - ones);
  double parent = (zeros * zeros + (double)ones * ones) / (double)n;
  double best = parent + 1e-9;
  int found = 0;
  for (int64_t f = 0; f < F; f++) {
    const int32_t *at = counts + f * 512;
    int64_t left = 0, left_ones = 0;
    for (int b = 0; b < 255; b++) {
      left += at[2 * b];
      left_ones += at[2 * b + 1];
      int64_t right = n - left;
      if (left < min_child) continue;
      if (right < min_child) break;
      double l0 = (double)(left - left_ones), l1 = (double)left_ones;
      double r1 = (double)(ones - left_ones), r0 = (double)right - r1;
      /* n x (1 - Gini) summed over the two sides: larger is purer */
      double purity = (l0 * l0 + l1 * l1) / (double)left + (r0 * r0 + r1 * r1) / (double)right;
      if (purity > best) {
        best = purity;
        *out_feature = (int32_t)f;
        *out_bin = b;
        found = 1;
      }
    }
  }
  free(counts);
  return found;
}
