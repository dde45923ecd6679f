// What the headless text says about --dummy-weights: which planned launches of a stage load dummy
// weights (and why the others keep the real ones), the mark on a summary row, and the closing note.
import type { VariantResult } from '../../core/events.js';
import type { SessionView } from '../../core/session-view.js';
import { dummySpelling, dummyWeightsNote } from '../launch/dummy-weights.js';
import type { PlannedVariant } from '../plan/types.js';

/** The summary table's mark on a measurement that loaded dummy weights. */
export const DUMMY_MARK = ' [dummy]';

export function weightsMark(r: Pick<VariantResult, 'weights'>): string {
  return r.weights?.kind === 'dummy' ? DUMMY_MARK : '';
}

/** The dry-run plan's line for a stage: which launches load dummy weights; null without --dummy-weights. */
export function stageWeightsLine(variants: readonly PlannedVariant[]): string | null {
  const run = variants.filter((v) => v.status === 'planned' && v.weights);
  if (!run.length) return null;
  const dummy = run.filter((v) => v.weights!.kind === 'dummy').map((v) => v.variant.id);
  const real = run.filter((v) => v.weights!.kind === 'real');
  const whys = [...new Set(real.map((v) => v.weights!.why))].join('; ');
  const spelling = dummySpelling(run.filter((v) => v.weights!.kind === 'dummy').map((v) => v.variant.engine));
  if (!real.length) return `  weights: dummy (${spelling}, client sends ignore_eos) for all ${dummy.length} variant(s)`;
  if (!dummy.length) return `  weights: real for all ${real.length} variant(s): ${whys}`;
  return `  weights: dummy for ${dummy.join(', ')}; real for ${real.map((v) => v.variant.id).join(', ')}: ${whys}`;
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
