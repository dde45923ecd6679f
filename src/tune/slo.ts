// Service-level objectives: "ttft:p99<2000,tpot:mean<100,e2el:p99<30000" (ms). A variant that
// breaks one is not eligible to win a stage; the goodput objective counts requests meeting them.
import { UserError } from '../core/errors.js';
import type { BenchMetrics, GoodputSlo, LatencyMetric } from '../bench/types.js';

export interface SloRule {
  metric: LatencyMetric;
  /** 'mean' | 'median' | 'p99' | 'p90' ..., the prefix of vLLM's metrics key. */
  stat: string;
  limitMs: number;
}

const METRICS: readonly LatencyMetric[] = ['ttft', 'tpot', 'itl', 'e2el'];
const RULE = /^\s*(ttft|tpot|itl|e2el)\s*:\s*(mean|median|p\d+(?:\.\d+)?)\s*(<=?)\s*(\d+(?:\.\d+)?)\s*(?:ms)?\s*$/i;

export function parseSlo(text: string): SloRule[] {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new UserError(`--slo is empty; expected e.g. "ttft:p99<2000,tpot:mean<100"`);
  const rules: SloRule[] = [];
  for (const part of parts) {
    const m = RULE.exec(part);
    if (!m) {
      throw new UserError(
        `bad --slo part '${part}': expected METRIC:STAT<MS with METRIC one of ${METRICS.join('|')} and STAT mean|median|pNN, e.g. "ttft:p99<2000"`,
      );
    }
    const stat = m[2]!.toLowerCase();
    const pct = stat.startsWith('p') ? Number(stat.slice(1)) : 50;
    if (!(pct > 0 && pct <= 100)) throw new UserError(`bad --slo part '${part}': percentile must be between 0 and 100`);
    const limitMs = Number(m[4]);
    if (!(limitMs > 0)) throw new UserError(`bad --slo part '${part}': the limit must be a positive number of milliseconds`);
    rules.push({ metric: m[1]!.toLowerCase() as LatencyMetric, stat, limitMs });
  }
  return rules;
}

export function formatSlo(rules: readonly SloRule[]): string {
  return rules.map((r) => `${r.metric}:${r.stat}<${r.limitMs}`).join(',');
}

/** vLLM's metrics key for a rule: mean_ttft_ms, median_tpot_ms, p99_e2el_ms. */
export function sloKey(rule: SloRule): `${string}_${LatencyMetric}_ms` {
  return `${rule.stat}_${rule.metric}_ms`;
}

/** Percentiles the benchmark must compute for these rules (vLLM's --metric-percentiles). */
export function sloPercentiles(rules: readonly SloRule[]): number[] {
  return rules.filter((r) => r.stat.startsWith('p')).map((r) => Number(r.stat.slice(1)));
}

/** Each broken rule as one line, e.g. "p99 TTFT 2450 ms > 2000 ms". Empty when all hold. */
export function sloViolations(metrics: BenchMetrics, rules: readonly SloRule[]): string[] {
  const out: string[] = [];
  for (const rule of rules) {
    const value = metrics[sloKey(rule)];
    const name = `${rule.stat} ${rule.metric.toUpperCase()}`;
    if (typeof value !== 'number' || Number.isNaN(value)) {
      out.push(`${name} was not measured`);
    } else if (value >= rule.limitMs) {
      out.push(`${name} ${value.toFixed(0)} ms >= ${rule.limitMs} ms`);
    }
  }
  return out;
}

/** vLLM's --goodput thresholds (per request) from the rules; the tightest limit per metric wins. */
export function goodputFromSlo(rules: readonly SloRule[]): GoodputSlo | undefined {
  const g: GoodputSlo = {};
  for (const r of rules) {
    if (r.metric === 'itl') continue; // vLLM's goodput has no ITL threshold
    g[r.metric] = Math.min(g[r.metric] ?? Infinity, r.limitMs);
  }
  return Object.keys(g).length ? g : undefined;
}
