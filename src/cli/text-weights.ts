// What the headless text says about --dummy-weights: which planned launches of a stage load dummy
// weights (and why the others keep the real ones), the mark on a summary row, and the closing note.
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
