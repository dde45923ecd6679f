// Parsing an SLO spec, "ttft:p99<2000,tpot:mean<100" (ms). In the core because saved settings
// (src/core/settings.ts) and the --auto flags both check it; src/core/slo.ts applies the rules.
import { UserError } from './errors.js';
import type { LatencyMetric } from './metrics.js';

export interface SloRule {
  metric: LatencyMetric;
  /** 'mean' | 'median' | 'p99' | 'p90' ..., the prefix of vLLM's metrics key. */
  stat: string;
  limitMs: number;
}

const METRICS: readonly LatencyMetric[] = ['ttft', 'tpot', 'itl', 'e2el'];
const RULE = /^\s*(ttft|tpot|itl|e2el)\s*:\s*(mean|median|p\d+(?:\.\d+)?)\s*(<=?)\s*(\d+(?:\.\d+)?)\s*(?:ms)?\s*$/i;

/** `name`: how the error names the input (the flag, or the config key for `config set slo`). */
export function parseSlo(text: string, name = '--slo'): SloRule[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new UserError(`${name} is empty; expected e.g. "ttft:p99<2000,tpot:mean<100"`);
  const rules: SloRule[] = [];
  for (const part of parts) {
    const m = RULE.exec(part);
    if (!m) {
      throw new UserError(
        `bad ${name} part '${part}': expected METRIC:STAT<MS with METRIC one of ${METRICS.join('|')} and STAT mean|median|pNN, e.g. "ttft:p99<2000"`,
      );
    }
    const stat = m[2]!.toLowerCase();
    const pct = stat.startsWith('p') ? Number(stat.slice(1)) : 50;
    if (!(pct > 0 && pct <= 100)) throw new UserError(`bad ${name} part '${part}': percentile must be between 0 and 100`);
    const limitMs = Number(m[4]);
    if (!(limitMs > 0)) throw new UserError(`bad ${name} part '${part}': the limit must be a positive number of milliseconds`);
    rules.push({ metric: m[1]!.toLowerCase() as LatencyMetric, stat, limitMs });
  }
  return rules;
}
