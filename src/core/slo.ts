// Service-level objectives: "ttft:p99<2000,tpot:mean<100,e2el:p99<30000" (ms). A variant that
// breaks one is not eligible to win a stage; the goodput objective counts requests meeting them.
import type { BenchMetrics, GoodputSlo, LatencyMetric } from './metrics.js';

// Parsed in the core (saved settings check it too); re-exported for the tuning code.
import type { SloRule } from './slo-rule.js';

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
