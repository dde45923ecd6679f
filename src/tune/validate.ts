// Validate: the winner against the baseline on the scenario set, as the studies' before/after
// table (total tok/s and mean TPOT per side, gain in total throughput).
import type { VariantResult } from '../core/events.js';
import type { ValidationRow } from '../profiles/schema.js';
import type { Scenario } from './scenarios.js';

export type { ValidationRow };

function point(r: VariantResult | undefined): ValidationRow['baseline'] {
  if (!r || r.status !== 'ok' || !r.metrics) return null;
  return { totalTokPerS: r.metrics.total_token_throughput, meanTpotMs: r.metrics.mean_tpot_ms ?? 0 };
}

/** One row per scenario; a side that failed is null and the gain is null. */
export function validationTable(
  scenarios: readonly Scenario[],
  baseline: ReadonlyMap<string, VariantResult>,
  optimized: ReadonlyMap<string, VariantResult>,
): ValidationRow[] {
  return scenarios.map((s) => {
    const b = point(baseline.get(s.name));
    const o = point(optimized.get(s.name));
    const gainPct = b && o && b.totalTokPerS > 0 ? ((o.totalTokPerS - b.totalTokPerS) / b.totalTokPerS) * 100 : null;
    return { scenario: s.name, baseline: b, optimized: o, gainPct };
  });
}

/** Which result is the baseline: the user's named one (variant id or engine), else vLLM's defaults, else the first that ran. */
export function pickBaseline(engineResults: readonly VariantResult[], named?: string): VariantResult | null {
  const ok = engineResults.filter((r) => r.status === 'ok');
  if (named) {
    const hit = engineResults.find((r) => r.variantId === named) ?? engineResults.find((r) => r.variant.engine === named);
    if (hit) return hit;
  }
  return ok.find((r) => r.variant.engine === 'vllm') ?? ok[0] ?? null;
}
