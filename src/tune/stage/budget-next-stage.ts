// Under --budget, which stage runs next and whether any launch can still be paid: the stage order
// of the budget rule (src/tune/budget/rule.ts, docs/budget.md step 2), apart from the stage code
// that measures one stage (budget-stage.ts).
import type { VariantResult } from '../../core/events.js';
import { launchGpuHours, costHost } from '../budget/budget.js';
import { byGainPerCost, expectedGainPct, screenPrompts } from '../budget/rule.js';
import type { PlannedVariant, PlanStage } from '../plan/types.js';
import { stageScenario } from '../plan/replica.js';
import type { SessionContext } from '../context/session-context.js';
import { leaderValue, predictionOf } from './budget-stage.js';

/**
 * Which pending stage runs next: the engine stage first; with a replica plan the stages planned
 * before parallelism stay before it (their workload is one replica's); else the best expected
 * gain per GPU-hour of its candidates (the best candidate's gain over the stage's whole cost).
 */
export function nextStage(
  ctx: SessionContext,
  pending: readonly PlanStage[],
  carried: VariantResult | null,
  candidates: (s: PlanStage) => readonly PlannedVariant[],
): { at: number; note?: string } {
  if (pending[0]?.name === 'engine' || !carried) return { at: 0 };
  const order = ctx.plan.stages.map((s) => s.name);
  const par = pending.findIndex((s) => s.name === 'parallelism');
  const before = ctx.plan.replica && par >= 0 ? pending.filter((s) => order.indexOf(s.name) < order.indexOf('parallelism')) : [];
  const pool = ctx.plan.replica && par >= 0 ? (before.length ? before : [pending[par]!]) : pending;
  const leader = leaderValue(ctx, [carried]) ?? 0;
  const host = costHost(ctx.plan);
  const rated = pool.map((s) => {
    const list = candidates(s).filter((v) => v.status === 'planned');
    const sc = stageScenario(ctx.config.scenario, ctx.plan.replica, s.name);
    const gain = Math.max(
      0,
      ...list.map((p) => {
        const pred = predictionOf(ctx, p, sc.name);
        return pred && leader ? expectedGainPct(pred, leader) : 0;
      }),
    );
    const cost = ctx.budget!.estimate(list.reduce((a, p) => a + launchGpuHours(p, sc, host).total, 0));
    return { s, gain, cost };
  });
  const best = byGainPerCost(
    rated,
    (r) => r.gain,
    (r) => r.cost,
  )[0]!;
  const note = `next stage: ${best.s.name} (expected ${best.gain.toFixed(1)}% for ${best.cost.toFixed(2)} GPU-h${
    rated.length > 1
      ? `; then ${rated
          .filter((r) => r !== best)
          .map((r) => `${r.s.name} ${r.gain.toFixed(1)}%/${r.cost.toFixed(2)}`)
          .join(', ')}`
      : ''
  })`;
  return { at: pending.indexOf(best.s), note };
}

/** The cheapest launch any pending stage could make: a start-up and a short run. */
export function cheapestLaunchGpuHours(ctx: SessionContext, variants: readonly PlannedVariant[]): number {
  const host = costHost(ctx.plan);
  const sc = ctx.config.scenario;
  const list = variants
    .filter((v) => v.status === 'planned')
    .map((p) => ctx.budget!.estimate(launchGpuHours(p, sc, host, screenPrompts(sc.numPrompts) / sc.numPrompts).total));
  return list.length ? Math.min(...list) : 0;
}
