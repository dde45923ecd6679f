// One wave of a stage: the variants that run at once on disjoint GPUs (stage-parallel.ts), and the
// opening every stage shares before its first wave. The one owner of both for a stage's waves,
// the adaptive repeats' re-run pair (measure-stage.ts) and the budget rule's stage (budget-stage.ts).
import type { VariantResult } from '../../core/events.js';
import { AbortedError } from '../../core/aborted.js';
import type { PlannedVariant } from '../plan/types.js';
import { fullRunBaselineId } from '../plan/baseline-in-full.js';
import type { SessionContext } from '../context/session-context.js';
import { announce, resultFromPlanned } from './measure-variant.js';
import { runParallel } from './parallel.js';

/** A stage's results so far: each variant's combined result, and every run of it (repeats included). */
export interface StageMaps {
  byId: Map<string, VariantResult>;
  runs: Map<string, VariantResult[]>;
}

/** The stage opens: the variants that will not run (pruned, dropped) are announced as they are. */
export function openStage(ctx: SessionContext, variants: readonly PlannedVariant[], scenario: string): StageMaps {
  const byId = new Map<string, VariantResult>();
  for (const p of variants.filter((v) => v.status !== 'planned')) byId.set(p.variant.id, announce(ctx, resultFromPlanned(p, scenario)));
  return { byId, runs: new Map() };
}

/** The variant the baseline validation will take this stage's row from: it runs in full (baseline-in-full.ts). */
export function baselineInFull(
  ctx: SessionContext,
  variants: readonly PlannedVariant[],
  known: ReadonlyMap<string, VariantResult>,
): string | null {
  return fullRunBaselineId(
    { config: ctx.config, replica: ctx.plan.replica, tuningDummyWeights: ctx.plan.dummyWeights?.used === true },
    variants,
    known,
  );
}

function crashResult(ctx: SessionContext, planned: PlannedVariant, reason: unknown): VariantResult {
  const r = resultFromPlanned(planned, ctx.config.scenario.name);
  return {
    ...r,
    status: 'failed',
    failure: { kind: 'crash', reason: `servelab failed while measuring it: ${(reason as Error)?.message ?? String(reason)}` },
  };
}

/** One variant of a wave: what it is and how to measure it (its runs, in order). */
export interface WaveTask {
  planned: PlannedVariant;
  measure: () => Promise<VariantResult[]>;
}

/**
 * Run a wave's tasks at once. An abort is rethrown; a task that threw counts as a crash result, so
 * one failure does not stop the others. `settle` files each variant's runs (in the wave's order)
 * and returns the result whose GPU time the wave costs.
 */
export async function runWave(
  ctx: SessionContext,
  tasks: readonly WaveTask[],
  settle: (planned: PlannedVariant, runs: VariantResult[]) => VariantResult,
): Promise<void> {
  const outcomes = await runParallel(
    tasks.map((t) => () => t.measure()),
    tasks.length,
    ctx.signal,
  );
  if (ctx.signal?.aborted) throw new AbortedError();
  const counted: VariantResult[] = [];
  for (const [i, o] of outcomes.entries()) {
    const p = tasks[i]!.planned;
    if (o.status === 'rejected' && o.reason instanceof AbortedError) throw o.reason;
    const list = o.status === 'fulfilled' ? o.value : [crashResult(ctx, p, o.status === 'rejected' ? o.reason : 'not started')];
    counted.push(settle(p, list));
  }
  ctx.cost.addWave(counted);
}
