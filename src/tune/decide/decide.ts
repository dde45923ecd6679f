// Decide: which variant wins a stage. Greedy, as the studies do it: a candidate replaces the
// carried winner only when it is better by more than the noise margin, and never when it breaks
// an SLO the carried winner keeps.
import { UserError } from '../../core/errors.js';
import type { VariantResult } from '../../core/events.js';
import type { BenchMetrics } from '../../core/metrics.js';
import { sloViolations } from '../../core/slo.js';
import type { SloRule } from '../../core/slo-rule.js';

// Parsed in the core (saved settings check it too); re-exported for the tuning code.
import type { Objective } from '../../core/objective.js';
import { fractionPct } from '../../core/format.js';
import { median, sortedCopy } from '../../core/stats.js';
import { DEFAULT_MAX_FAILED_PCT, failedOver, failedOverReason, notEligibleText } from '../../core/failed-share.js';

export function objectiveLabel(o: Objective): string {
  return { total: 'total tok/s', output: 'output tok/s', request: 'req/s', goodput: 'goodput req/s' }[o];
}

/** The number the objective maximises, or null when the metrics cannot say. */
export function objectiveValue(m: BenchMetrics, o: Objective): number | null {
  switch (o) {
    case 'total':
      return m.total_token_throughput;
    case 'output':
      return m.output_throughput;
    case 'request':
      return m.request_throughput;
    case 'goodput':
      return m.request_goodput;
  }
}

export interface DecideOptions {
  objective: Objective;
  slo: readonly SloRule[];
  /** Noise margin in percent: a challenger must beat the carried winner by more than this. */
  marginPct: number;
  /** --max-failed: a run whose failed requests exceed this percent cannot win (default DEFAULT_MAX_FAILED_PCT). */
  maxFailedPct?: number;
}

export interface Score {
  value: number | null;
  violations: string[];
  eligible: boolean;
  /** Too many of its requests failed: the row's words ("514/1000 ok: not eligible"); its value is shown, never ranked. */
  notEligible?: string;
}

export function score(r: VariantResult, opts: Pick<DecideOptions, 'objective' | 'slo' | 'maxFailedPct'>): Score {
  if (r.status !== 'ok' || !r.metrics || r.metrics.completed <= 0) return { value: null, violations: [], eligible: false };
  const value = objectiveValue(r.metrics, opts.objective);
  const violations = sloViolations(r.metrics, opts.slo);
  // --quality-floor: a variant whose outputs agree too little with its reference cannot win.
  const floor = r.quality?.belowFloor;
  if (floor !== undefined)
    violations.push(
      `quality: exact match ${fractionPct(r.quality!.agreement?.exactMatch ?? 0)} below the --quality-floor ${fractionPct(floor)}`,
    );
  // Partial success is not success: the throughput of the requests that succeeded says nothing of
  // a server that dropped the rest.
  const maxFailed = opts.maxFailedPct ?? DEFAULT_MAX_FAILED_PCT;
  if (failedOver(r.metrics, maxFailed)) {
    violations.push(failedOverReason(r.metrics, maxFailed));
    return { value, violations, eligible: false, notEligible: notEligibleText(r.metrics) };
  }
  return { value, violations, eligible: value !== null && violations.length === 0 };
}

export function gainPct(value: number, reference: number): number | null {
  return reference > 0 ? ((value - reference) / reference) * 100 : null;
}

export interface StageDecision {
  /** The variant carried forward (the old winner when nothing beat it). */
  winner: VariantResult | null;
  /** True when a result of this stage replaced the carried winner. */
  changed: boolean;
  /** Gain of the stage's best result over the carried winner (or, in the first stage, over the baseline), %. */
  gainPct: number | null;
  /** One line: why this winner. */
  why: string;
}

/**
 * Pick the stage winner. `carried` is the winner so far (null in the first stage, where the best
 * eligible result wins outright and its gain is measured against `reference`, the baseline).
 */
