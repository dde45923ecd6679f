// Helpers over the plan view the screens draw (the shapes themselves are the core's,
// src/tui/services/types.ts).
import type { PlanStageView, PlanVariantView, PlanView } from './services/types.js';

/** A row of the Plan checklist: a stage heading or one of its variants. */
export type PlanRow = { kind: 'stage'; stage: PlanStageView } | { kind: 'variant'; stage: PlanStageView; variant: PlanVariantView };

export function planRows(plan: PlanView): PlanRow[] {
  const rows: PlanRow[] = [];
  for (const stage of plan.stages) {
    rows.push({ kind: 'stage', stage });
    if (!stage.skipped) for (const variant of stage.variants) rows.push({ kind: 'variant', stage, variant });
  }
  return rows;
}

/** Variants the user left checked and preflight did not prune. */
export function selectedVariants(plan: PlanView, disabled: readonly string[]): PlanVariantView[] {
  const off = new Set(disabled);
  return plan.stages.flatMap((s) => (s.skipped ? [] : s.variants.filter((v) => !v.pruned && !off.has(v.id))));
}
