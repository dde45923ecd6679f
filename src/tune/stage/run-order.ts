// The order a stage's variants run in (not the order they are listed, decided or shown in): the
// predicted fastest first, so that a leader is measured early and early stop (early-stop.ts) has
// something to stop the slower ones against. In later stages the carried winner is already
// measured and leads from the start. Only the run order changes: measureStage returns results in
// the stage's listed order, and the decision (decide.ts, repeats.ts) reads that order alone, so
// the same measurements give the same winner whatever order they were taken in.
import type { PlannedVariant } from '../plan/types.js';

/** Predicted total tok/s, or -Infinity when the plan has no prediction (those run last, in order). */
function predictedValue(p: Pick<PlannedVariant, 'predicted'>): number {
  const v = p.predicted?.totalTokPerS;
  return typeof v === 'number' && Number.isFinite(v) ? v : -Infinity;
}

/** A copy of `planned`, predicted fastest first; equal predictions keep their listed order. */
export function runOrder<T extends Pick<PlannedVariant, 'predicted'>>(planned: readonly T[]): T[] {
  return planned
    .map((p, i) => ({ p, i, v: predictedValue(p) }))
    .sort((a, b) => b.v - a.v || a.i - b.i)
    .map((x) => x.p);
}
