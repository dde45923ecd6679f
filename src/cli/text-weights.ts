// What the headless summary says about --dummy-weights: the mark on a summary row and the closing
// note. (The plan's line per stage, which the Plan screen shows too, is src/tune/plan/weights-line.ts.)
import type { VariantResult } from '../core/events.js';
import type { SessionView } from '../core/session-view.js';
import { dummyWeightsNote } from '../tune/launch/dummy-weights.js';

/** The summary table's mark on a measurement that loaded dummy weights. */
export const DUMMY_MARK = ' [dummy]';

export function weightsMark(r: Pick<VariantResult, 'weights'>): string {
  return r.weights?.kind === 'dummy' ? DUMMY_MARK : '';
}

/** The summary's lines on dummy weights: which rows used them, why the others did not. */
export function summaryWeightsLines(view: SessionView): string[] {
  const results = view.stages.flatMap((s) => s.rows.map((r) => r.result));
  const session = view.plan?.dummyWeights;
  const note = dummyWeightsNote(results, !!view.validation?.rows.length, session);
  if (!note) return [];
  // No row is marked when the flag had no effect: the line stands alone.
  return session && !session.used ? [note, ''] : [`${DUMMY_MARK.trim()} = ${note}`, ''];
}
