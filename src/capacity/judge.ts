// What one capacity probe must measure and how it is judged: enough requests for the percentile
// an SLO names, whether every rule held, and which rule breaks first when one does not.
import { UserError } from '../core/errors.js';
import { sloKey, sloViolations } from '../core/slo.js';
import type { SloRule } from '../core/slo-rule.js';
import type { BenchMetrics } from '../core/metrics.js';
import { pointPrompts } from '../sweep/spec.js';
import type { CapacityBy } from './search.js';

/**
 * Requests a pNN rule needs above its percentile: with n requests only n x (100-NN)/100 of them
 * lie above p99, so judging p99 on 100 requests rests on one. Ten of them: p99 needs
 * 10 x 100/(100-99) = 1000 requests, p90 100, p99.9 10,000.
 */
export const TAIL_SAMPLES = 10;

/** Fewest requests a pNN rule can be judged on (0 for mean and median). */
export function tailPrompts(rule: SloRule): number {
  if (!rule.stat.startsWith('p')) return 0;
  const pct = Number(rule.stat.slice(1));
  return Math.ceil((TAIL_SAMPLES * 100) / (100 - pct) - 1e-9);
}

/** The rule behind the probe size, in words, for the header. */
export function promptRule(slo: readonly SloRule[]): string {
  const tails = slo.filter((r) => r.stat.startsWith('p'));
  const tail = tails.length
    ? `${tails.map((r) => `${r.stat} needs >= ${TAIL_SAMPLES} x 100/(100-${r.stat.slice(1)}) = ${tailPrompts(r).toLocaleString('en-US')}`).join(', ')} requests (${TAIL_SAMPLES} above the percentile)`
    : 'means and medians need no tail';
  return `${tail}; and at least 8 per concurrent request (32 at the least), or 60 s of arrivals by rate, as a sweep point`;
}

/** Refuse rules a sample cannot judge: the maximum (p100) has no number of requests that suffices. */
export function checkCapacitySlo(slo: readonly SloRule[]): void {
  if (slo.length === 0)
    throw new UserError('capacity needs --slo, e.g. --slo ttft:p99<2000,tpot:mean<100 (the load is searched until one breaks)');
  const max = slo.find((r) => r.stat.startsWith('p') && Number(r.stat.slice(1)) >= 100);
  if (max) throw new UserError(`--slo ${max.metric}:${max.stat}: the maximum cannot be judged from a sample; use p99 or p99.9`);
}

/** Requests one probe runs: the most any rule needs, a sweep point's size for that load, and the user's floor. */
export function probePrompts(slo: readonly SloRule[], by: CapacityBy, value: number, floor = 0): number {
  const tail = Math.max(0, ...slo.map(tailPrompts));
  return Math.max(tail, pointPrompts({ kind: by, value }, Infinity), floor);
}

export interface ProbeJudgement {
  holds: boolean;
  /** Each broken rule (and failed requests) as one line. */
  violations: string[];
  /** The rule furthest over its limit, "ttft:p99", or "errors" when requests failed; null when all hold. */
  breaks: string | null;
}

export function judgeProbe(m: BenchMetrics, slo: readonly SloRule[]): ProbeJudgement {
  const violations = sloViolations(m, slo);
  let breaks: string | null = null;
  let worst = 1;
  for (const r of slo) {
    const v = m[sloKey(r)];
    const ratio = typeof v === 'number' && !Number.isNaN(v) ? v / r.limitMs : Infinity;
    if (ratio >= worst && (breaks === null || ratio > worst)) {
      worst = ratio;
      breaks = `${r.metric}:${r.stat}`;
    }
  }
  if (m.failed > 0) {
    violations.push(`${m.failed} of ${m.completed + m.failed} requests failed`);
    breaks ??= 'errors';
  }
  return { holds: violations.length === 0, violations, breaks };
}

/** "p99 TTFT < 2 s", "mean TPOT < 100 ms": a rule as a person says it. */
export function sloPhrase(r: SloRule): string {
  const limit = r.limitMs >= 1000 && r.limitMs % 100 === 0 ? `${r.limitMs / 1000} s` : `${r.limitMs} ms`;
  return `${r.stat} ${r.metric.toUpperCase()} < ${limit}`;
}

/** "48 concurrent users", "12.5 req/s". */
export function loadPhrase(by: CapacityBy, value: number): string {
  return by === 'concurrency' ? `${value} concurrent user${value === 1 ? '' : 's'}` : `${value} req/s`;
}
