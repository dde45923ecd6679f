// The budget's rules, pure: which variants are not launched, what screening keeps, and
// what a stage or a variant is expected to gain per GPU-hour. The stage code that applies them is
// src/tune/stage/budget-stage.ts; docs/budget.md states them for users.
//
// - Skip: a variant whose calibrated upper bound (prediction x (1 + band)) stays below the leader
//   (the best result measured in full so far) by more than the margin is not launched.
// - Screening (successive halving, one rung, eta = 3): every candidate left runs a short run of
//   the same workload (ceil(n / 3) of its prompts, at least 8). The top ceil(n / 3) by short-run
//   throughput, and any within the noise of the best short run, go on to the full run; a kept one
//   whose short run, scaled by this session's measured full/short ratio, stays below the leader
//   by more than the margin plus the noise is dropped too. Screening runs only where its projected
//   cost (n short runs + ceil(n / 3) full ones) is below n full runs: start-up is paid twice.
// - Order: candidates by expected gain per GPU-hour, the expected improvement over the leader
//   E[max(0, X - leader)] with X normal around the calibrated prediction, its band as 1 s.d.
import { signedPct } from '../../core/format.js';

/** Successive halving's reduction factor: a third of the screened go on. */
export const ETA = 3;
/** The fewest prompts a short run sends (fewer measure the ramp more than the rate). */
export const MIN_SCREEN_PROMPTS = 8;

/** A prediction as the rule reads it: tok/s, 1 s.d. band in %, and the measured variants behind it. */
export interface BudgetPrediction {
  value: number;
  bandPct: number;
  /** Variants of this host the calibration was fitted on (0: the prior model). */
  observations: number;
}

/** Why the variant is not launched, or null when its upper bound can still reach the leader. */
export function notLaunchedWhy(p: BudgetPrediction, leader: number, marginPct: number): string | null {
  if (!(leader > 0) || !(p.value > 0)) return null;
  const upper = p.value * (1 + p.bandPct / 100);
  if (upper >= leader * (1 - marginPct / 100)) return null;
  const on = p.observations
    ? `calibrated on ${p.observations} variant(s) of this host`
    : 'prior model, no variant of this host measured yet';
  return `not launched: predicted ${signedPct((p.value / leader - 1) * 100, 0)} +-${Math.round(p.bandPct)}%, ${on}; its upper bound is ${signedPct((upper / leader - 1) * 100, 0)} against the leader, beyond the ${marginPct}% margin`;
}

/** Standard normal cdf (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(z) / Math.SQRT2));
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Expected improvement over `leader`, % of it: E[max(0, X - leader)] / leader, X ~ N(value, value x band). */
export function expectedGainPct(p: Pick<BudgetPrediction, 'value' | 'bandPct'>, leader: number): number {
  if (!(leader > 0) || !(p.value > 0)) return 0;
  const sd = (p.value * Math.max(p.bandPct, 0.1)) / 100;
  const z = (p.value - leader) / sd;
  const pdf = Math.exp(-(z * z) / 2) / Math.sqrt(2 * Math.PI);
  return (((p.value - leader) * normalCdf(z) + sd * pdf) / leader) * 100;
}

/** Prompts of a short run: ceil(n / eta), at least MIN_SCREEN_PROMPTS, never more than n. */
export function screenPrompts(numPrompts: number, eta = ETA): number {
  return Math.min(numPrompts, Math.max(MIN_SCREEN_PROMPTS, Math.ceil(numPrompts / eta)));
}

/** How many screening keeps on rank alone. */
export const keptOnRank = (n: number, eta = ETA) => Math.ceil(n / eta);

/**
 * Does screening pay for `n` candidates? n short runs (start-up + a 1/eta bench) and ceil(n/eta)
 * full ones must cost less than n full runs. Costs in any one unit (seconds or GPU-hours).
 */
export function screeningPays(n: number, startup: number, fullBench: number, shortBench: number, eta = ETA): boolean {
  const keep = keptOnRank(n, eta);
  if (n < 2 || keep >= n) return false;
  return n * (startup + shortBench) + keep * (startup + fullBench) < n * (startup + fullBench);
}

export interface ScreenRow {
  id: string;
  /** Short-run throughput; null when the short run failed. */
  value: number | null;
}

export interface ScreenCut {
  kept: string[];
  /** Why each dropped one is dropped (a row's words). */
  dropped: Map<string, string>;
  rule: string;
}

/**
 * Successive halving's cut over short runs. `noisePct`: how far apart two equal variants' short
 * runs may read; `leader`/`ratio`: the leader's full-run value and this session's full/short ratio
 * (both absent in the first stage: rank alone decides). Ids in `exempt` are always kept.
 */
export function screenCut(
  rows: readonly ScreenRow[],
  o: { noisePct: number; marginPct: number; leader?: number; ratio?: number; eta?: number; exempt?: ReadonlySet<string> },
): ScreenCut {
  const eta = o.eta ?? ETA;
  const ranked = rows.filter((r): r is ScreenRow & { value: number } => r.value !== null && r.value > 0).sort((a, b) => b.value - a.value);
  const k = keptOnRank(ranked.length, eta);
  const best = ranked[0]?.value ?? 0;
  const rule = `successive halving (eta ${eta}): the top ${k} of ${ranked.length} short runs, and any within ${o.noisePct.toFixed(1)}% of the best, get the full run`;
  const kept: string[] = [];
  const dropped = new Map<string, string>();
  for (const r of rows) if (r.value === null || !(r.value > 0)) dropped.set(r.id, 'screened out: its short run failed');
  ranked.forEach((r, i) => {
    const short = `short run ${Math.round(r.value)} tok/s, ${i + 1} of ${ranked.length}`;
    if (o.exempt?.has(r.id)) return void kept.push(r.id);
    if (i >= k && r.value < best * (1 - o.noisePct / 100)) {
      return void dropped.set(
        r.id,
        `screened out: ${short}, ${signedPct((r.value / best - 1) * 100, 0)} against the best short run; ${rule}`,
      );
    }
    if (o.leader && o.ratio) {
      const est = r.value * o.ratio;
      if (est * (1 + o.noisePct / 100) < o.leader * (1 - o.marginPct / 100)) {
        return void dropped.set(
          r.id,
          `screened out: ${short}, x ${o.ratio.toFixed(2)} (this session's full/short ratio) is ${signedPct((est / o.leader - 1) * 100, 0)} against the leader, beyond the ${o.marginPct}% margin and ${o.noisePct.toFixed(1)}% noise`,
        );
      }
    }
    kept.push(r.id);
  });
  return { kept, dropped, rule };
}

/** The median full/short throughput ratio over variants measured both ways; undefined before one. */
export function fullShortRatio(pairs: readonly { full: number; short: number }[]): number | undefined {
  const r = pairs
    .filter((p) => p.full > 0 && p.short > 0)
    .map((p) => p.full / p.short)
    .sort((a, b) => a - b);
  if (!r.length) return undefined;
  const m = Math.floor(r.length / 2);
  return r.length % 2 ? r[m] : (r[m - 1]! + r[m]!) / 2;
}

/** Items by expected gain per GPU-hour, best first; equal ones keep their order. */
export function byGainPerCost<T>(items: readonly T[], gainPct: (t: T) => number, costGpuHours: (t: T) => number): T[] {
  const rate = (t: T) => gainPct(t) / Math.max(costGpuHours(t), 1e-9);
  return items
    .map((t, i) => ({ t, i, r: rate(t) }))
    .sort((a, b) => b.r - a.r || a.i - b.i)
    .map((x) => x.t);
}
