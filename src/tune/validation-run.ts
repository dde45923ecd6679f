// Validation: the winner against the baseline on the scenario set, each side launched once for
// the scenarios the journal does not hold yet (a resumed run measures nothing twice).
import type { VariantResult } from '../core/events.js';
import type { Scenario } from './scenarios.js';
import type { SessionContext } from './session-context.js';
import { validationTable, type ValidationRow } from './validate.js';
import { scenarioKey } from './workloads.js';
import { wholeHostVariant } from './replica-plan.js';

async function measureSide(ctx: SessionContext, side: VariantResult): Promise<Map<string, VariantResult>> {
  const byScenario = new Map<string, VariantResult>();
  const missing: Scenario[] = [];
  for (const s of ctx.config.validation) {
    const hit = ctx.journal.find(side.variantId, scenarioKey(s), 0);
    if (hit) byScenario.set(s.name, hit.result);
    else missing.push(s);
  }
  if (!missing.length) return byScenario;
  const results = await ctx.run(side.variant, missing, { stage: 'validation', skipSignal: ctx.control.nextSkipSignal() });
  ctx.cost.addWave([results[0]]);
  for (const [i, r] of results.entries()) {
    const s = missing[i]!;
    ctx.journal.record('validate', 0, r, scenarioKey(s));
    byScenario.set(s.name, r);
  }
  return byScenario;
}

/** The before/after table; empty when there is no validation set or no baseline. */
export async function validateWinner(ctx: SessionContext, baseline: VariantResult | null, winner: VariantResult): Promise<ValidationRow[]> {
  if (!ctx.config.validation.length || !baseline) return [];
  // With a replica plan the baseline was measured on one replica: validation runs it on the whole
  // host, as the winner's chosen layout does (replica-plan.ts).
  const r = ctx.plan.replica;
  if (r) {
    const v = wholeHostVariant(ctx.config, baseline.variant, r.hostGpus, ctx.planDeps.model(baseline.variant.model));
    baseline = { ...baseline, variantId: v.id, variant: v };
  }
  ctx.emit({ type: 'validation-started', scenarios: ctx.config.validation.map((s) => s.name), baselineId: baseline.variantId, winnerId: winner.variantId });
  const base = await measureSide(ctx, baseline);
  const optimized = baseline.variantId === winner.variantId ? base : await measureSide(ctx, winner);
  const rows = validationTable(ctx.config.validation, base, optimized);
  ctx.emit({ type: 'validation-finished', rows });
  return rows;
}
