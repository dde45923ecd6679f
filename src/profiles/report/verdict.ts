// The replay verdict: recorded numbers vs numbers measured now, metric by metric. Pure, so the
// rules (tolerance on total throughput, SLOs) are tested exactly, apart from any server.
import type { Slo } from '../schema/profile.js';
import type { RecordedMetrics } from '../schema/metrics.js';

export type Verdict = 'ok' | 'faster' | 'regression';

export interface MetricDelta {
  key: string;
  label: string;
  unit: 'tok/s' | 'req/s' | 'ms';
  /** Which direction is an improvement. */
  better: 'higher' | 'lower';
  recorded: number | null;
  now: number | null;
  /** (now - recorded) / recorded, %; null when either is missing or recorded is 0. */
  deltaPct: number | null;
}

export interface ReplayJudgement {
  verdict: Verdict;
  /** One line per reason, e.g. "total throughput -12.3% (tolerance 5%)". */
  reasons: string[];
  deltas: MetricDelta[];
}

/** The metrics shown side by side, in vLLM's key names. */
export const COMPARED: readonly Omit<MetricDelta, 'recorded' | 'now' | 'deltaPct'>[] = [
  { key: 'total_token_throughput', label: 'total tok/s', unit: 'tok/s', better: 'higher' },
  { key: 'output_throughput', label: 'output tok/s', unit: 'tok/s', better: 'higher' },
  { key: 'request_throughput', label: 'requests/s', unit: 'req/s', better: 'higher' },
  { key: 'mean_ttft_ms', label: 'mean TTFT', unit: 'ms', better: 'lower' },
  { key: 'median_ttft_ms', label: 'median TTFT', unit: 'ms', better: 'lower' },
  { key: 'p99_ttft_ms', label: 'p99 TTFT', unit: 'ms', better: 'lower' },
  { key: 'mean_tpot_ms', label: 'mean TPOT', unit: 'ms', better: 'lower' },
  { key: 'p99_tpot_ms', label: 'p99 TPOT', unit: 'ms', better: 'lower' },
  { key: 'mean_itl_ms', label: 'mean ITL', unit: 'ms', better: 'lower' },
  { key: 'p99_itl_ms', label: 'p99 ITL', unit: 'ms', better: 'lower' },
  { key: 'mean_e2el_ms', label: 'mean E2EL', unit: 'ms', better: 'lower' },
];

function num(m: RecordedMetrics, key: string): number | null {
  const v = (m as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function pctDelta(recorded: number | null, now: number | null): number | null {
  if (recorded === null || now === null || recorded === 0) return null;
  return ((now - recorded) / recorded) * 100;
}

/** Each SLO the metrics break, as a line; empty when all hold. Same rule as the tuner: value >= limit fails. */
export function sloFailures(metrics: RecordedMetrics, slo: readonly Slo[]): string[] {
  const out: string[] = [];
  for (const rule of slo) {
    const value = num(metrics, `${rule.stat}_${rule.metric}_ms`);
    const name = `${rule.stat} ${rule.metric.toUpperCase()}`;
    if (value === null) out.push(`SLO ${name} < ${rule.limitMs} ms: not measured`);
    else if (value >= rule.limitMs) out.push(`SLO ${name} < ${rule.limitMs} ms broken: ${value.toFixed(1)} ms`);
  }
  return out;
}

/**
 * Regression when total token throughput fell by more than `tolerancePct`, or an SLO fails now;
 * faster when it rose by more than `tolerancePct`; ok otherwise.
 */
export function judgeReplay(input: {
  recorded: RecordedMetrics;
  now: RecordedMetrics;
  tolerancePct: number;
  slo?: readonly Slo[];
}): ReplayJudgement {
  const { recorded, now, tolerancePct } = input;
  const deltas: MetricDelta[] = [];
  for (const c of COMPARED) {
    const r = num(recorded, c.key);
    const n = num(now, c.key);
    if (r === null && n === null) continue;
    deltas.push({ ...c, recorded: r, now: n, deltaPct: pctDelta(r, n) });
  }
  const reasons: string[] = [];
  const total = deltas.find((d) => d.key === 'total_token_throughput');
  const change = total?.deltaPct ?? null;
  const tol = `tolerance ${tolerancePct}%`;
  let verdict: Verdict = 'ok';
  if (change === null) {
    verdict = 'regression';
    reasons.push('total token throughput was not measured');
  } else if (change < -tolerancePct) {
    verdict = 'regression';
    reasons.push(`total throughput ${change.toFixed(1)}% (${tol})`);
  }
  const broken = sloFailures(now, input.slo ?? []);
  if (broken.length) {
    verdict = 'regression';
    reasons.push(...broken);
  }
  if (verdict === 'ok' && change !== null) {
    if (change > tolerancePct) {
      verdict = 'faster';
      reasons.push(`total throughput +${change.toFixed(1)}% (${tol})`);
    } else {
      reasons.push(`total throughput ${change >= 0 ? '+' : ''}${change.toFixed(1)}%, within ${tol}`);
    }
  }
  return { verdict, reasons, deltas };
}
