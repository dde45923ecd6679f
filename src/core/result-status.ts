// A result's status in words, one owner for the progress lines, the results table and the report:
// "ok"; a run the early-stop rule stopped reads "stopped early: at least 4% below the leader at
// 600/1000 requests" (never "pruned (pruned)"); any other failure its kind and reason, each once.
import type { VariantResult } from './events.js';

/** The words every stopped-early reason starts with (a narrow status column shows them alone). */
export const STOPPED_EARLY = 'stopped early';

/** Was this result stopped early by the rule (src/tune/decide/early-stop.ts), rather than pruned by preflight? */
export function isStoppedEarly(r: Pick<VariantResult, 'status' | 'failure'>): boolean {
  return r.status === 'pruned' && r.failure?.kind === 'pruned' && r.failure.reason.startsWith(STOPPED_EARLY);
}

/** The whole status: ok, the stopped-early line, or the failure's kind and reason (a reason that names its kind says it once). */
export function statusText(r: Pick<VariantResult, 'status' | 'failure' | 'partial'>): string {
  if (r.status === 'ok') return 'ok';
  // A stopped run keeps what it measured: its figures are there, marked partial.
  if (isStoppedEarly(r)) return `${r.failure!.reason}${r.partial ? ' (figures partial: the requests finished before the stop)' : ''}`;
  if (!r.failure) return r.status;
  return r.failure.reason.startsWith(r.failure.kind) ? r.failure.reason : `${r.failure.kind}: ${r.failure.reason}`;
}
