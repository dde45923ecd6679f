// Validation: the winner against the baseline on the scenario set, each side launched once for
// the scenarios the journal does not hold yet (a resumed run measures nothing twice). Under
// --objective frontier both sides run at the load the frontier chose (validationAtLoad).
import type { VariantResult } from '../../core/events.js';
import type { Scenario } from '../../core/scenario.js';
import type { SessionContext } from '../context/session-context.js';
import { baselineWhy, journaledForValidation, reusableForValidation, validationKey, validationTable } from '../decide/validate.js';
import { effectiveMarginPct } from '../../core/noise-rule.js';
import { scenarioKey } from '../launch/workloads.js';
import { earlierBaseline, reusedLine } from './baseline-reuse.js';
import { wholeHostVariant } from '../plan/replica.js';
import { loadTag, pointPrompts, type SweepLoad } from '../../sweep/spec.js';
import type { ValidationRow } from '../../profiles/schema/profile.js';

/**
 * The validation scenarios at the frontier's load: the SLO was met there, and every request at
 * once (the studies' load) is not how the chosen variant will be served. Each scenario takes the
 * sweep's point size at that load (pointPrompts: fewer prompts at light loads); a rate of inf is
 * the studies' load already, so the scenarios stay as they are.
 */
export function validationAtLoad(scenarios: readonly Scenario[], load: SweepLoad): Scenario[] {
  if (load.value === Infinity) return [...scenarios];
  return scenarios.map((s) => ({
    ...s,
    name: `${s.name}@${loadTag(load)}`,
    label: `${s.label}, ${load.kind === 'concurrency' ? `max concurrency ${load.value}` : `${load.value} req/s`}`,
    numPrompts: pointPrompts(load, s.numPrompts),
    ...(load.kind === 'concurrency' ? { maxConcurrency: load.value } : { requestRate: load.value }),
  }));
}

/**
 * One side's rows: validation's own from the journal (a resumed run measures nothing twice), else
 * a tuning row of the same variant and scenario when it is a full measurement made as validation
 * measures (reusableForValidation: not one stopped early, nor one of a session whose tuning used
 * dummy weights and ignore_eos); the rest measured in one launch, journaled under validation's key.
 */
async function measureSide(
  ctx: SessionContext,
  side: VariantResult,
  scenarios: readonly Scenario[],
  earlier = false,
): Promise<Map<string, VariantResult>> {
  const byScenario = new Map<string, VariantResult>();
  const missing: Scenario[] = [];
  const tuningDummy = ctx.plan.dummyWeights?.used === true;
  for (const s of scenarios) {
    const hit = journaledForValidation((id, key, rep) => ctx.journal.find(id, key, rep), side.variantId, scenarioKey(s), tuningDummy);
    if (hit) byScenario.set(s.name, hit);
    else missing.push(s);
  }
  // The baseline side: what an earlier run folder measured on the same setup (baseline-reuse.ts).
  const found = earlier && missing.length ? earlierBaseline(ctx, side, missing) : new Map();
  if (found.size) ctx.emit({ type: 'warning', message: reusedLine(side, found) });
  for (const [name, f] of found)
    ctx.journal.record('validate', 0, f.result, validationKey(scenarioKey(missing.find((s) => s.name === name)!)));
  for (const [name, f] of found) byScenario.set(name, f.result);
  missing.splice(0, missing.length, ...missing.filter((s) => !found.has(s.name)));
  if (!missing.length) return byScenario;
  const results = await ctx.run(side.variant, missing, { stage: 'validation', skipSignal: ctx.control.nextSkipSignal(side.variant.id) });
  ctx.cost.addLaunch(ctx.emit, 'validation', results[0]);
  for (const [i, r] of results.entries()) {
    const s = missing[i]!;
    ctx.journal.record('validate', 0, r, validationKey(scenarioKey(s)));
    byScenario.set(s.name, r);
  }
  return byScenario;
}

/** The before/after table; empty when there is no validation set or no baseline. */
export async function validateWinner(
  ctx: SessionContext,
  baseline: VariantResult | null,
  winner: VariantResult,
  load?: SweepLoad,
): Promise<ValidationRow[]> {
  const scenarios = load ? validationAtLoad(ctx.config.validation, load) : ctx.config.validation;
  if (!scenarios.length || !baseline) return [];
  // With a replica plan the baseline was measured on one replica: validation runs it on the whole
  // host, as the winner's chosen layout does (tune/plan/replica.ts).
  const r = ctx.plan.replica;
  const tuningDummy = ctx.plan.dummyWeights?.used === true;
  // A failed tuning row is taken back as it is (reusableForValidation): the phrase must say so.
  const baseId = baseline.variantId;
  const reused =
    !r &&
    scenarios.some((s) => {
      const tuning = ctx.journal.find(baseId, scenarioKey(s), 0);
      return tuning !== undefined && reusableForValidation(tuning.result, tuningDummy);
    });
  const why = baselineWhy(baseline, ctx.config.baseline, reused);
  if (r) {
    const v = wholeHostVariant(ctx.config, baseline.variant, r.hostGpus, ctx.planDeps.model(baseline.variant.model));
    baseline = { ...baseline, variantId: v.id, variant: v };
  }
  ctx.emit({
    type: 'validation-started',
    scenarios: scenarios.map((s) => s.name),
    baselineId: baseline.variantId,
    baselineWhy: why,
    winnerId: winner.variantId,
  });
  const base = await measureSide(ctx, baseline, scenarios, true);
  const optimized = baseline.variantId === winner.variantId ? base : await measureSide(ctx, winner, scenarios);
  // The guard across workloads: every row judged by the noise rule the stages decide by.
  const rows = validationTable(scenarios, base, optimized, effectiveMarginPct(ctx.config.marginPct, ctx.noise));
  ctx.emit({ type: 'validation-finished', rows });
  return rows;
}