export function decideStage(
  carried: VariantResult | null,
  results: readonly VariantResult[],
  opts: DecideOptions,
  reference?: VariantResult | null,
): StageDecision {
  const scored = results.map((r) => ({ r, s: score(r, opts) })).filter((x) => x.s.value !== null);
  const eligible = scored.filter((x) => x.s.eligible).sort((a, b) => b.s.value! - a.s.value!);
  const best = eligible[0];
  const label = (r: VariantResult) => r.variant.label ?? r.variantId;

  if (!carried) {
    if (!best) {
      // One that served its requests goes before one that dropped too many, whatever their speed.
      const anyOk = scored.sort((a, b) => Number(!!a.s.notEligible) - Number(!!b.s.notEligible) || b.s.value! - a.s.value!)[0];
      if (!anyOk) return { winner: null, changed: false, gainPct: null, why: 'no variant succeeded' };
      // Nothing meets the SLOs: carry the best anyway so the run goes on, and say so.
      return {
        winner: anyOk.r,
        changed: true,
        gainPct: null,
        why: `no variant meets the SLOs (${anyOk.s.violations.join('; ')}); carrying the fastest, ${label(anyOk.r)}`,
      };
    }
    const ref = reference ? score(reference, opts).value : null;
    const g = ref !== null ? gainPct(best.s.value!, ref) : null;
    return { winner: best.r, changed: true, gainPct: g, why: `${label(best.r)} is the fastest` };
  }

  const c = score(carried, opts);
  if (!best) return { winner: carried, changed: false, gainPct: null, why: 'no variant of this stage succeeded within the SLOs' };
  if (!c.eligible) {
    // The carried winner breaks an SLO (or has no number): any eligible challenger is better.
    return {
      winner: best.r,
      changed: true,
      gainPct: c.value !== null ? gainPct(best.s.value!, c.value) : null,
      why: `${label(best.r)} meets the SLOs and the carried winner does not`,
    };
  }
  const g = gainPct(best.s.value!, c.value!);
  if (g !== null && g > opts.marginPct) {
    return { winner: best.r, changed: true, gainPct: g, why: `${label(best.r)} beats the carried winner by ${g.toFixed(1)}%` };
  }
  return {
    winner: carried,
    changed: false,
    gainPct: g,
    why:
      g === null
        ? 'kept the carried winner'
        : `best challenger ${label(best.r)} is ${g >= 0 ? '+' : ''}${g.toFixed(1)}%, within the ${opts.marginPct}% noise margin: kept the carried winner`,
  };
}

/** Per-key median of repeated runs' metrics (keys present in every run). */
export function medianMetrics(list: readonly BenchMetrics[]): BenchMetrics {
  if (list.length === 1) return list[0]!;
  const out: Record<string, number | null> = {};
  for (const key of Object.keys(list[0]!)) {
    const values = list.map((m) => (m as unknown as Record<string, unknown>)[key]);
    // Counts take the lower middle run's own value: the mean of two middles is no count (two
    // multi-turn runs that completed 96 and 95 requests are not 95.5, which the profile refuses).
    if (COUNT_KEYS.has(key) && values.every((v) => Number.isInteger(v))) out[key] = lowerMedian(values as number[]);
    else if (values.every((v) => typeof v === 'number')) out[key] = median(values as number[]);
    else out[key] = (values[0] as number | null) ?? null;
  }
  return out as unknown as BenchMetrics;
}

/** The result keys that count requests or tokens (vLLM's result names, and the prefix-cache counts). */
const COUNT_KEYS: ReadonlySet<string> = new Set([
  'completed',
  'failed',
  'total_input_tokens',
  'total_output_tokens',
  'max_concurrent_requests',
  'total_cached_tokens',
  'cache_reported_requests',
  'cache_hit_requests',
  'cache_miss_requests',
]);

/** The lower of the two middle values (the middle one for an odd count): always one of the values. */
function lowerMedian(xs: readonly number[]): number {
  return sortedCopy(xs)[Math.floor((xs.length - 1) / 2)]!;
}

/** One result for N repeats: the median of the successful runs, or the first failure. */
export function combineRepeats(results: readonly VariantResult[]): VariantResult {
  if (results.length === 0) throw new Error('combineRepeats: no results');
  const ok = results.filter((r) => r.status === 'ok' && r.metrics);
  if (ok.length === 0) return results[0]!;
  if (ok.length === 1 && results.length === 1) return ok[0]!;
  const startups = ok.map((r) => r.startupS).filter((s): s is number => typeof s === 'number');
  return {
    ...ok[0]!,
    metrics: medianMetrics(ok.map((r) => r.metrics!)),
    startupS: startups.length ? median(startups) : ok[0]!.startupS,
    clientBound: ok.some((r) => r.clientBound) || undefined,
    startedAt: results[0]!.startedAt,
    finishedAt: results[results.length - 1]!.finishedAt,
  };
}

/** $ per million total tokens at a GPU-hour price, for `gpus` GPUs serving at this throughput. */
export function dollarsPerMillionTokens(
  m: Pick<BenchMetrics, 'total_token_throughput'>,
  gpus: number,
  pricePerGpuHour: number,
): number | null {
  if (!(m.total_token_throughput > 0)) return null;
  const dollarsPerSecond = (pricePerGpuHour * gpus) / 3600;
  return (dollarsPerSecond / m.total_token_throughput) * 1e6;
}
