// Words every view uses for a stage of the projection (session-view.ts): which stages to show,
// what a gain is measured against, and the tie clause of a verdict.
import type { VariantResult } from './events.js';
import type { StageVerdict } from './stage-verdict.js';
import type { SessionView, StageView } from './session-view.js';

/** Stages that measured something or were decided, in run order. */
export function shownStages(view: SessionView): StageView[] {
  return [...view.stages].sort((a, b) => a.index - b.index).filter((s) => s.rows.length > 0);
}

/** What a stage's gain is measured against, in words: "the baseline vllm", "the carried winner X". */
export function referenceText(s: StageView, name: (id: string) => string = (id) => id): string | null {
  const v = s.verdict;
  if (!v?.referenceId) return null;
  if (v.referenceId === v.carriedId) return `the carried winner ${name(v.referenceId)}`;
  if (v.referenceId === v.baselineId) return `the baseline ${name(v.referenceId)}`;
  return name(v.referenceId);
}

/** The words adaptive repeats use when a stage's best two stayed within the noise margin (src/tune/decide/repeats.ts). */
export const TIED_WITHIN_NOISE = 'tied within noise';

/**
 * The clause of a verdict's why that says its best two stayed tied within noise after repeats,
 * with the rule that broke the tie ("A and B tied within noise (0.3% apart after 3 and 3 runs,
 * margin 2%): B wins on lower p99 TPOT (…)"); null when no tie was called. The verdict carries the
 * tie in words only: repeats.ts writes the clause, stage-verdict.ts joins clauses with '; '.
 */
export function tieClause(v: Pick<StageVerdict, 'why' | 'tied'> | undefined): string | null {
  // Verdicts journalled before the `tied` field carry the tie in words only.
  if (!v || v.tied === false) return null;
  return v.why.split('; ').find((c) => c.includes(TIED_WITHIN_NOISE)) ?? (v.tied ? TIED_WITHIN_NOISE : null);
}

/**
 * What each row served, by variant id, when the rows did not all serve the same: the engine stage
 * of a model with --gguf (vLLM's model id beside llama.cpp's GGUF), llama.cpp's quantization stage.
 * The comparison tables (summary, Results, report) add it then.
 */
export function servedWhenMixed(results: readonly Pick<VariantResult, 'variantId' | 'served'>[]): Record<string, string> | undefined {
  const named = results.filter((r): r is typeof r & { served: string } => !!r.served);
  return new Set(named.map((r) => r.served)).size > 1 ? Object.fromEntries(named.map((r) => [r.variantId, r.served])) : undefined;
}
