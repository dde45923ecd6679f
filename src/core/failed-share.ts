// Partial success is not success: a run whose failed requests exceed a share (--max-failed,
// default 1%) cannot win, whatever the throughput of the requests that did succeed. The share and
// the row's words live here, below the decision (tune/decide/decide.ts score) and the views.
import type { BenchMetrics } from './metrics.js';

/** The share of failed requests, in percent, above which a run cannot win (--max-failed PCT). */
export const DEFAULT_MAX_FAILED_PCT = 1;

/** Failed requests as a percent of those sent (0 when none were). */
export function failedPct(m: Pick<BenchMetrics, 'completed' | 'failed'>): number {
  const total = m.completed + m.failed;
  return total > 0 ? (m.failed / total) * 100 : 0;
}

/** True when more than `maxPct` percent of the requests failed. */
export function failedOver(m: Pick<BenchMetrics, 'completed' | 'failed'>, maxPct: number): boolean {
  return failedPct(m) > maxPct;
}

/** The row's status when too many requests failed: "514/1000 ok: not eligible". */
export function notEligibleText(m: Pick<BenchMetrics, 'completed' | 'failed'>): string {
  return `${m.completed}/${m.completed + m.failed} ok: not eligible`;
}

/** Why, for the decision's line: "486 of 1000 requests failed (48.6%), over the --max-failed 1%". */
export function failedOverReason(m: Pick<BenchMetrics, 'completed' | 'failed'>, maxPct: number): string {
  const pct = failedPct(m);
  return `${m.failed} of ${m.completed + m.failed} requests failed (${pct < 10 ? pct.toFixed(1) : Math.round(pct)}%), over the --max-failed ${maxPct}%`;
}

/** A run's failed requests grouped by their error text, most frequent first (at most `keep` kinds). */
export function groupErrors(errors: readonly string[], keep = 5): { error: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const e of errors) counts.set(e, (counts.get(e) ?? 0) + 1);
  return [...counts.entries()]
    .map(([error, count]) => ({ error, count }))
    .sort((a, b) => b.count - a.count)
    .slice(0, keep);
}

/** A run's failed requests by error, for a line: "486 x simulated fault (HTTP 500)"; '' when none were kept. */
export function requestErrorsText(errors: readonly { error: string; count: number }[] | undefined): string {
  return (errors ?? []).map((e) => `${e.count} x ${e.error}`).join('; ');
}
