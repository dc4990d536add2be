/**
 * Summed-area tables (integral images, Crow 1984): the sum of a plane, and of its squares, over
 * any rectangle in four lookups. A table is (width + 1) × (height + 1), its first row and column
 * zero, so entry (x, y) is the sum over the plane's columns 0..x-1 and rows 0..y-1. The face
 * detector reads its windows from them, the boundary model its squares' means and spreads.
 */

/**
 * The summed-area table of `data` (width × height) into `sums`, and of its squares into `squares`
 * if given; both at least (width + 1) × (height + 1), reusable (every entry read is written).
 * Int32 sums are exact for a byte plane up to 8 MP; a float plane wants Float64 ones.
 */
export function integrate({ data, width, height }: { data: ArrayLike<number>; width: number; height: number }, sums: Int32Array | Float64Array, squares?: Float64Array): void {
  const stride = width + 1;
  sums.fill(0, 0, stride);
  squares?.fill(0, 0, stride);
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    let rowSquares = 0;
    const above = y * stride;
    const here = above + stride;
    sums[here] = 0;
    if (squares) squares[here] = 0;
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x];
      rowSum += v;
      sums[here + x + 1] = sums[above + x + 1] + rowSum;
      if (squares) {
        rowSquares += v * v;
        squares[here + x + 1] = squares[above + x + 1] + rowSquares;
      }
    }
  }
}

/**
 * The mean over columns x0..x1-1 and rows y0..y1-1 of the plane (width × height) whose table is
 * `sums`, the rectangle clipped to the plane; NaN if nothing of it is left.
 */
export function rectangleMean(sums: ArrayLike<number>, width: number, height: number, x0: number, y0: number, x1: number, y1: number): number {
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > width) x1 = width;
  if (y1 > height) y1 = height;
  if (x1 <= x0 || y1 <= y0) return NaN;
  const stride = width + 1;
  return (sums[y1 * stride + x1] - sums[y0 * stride + x1] - sums[y1 * stride + x0] + sums[y0 * stride + x0]) / ((x1 - x0) * (y1 - y0));
}
