// --goodput KEY:VALUE parsing (vLLM parse_goodput): keys ttft, tpot, e2el; values in ms, >= 0.
import { UserError } from '../../core/errors.js';
import type { GoodputSlo, LatencyMetric } from '../../core/metrics.js';

export function parseGoodput(pairs: readonly string[]): GoodputSlo {
  const slo: GoodputSlo = {};
  for (const pair of pairs) {
    const m = /^(ttft|tpot|e2el):([0-9]*\.?[0-9]+)$/.exec(pair.trim());
    if (!m) throw new UserError(`invalid --goodput '${pair}': use KEY:MS with KEY one of ttft, tpot, e2el (e.g. ttft:500 tpot:50)`);
    slo[m[1] as 'ttft' | 'tpot' | 'e2el'] = Number(m[2]);
  }
  return slo;
}

export function parsePercentileMetrics(s: string): LatencyMetric[] {
  const names = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!['ttft', 'tpot', 'itl', 'e2el'].includes(n))
      throw new UserError(`invalid --percentile-metrics '${n}': choose from ttft,tpot,itl,e2el`);
  }
  return names as LatencyMetric[];
}

export function parseMetricPercentiles(s: string): number[] {
  return s.split(',').map((x) => {
    const p = Number(x.trim());
    if (!(p >= 0 && p <= 100) || x.trim() === '')
      throw new UserError(`invalid --metric-percentiles '${x}': numbers between 0 and 100, comma-separated`);
    return p;
  });
}
