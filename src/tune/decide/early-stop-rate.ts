// The rate side of the early-stop rule (early-stop.ts): how fast a running benchmark finishes
// requests, window by window, from its live snapshots. Pure.
//
// A window is the shortest stretch of the run, ending at a snapshot, in which at least
// WINDOW_FRACTION of the run's requests finished (counts are exact: snapshots carry cumulative
// finished counts). Short windows make the peak noisier, hence higher: that errs towards not
// stopping. The peak is the fastest window so far; "rising" says the latest window is faster than
// every earlier one (the rate has not levelled off yet, so the peak says nothing about the rest).

export const WINDOW_FRACTION = 0.1;

export interface RatePoint {
  elapsedS: number;
  /** Requests finished (completed + failed) by then. */
  finished: number;
}

export interface PeakRate {
  /** Fastest window so far, requests/s. */
  peak: number;
  /** The latest window's rate, requests/s. */
  latest: number;
  /** The latest window is faster than every earlier one. */
  rising: boolean;
}

/** Window rates of a run's points (in time order), or null before the first full window. */
export function peakRequestRate(points: readonly RatePoint[], total: number, fraction = WINDOW_FRACTION): PeakRate | null {
  const width = Math.max(1, Math.ceil(fraction * total));
  const rates: number[] = [];
  let i = 0;
  for (let j = 1; j < points.length; j++) {
    const end = points[j]!;
    // The latest start that still leaves `width` requests in the window (finished never decreases).
    while (i + 1 < j && end.finished - points[i + 1]!.finished >= width) i++;
    const start = points[i]!;
    const dt = end.elapsedS - start.elapsedS;
    if (end.finished - start.finished >= width && dt > 0) rates.push((end.finished - start.finished) / dt);
  }
  if (!rates.length) return null;
  const latest = rates[rates.length - 1]!;
  const before = rates.slice(0, -1);
  // (A relative 1e-9 keeps float rounding of equal rates from reading as a rise.)
  return { peak: Math.max(...rates), latest, rising: before.length === 0 || latest > Math.max(...before) * (1 + 1e-9) };
}
