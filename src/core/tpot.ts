// What TPOT means where servelab shows it. servelab's TPOT, as vLLM's, excludes the first token:
// (latency - TTFT) / (output tokens - 1) per request (vLLM benchmarks/serve.py). AIConfigurator's
// --inclusive-tpot and GuideLLM count it in: latency / output tokens. `--tpot inclusive` makes the
// reports show the inclusive one; every table that shows TPOT says which it is.
import { UserError } from './errors.js';
import type { BenchMetrics } from './metrics.js';

export type TpotMode = 'excl' | 'inclusive';

export function parseTpotMode(text: string): TpotMode {
  if (text === 'excl' || text === 'inclusive') return text;
  throw new UserError(
    `--tpot must be excl (servelab's and vLLM's: the first token left out) or inclusive (AIConfigurator --inclusive-tpot, GuideLLM), got '${text}'`,
  );
}

/** The sentence a table with TPOT carries. */
export function tpotDefinition(mode: TpotMode = 'excl'): string {
  return mode === 'inclusive'
    ? "TPOT inclusive of the first token (AIConfigurator --inclusive-tpot, GuideLLM): mean E2E latency / mean output tokens per request, from the run's means"
    : "TPOT excludes the first token, as vLLM's: (latency - TTFT) / (output tokens - 1) per request";
}

/** Mean TPOT, ms, in the mode asked for; undefined when the metrics do not give it. */
export function meanTpotMs(
  metrics: Partial<Pick<BenchMetrics, 'completed' | 'total_output_tokens'>>,
  mode: TpotMode = 'excl',
): number | undefined {
  const m = metrics as Partial<Pick<BenchMetrics, 'completed' | 'total_output_tokens'>> & Record<string, unknown>;
  if (mode === 'excl') return typeof m.mean_tpot_ms === 'number' ? m.mean_tpot_ms : undefined;
  const e2el = m.mean_e2el_ms;
  const perRequest = m.completed && m.total_output_tokens ? m.total_output_tokens / m.completed : 0;
  return typeof e2el === 'number' && perRequest > 0 ? e2el / perRequest : undefined;
}

/** A TPOT column's header: "TPOT ms", or "TPOT ms (incl.)". */
export function tpotHeader(base: string, mode: TpotMode = 'excl'): string {
  return mode === 'inclusive' ? `${base} (incl. 1st token)` : base;
}
