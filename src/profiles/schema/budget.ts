// The budget part of a profile (`--budget`): the limit, validation's share kept back,
// the full protocol's projected cost, what the session spent, the rule, and every variant the
// budget kept from its run with why. Optional: profiles of full-protocol sessions (and every
// profile written before the budget) have none, and still load.
import { z } from 'zod';

export const BudgetSkipSchema = z.object({
  variantId: z.string(),
  stage: z.string(),
  kind: z.enum(['not-launched', 'screened-out', 'no-budget']),
  why: z.string(),
});

export const BudgetRecordSchema = z.object({
  limitGpuHours: z.number(),
  wallS: z.number().optional(),
  validationGpuHours: z.number(),
  fullProtocolGpuHours: z.number(),
  /** Host GPU-hours the session spent, validation included (the session-cost figure). */
  spentGpuHours: z.number(),
  rule: z.string(),
  simulated: z.boolean(),
  skipped: z.array(BudgetSkipSchema).default([]),
});

export type BudgetRecord = z.infer<typeof BudgetRecordSchema>;

/** The report's budget section (none without a budget). */
export function budgetMarkdown(b: BudgetRecord | undefined): string[] {
  if (!b) return [];
  const h = (x: number) => x.toFixed(x >= 10 ? 1 : 2);
  const out = [
    '',
    '## Budget',
    '',
    `Budget ${h(b.limitGpuHours)} host GPU-h; spent ${h(b.spentGpuHours)} (validation's ${h(b.validationGpuHours)} kept back); the full protocol was projected at ${h(b.fullProtocolGpuHours)}${b.simulated ? ' (simulated time)' : ''}.`,
    '',
    `Rule: ${b.rule}.`,
  ];
  if (b.skipped.length) out.push('', ...b.skipped.map((s) => `- ${s.stage} ${s.variantId}: ${s.why}`));
  return out;
}
