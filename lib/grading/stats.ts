/**
 * The statistics PaperBench's leaderboard takes from numpy (`paperbench/metrics.py`:
 * `np.mean(scores)`, `np.std(scores, ddof=1) / np.sqrt(len(scores))`), in numpy's own summation
 * order (pairwise summation, blocks of 8), so the figures match numpy's to the last bit.
 * Pure; no Node built-ins.
 */

/** numpy's `pairwise_sum` of float64 (`np.add.reduce` on a contiguous array). */
function pairwiseSum(a: ArrayLike<number>, start: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i];
    return res;
  }
  if (n <= 128) {
    const r = [
      a[start],
      a[start + 1],
      a[start + 2],
      a[start + 3],
      a[start + 4],
      a[start + 5],
      a[start + 6],
      a[start + 7],
    ];
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j] += a[start + i + j];
    }
    let res = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) res += a[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, start, n2) + pairwiseSum(a, start + n2, n - n2);
}

/** `np.sum` of float64 values (the reduction starts from 0, as numpy's add identity). */
export function numpySum(values: ArrayLike<number>): number {
  return 0 + pairwiseSum(values, 0, values.length);
}

/** `np.mean`; NaN for no values (numpy warns and returns nan). */
export function numpyMean(values: ArrayLike<number>): number {
  return numpySum(values) / values.length;
}

/** `np.std(values, ddof)`; NaN when there are not more than `ddof` values. */
export function numpyStd(values: ArrayLike<number>, ddof = 0): number {
  const n = values.length;
  const mean = numpyMean(values);
  const squares = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = values[i] - mean;
    squares[i] = d * d;
  }
  const dof = Math.max(n - ddof, 0);
  return Math.sqrt(numpySum(squares) / dof);
}

/**
 * The standard error of the mean as PaperBench reports it: sample standard deviation (ddof 1)
 * over √n; `null` for fewer than two values (numpy would give nan).
 */
export function standardError(values: ArrayLike<number>): number | null {
  if (values.length < 2) return null;
  return numpyStd(values, 1) / Math.sqrt(values.length);
}
