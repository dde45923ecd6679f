// The plan's line on --dummy-weights for one stage: which planned launches load dummy weights and
// why the others keep the real ones. Both front ends show it (the dry-run plan, the Plan screen).
import { dummySpelling } from '../launch/dummy-weights.js';
import type { PlannedVariant } from './types.js';

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
