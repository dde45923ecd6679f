// The stage loop: each planned stage in order, its candidates re-expanded from the real winner,
// every variant measured (or filed with its prune reason), the stage decided once and the verdict
// emitted. A stop request or a first stage with no success skips the rest, each with its reason.
import type { VariantResult } from '../../core/events.js';
import type { StageRecord } from '../../profiles/schema/profile.js';
import { judgeWithoutRepeats, measureStage, settleTies } from './measure-stage.js';
import { expandStage } from '../plan/plan.js';
import type { PlannedVariant, PlanStage } from '../plan/types.js';
import type { SessionContext } from '../context/session-context.js';
import { decideStageVerdict, skippedVerdict } from '../decide/stage-verdict.js';
import { stageSlo } from '../config/config.js';
import { measureStageOnBudget } from './budget-stage.js';
import { cheapestLaunchGpuHours, nextStage } from './budget-next-stage.js';
import { stageTie } from './noise-record.js';

export interface StageLoopState {
  /** The winner carried forward so far. */
  carried: VariantResult | null;
  /** The session's baseline, chosen in the engine stage. */
  baseline: VariantResult | null;
  stages: StageRecord[];
  notes: string[];
  /** Why later stages do not run, once something stopped the loop. */
  stopped: string | null;
}

export function initialStageState(notes: readonly string[]): StageLoopState {
  return { carried: null, baseline: null, stages: [], notes: [...notes], stopped: null };
}

interface Candidates {
  variants: PlannedVariant[];
  skipped?: string;
  notes: string[];
}

/** The stage's candidates: the plan's for the engine stage, else re-expanded from the real winner. */
function candidatesFor(ctx: SessionContext, planned: PlanStage, carried: VariantResult | null): Candidates {
  if (planned.name === 'engine')
    return { variants: planned.variants, ...(planned.skipped ? { skipped: planned.skipped } : {}), notes: planned.notes };
  if (!carried) return { variants: [], skipped: 'no variant has succeeded yet', notes: planned.notes };
  // The plan's expansion followed the predicted path; the real winner may differ.
  const fresh = expandStage(planned.name, carried.variant, {
    config: ctx.config,
    host: ctx.planHost,
    deps: ctx.planDeps,
    fp8Checkpoint: ctx.plan.fp8Checkpoint,
    replica: ctx.plan.replica ?? null,
  });
  return { variants: fresh.variants, ...(fresh.skipped ? { skipped: fresh.skipped } : {}), notes: fresh.notes };
}

function skipStage(ctx: SessionContext, state: StageLoopState, name: string, index: number, why: string, announce: boolean): void {
  state.stages.push({ name, winnerId: state.carried?.variantId ?? null, gainPct: null, skipped: why, results: [] });
  if (announce)
    ctx.emit({ type: 'stage-started', stage: name, index, variants: [], carriedId: state.carried?.variantId ?? null, skipped: why });
  ctx.emit({ type: 'stage-finished', ...skippedVerdict(name, state.carried, state.baseline, why) });
}

/** Run one stage and file its verdict in `state`. */
export async function runStage(ctx: SessionContext, state: StageLoopState, planned: PlanStage, index: number): Promise<void> {
  const name = planned.name;
  if (state.stopped) return skipStage(ctx, state, name, index, state.stopped, true);
  const c = candidatesFor(ctx, planned, state.carried);
  const carriedId = state.carried?.variantId ?? null;
  ctx.emit({
    type: 'stage-started',
    stage: name,
    index,
    variants: c.variants.map((v) => v.variant.id),
    carriedId,
    ...(c.skipped ? { skipped: c.skipped } : {}),
  });
  if (c.skipped) return skipStage(ctx, state, name, index, c.skipped, false);

  // With a replica plan, the parallelism stage compares whole-host layouts among themselves: the
  // carried one-replica result is on fewer GPUs, no reference for them (tune/plan/replica.ts).
  const layouts = !!ctx.plan.replica && name === 'parallelism';
  const against = layouts ? null : state.carried;
  // Under --budget the budget rule measures the stage, and no adaptive repeats run (budget-stage.ts).
  const measured = ctx.budget ? await measureStageOnBudget(ctx, c.variants, against) : await measureStage(ctx, c.variants, against);
  const settled = ctx.budget ? judgeWithoutRepeats(ctx, against, measured) : await settleTies(ctx, name, against, measured);
  const results = settled.results;
  const { config } = ctx;
  const out = decideStageVerdict(name, layouts ? state.carried : settled.carried, state.baseline, results, {
    ...(layouts ? { layouts: true } : {}),
    objective: config.objective,
    slo: stageSlo(config),
    marginPct: config.marginPct,
    ...(config.maxFailedPct !== undefined ? { maxFailedPct: config.maxFailedPct } : {}),
    ...(config.baseline ? { baseline: config.baseline } : {}),
    ...(settled.step ? { repeats: settled.step } : {}),
    ...(ctx.noise ? { noise: ctx.noise } : {}),
  });
  for (const message of out.warnings) ctx.emit({ type: 'warning', message });
  state.carried = out.winner;
  state.baseline = out.baseline;
  state.stages.push({
    name,
    winnerId: out.verdict.winnerId,
    gainPct: out.verdict.gainPct,
    results,
    ...(out.verdict.notEligible ? { notEligible: out.verdict.notEligible } : {}),
    ...stageTie(out.verdict),
  });
  ctx.emit({ type: 'stage-finished', ...out.verdict });
  state.notes.push(`${name}: ${out.verdict.why}`);
  for (const n of c.notes) if (!state.notes.includes(n)) state.notes.push(n);
  if (!state.carried) state.stopped = 'no variant of the engine stage succeeded';
  else if (ctx.control.stopRequested) state.stopped = `stopped by the user after the ${name} stage`;
}

export async function runStages(ctx: SessionContext, state: StageLoopState): Promise<void> {
  if (ctx.budget) return runStagesOnBudget(ctx, state);
  for (const [index, planned] of ctx.plan.stages.entries()) await runStage(ctx, state, planned, index);
}

/** --budget: the stages in the order of expected gain per GPU-hour; none once the budget cannot pay for a launch. */
async function runStagesOnBudget(ctx: SessionContext, state: StageLoopState): Promise<void> {
  const pending = [...ctx.plan.stages];
  for (let index = 0; pending.length; index++) {
    const candidates = (s: PlanStage) => candidatesFor(ctx, s, state.carried).variants;
    const next = state.stopped ? { at: 0 } : nextStage(ctx, pending, state.carried, candidates);
    const [planned] = pending.splice(next.at, 1);
    const cheapest = cheapestLaunchGpuHours(ctx, candidates(planned!));
    if (!state.stopped && index > 0 && cheapest > 0 && !ctx.budget!.canPay(cheapest))
      state.stopped = ctx.budget!.cannotPay('another launch', cheapest);
    if (next.note && !state.stopped) ctx.emit({ type: 'budget-state', state: ctx.budget!.state(), note: next.note });
    await runStage(ctx, state, planned!, index);
  }
}
