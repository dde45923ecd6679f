// The budget in headless text: the plan's projection and rule, progress lines for the
// budget events, and the summary's account of what the budget kept from running. The words are
// the core's (core/view-budget.ts); this file only lays them out.
import type { BudgetEvent } from '../core/budget-events.js';
import { budgetLeftText, budgetPlanText } from '../core/view-budget.js';
import type { SessionView } from '../core/session-view.js';
import type { Plan } from '../tune/plan/types.js';

/** The dry run's budget block (nothing without --budget). */
export function planBudgetLines(plan: Plan): string[] {
  if (!plan.budget) return [];
  return [
    budgetPlanText(plan.budget),
    `  rule: ${plan.budget.rule}`,
    '  (the plan shows every candidate; which run, screened or in full, is decided as results arrive)',
    '',
  ];
}

export function budgetProgressLine(e: BudgetEvent): string | null {
  switch (e.type) {
    case 'budget-state':
      return `  ${budgetLeftText(e.state)}${e.note ? `; ${e.note}` : ''}`;
    case 'budget-skip':
      return null; // its variant-finished line says it, with the same words
    case 'budget-screened':
      return `  screened (${e.prompts} of ${e.of} prompts): ${e.rows.map((r) => `${r.variantId} ${r.totalTokPerS === null ? 'failed' : Math.round(r.totalTokPerS)}${r.kept ? ' kept' : ''}`).join(', ')}`;
  }
}

/** The summary's budget lines: the budget left at the end and what it did not run in full. */
export function summaryBudgetLines(view: SessionView): string[] {
  const b = view.budget;
  if (!b) return [];
  const out = [b.state ? `Budget: ${budgetLeftText(b.state)}` : b.plan ? `Budget: ${budgetPlanText(b.plan)}` : 'Budget'];
  const kinds = { 'not-launched': 'not launched', 'screened-out': 'screened out', 'no-budget': 'out of budget' } as const;
  for (const k of Object.keys(kinds) as (keyof typeof kinds)[]) {
    const n = b.skipped.filter((s) => s.kind === k).length;
    if (n)
      out.push(
        `  ${n} ${kinds[k]}: ${b.skipped
          .filter((s) => s.kind === k)
          .map((s) => s.variantId)
          .join(', ')}`,
      );
  }
  out.push('');
  return out;
}
