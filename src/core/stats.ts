// numpy-compatible statistics over plain number arrays (mean, std, percentile, median). Empty input
// gives 0, as vLLM's `np.mean(x or 0)` idiom does. In core because the benchmark client and the
// calibration fit both use them.

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Population standard deviation (numpy ddof=0). */
export function std(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return Math.sqrt(s / xs.length);
}

/** numpy.percentile with the default 'linear' method: h = (n-1)p/100, interpolate. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const frac = h - lo;
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  // numpy's _lerp: a + (b-a)*t, switched to b - (b-a)*(1-t) for t >= 0.5 for monotonicity.
  return frac >= 0.5 ? b - (b - a) * (1 - frac) : a + (b - a) * frac;
}

export function percentile(xs: readonly number[], p: number): number {
  return percentileSorted(sortedCopy(xs), p);
}

/** numpy.median: the mean of the two middle values when n is even. */
export function median(xs: readonly number[]): number {
  return medianSorted(sortedCopy(xs));
}

/** The median of values already sorted ascending (no second sort where percentiles sorted them). */
export function medianSorted(s: ArrayLike<number>): number {
  const n = s.length;
  if (n === 0) return 0;
  return n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

/** Numeric ascending sort into a typed array (fast for large ITL lists). */
export function sortedCopy(xs: readonly number[]): Float64Array {
  return Float64Array.from(xs).sort();
}
