// The noise rule: a difference between two measurements on this host counts only when it exceeds
// both the user's --margin and the run-to-run noise servelab measured here. One owner: every
// decision (stages, budget, validation, replay, capacity) asks this file; it sits in the core so
// that capacity, below the tuner, judges by the same rule.
//
// How the noise is measured: every variant run more than once in the session (the first stage's
// confirmation of its best two, every later confirmation and repeat) is a group of runs of one
// server on one workload. Their relative deviations from their group's mean are pooled (one
// variance for the host, with sum(n - 1) degrees of freedom), so each new repeat sharpens it.
// The noise shown is the 95% Student-t half-width of one run (t(df) x pooled sd). A candidate's
// interval is its mean +- t(df) x sd / sqrt(n); two candidates cannot be told apart while their
// intervals overlap, that is while their gap is within noise x (1/sqrt(na) + 1/sqrt(nb)).
// Overlapping 95% intervals is a stricter test than a two-sample t test at 95% (about 99% for equal
// runs): a tuner that names a winner by noise costs more than one that says "tied".

/** The run-to-run noise of the objective measured on this host. */
export interface NoiseEstimate {
  /** 95% half-width of one run, % of the objective. */
  pct: number;
  runs: number;
  /** What it was measured from: "3 runs of the defaults". */
  source: string;
  sdPct?: number;
  df?: number;
}

/** A candidate's mean objective over its runs and the half-width the noise gives it. */
export interface RunInterval {
  mean: number;
  /** % of the mean; absent while the noise is unknown. */
  halfPct?: number;
  runs: number;
}

// Student-t two-sided 95% quantiles t(0.975, df) for df 1..30 (any statistics table).
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** t(0.975, df); beyond the table, the normal's 1.96 plus the usual 2.4/df correction. */
export function tQuantile(df: number): number {
  if (df < 1) return Infinity;
  return df <= T975.length ? T975[Math.floor(df) - 1]! : 1.96 + 2.4 / df;
}

/** One server's runs on the tuning workload: the objective of each successful run. */
export interface RunGroup {
  label: string;
  values: readonly number[];
}

/**
 * What this host showed in earlier sessions of the same kind (tune/stage/noise-prior.ts keeps it):
 * their pooled sd of one run and its degrees of freedom.
 */
export interface NoisePrior {
  sdPct: number;
  df: number;
  sessions: number;
}

/**
 * The most a prior weighs in the pool, in degrees of freedom: enough that a session whose first
 * few repeats agree by chance (3 df at ±1.3% where the host's sessions spread ±6-22%) cannot
 * narrow the margin below what this host has shown, few enough that a dozen runs of the session's
 * own outweigh it when the host has changed.
 */
export const PRIOR_DF_MAX = 6;

/**
 * The fewest degrees of freedom a noise is decided on while runs can still be bought: below it the
 * t quantile alone (12.7 at 1 df, 4.3 at 2) makes every candidate tie, and a stage would fall back
 * on its tie-break for want of runs rather than for want of a difference (a first session on a
 * 2-core host read ±46% from 2 df). At 4, t is 2.78.
 */
export const MIN_NOISE_DF = 4;

/**
 * The pooled noise of these groups (those with two runs or more), with the host's prior when one
 * is given; undefined while none ran twice and there is no prior.
 */
export function pooledNoise(groups: readonly RunGroup[], prior?: NoisePrior): NoiseEstimate | undefined {
  let ss = 0;
  let df = 0;
  let runs = 0;
  const used: { label: string; n: number }[] = [];
  for (const g of groups) {
    const vs = g.values.filter((v) => Number.isFinite(v) && v > 0);
    if (vs.length < 2) continue;
    const m = vs.reduce((a, b) => a + b, 0) / vs.length;
    for (const v of vs) ss += (v / m - 1) ** 2;
    df += vs.length - 1;
    runs += vs.length;
    used.push({ label: g.label, n: vs.length });
  }
  const priorDf = prior && prior.df > 0 ? Math.min(prior.df, PRIOR_DF_MAX) : 0;
  if (df === 0 && priorDf === 0) return undefined;
  const own = df > 0 ? sourceText(used, runs) : '';
  const priorText = priorDf ? `this host's last ${prior!.sessions === 1 ? 'session' : `${prior!.sessions} sessions`}` : '';
  ss += priorDf * (prior?.sdPct ?? 0) ** 2 * 1e-4;
  df += priorDf;
  const sd = Math.sqrt(ss / df);
  const pct = tQuantile(df) * sd * 100;
  return { pct, runs, source: [own, priorText].filter(Boolean).join(' + '), sdPct: sd * 100, df };
}

function sourceText(used: readonly { label: string; n: number }[], runs: number): string {
  if (used.length === 1) return `${runs} runs of ${used[0]!.label}`;
  if (used.length === 2) return `${runs} runs of ${used[0]!.label} and ${used[1]!.label}`;
  return `${runs} runs of ${used.length} variants`;
}

/** The noise in one phrase: "±6.1% (3 runs of the defaults)". */
export function noiseText(noise: NoiseEstimate): string {
  return `±${noise.pct.toFixed(1)}% (${noise.source})`;
}

/**
 * The margin a decision uses: the larger of --margin and the measured noise. Given the runs behind
 * the two figures compared, the noise is the sum of their intervals' half-widths (they overlap
 * while the gap is within it); without, the noise of one run.
 */
export function effectiveMarginPct(marginPct: number, noise: NoiseEstimate | undefined, na?: number, nb?: number): number {
  if (!noise) return marginPct;
  const scale = na !== undefined && nb !== undefined ? 1 / Math.sqrt(Math.max(1, na)) + 1 / Math.sqrt(Math.max(1, nb)) : 1;
  return Math.max(marginPct, noise.pct * scale);
}

export function runInterval(values: readonly number[], noise: NoiseEstimate | undefined): RunInterval {
  const m = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return { mean: m, runs: values.length, ...(noise ? { halfPct: noise.pct / Math.sqrt(Math.max(1, values.length)) } : {}) };
}

/** The gap between the best and another, % of the best (positive when the other is lower). */
export function gapPct(best: number, other: number): number {
  return best > 0 ? ((best - other) / best) * 100 : 0;
}
