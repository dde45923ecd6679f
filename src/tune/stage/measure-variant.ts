// Measuring one planned variant on the tuning scenario: each repeat taken from the journal when
// it is there (resume), run otherwise and journaled at once; a variant that fails once is not
// retried. Emits variant-finished exactly once, with the repeats combined.
import type { VariantGpuTime, VariantResult } from '../../core/events.js';
import { addGpuTime } from '../cost/variant-cost.js';
import { combineRepeats } from '../decide/decide.js';
import type { PlannedVariant } from '../plan/types.js';
import { scenarioKey } from '../launch/workloads.js';
import { stageScenario } from '../plan/replica.js';
import type { RunRequest, SessionContext } from '../context/session-context.js';
import { qualityRequest, qualityWarnings, withQuality } from './quality-check.js';
import { servedName } from '../../engines/index.js';

/** A planned variant that does not run (pruned, dropped) as a result, with its reason. */
export function resultFromPlanned(planned: PlannedVariant, scenario: string): VariantResult {
  const now = new Date().toISOString();
  return {
    variantId: planned.variant.id,
    stage: planned.stage,
    scenario,
    status: planned.status === 'pruned' ? 'pruned' : 'skipped',
    variant: planned.variant,
    argv: planned.argv ?? [],
    ...(planned.engineArgv ? { engineArgv: planned.engineArgv } : {}),
    ...(planned.env ? { env: planned.env } : {}),
    ...(planned.reason ? { failure: planned.reason } : {}),
    ...(planned.predicted ? { predicted: planned.predicted } : {}),
    startedAt: now,
    finishedAt: now,
  };
}

function warnClientBound(ctx: SessionContext, r: VariantResult): void {
  if (!r.clientBound || ctx.warnedClientBound) return;
  ctx.warnedClientBound = true;
  const sim = ctx.config.sim;
  ctx.emit({
    type: 'warning',
    message: `the benchmark client was flagged as a bottleneck while measuring ${r.variantId} (event-loop lag or CPU): its figures may understate the server${
      sim && !sim.autoSpeed
        ? `; lower --speed (now ${sim.speed}) or use a less busy machine for figures you can compare`
        : '; other work on this machine is taking the CPU: run on a less busy machine for figures you can compare'
    }`,
  });
}

/** Extra request fields for one launch: early stop, GPU pinning, port. */
export type LaunchExtras = Pick<RunRequest, 'earlyStop' | 'gpuIds' | 'portFrom'>;

/**
 * Run (or take from the journal) repeat number `repeat` of a variant. Fresh runs are journaled at
 * once and carry their launch's GPU time; journal hits carry none (this session did not pay them).
 */
export async function measureRepeat(
  ctx: SessionContext,
  planned: Pick<PlannedVariant, 'variant' | 'stage' | 'predicted'>,
  repeat: number,
  extras: LaunchExtras = {},
  of = 1,
): Promise<VariantResult> {
  const { journal } = ctx;
  const scenario = stageScenario(ctx.config.scenario, ctx.plan.replica, planned.stage);
  const key = scenarioKey(scenario);
  const hit = journal.find(planned.variant.id, key, repeat);
  if (hit) {
    const { gpuTime: _paidBefore, ...r } = hit.result;
    return withQuality(ctx, r);
  }
  // Runs after the first say which they are ("run 2 of 3"): a view or a script tells them from a first launch.
  const run = repeat > 0 || of > 1 ? { run: { n: repeat + 1, of: Math.max(of, repeat + 1) } } : {};
  const quality = qualityRequest(ctx, planned.variant, planned.stage, repeat);
  const request = {
    stage: planned.stage,
    skipSignal: ctx.control.nextSkipSignal(planned.variant.id),
    ...(planned.predicted ? { predicted: planned.predicted } : {}),
    ...extras,
    ...run,
    ...(quality ? { quality } : {}),
  };
  const [first] = await ctx.run(planned.variant, [scenario], request);
  const result = withQuality(ctx, { ...first!, stage: planned.stage });
  qualityWarnings(ctx, result);
  journal.record('tune', repeat, result, key);
  return result;
}

/** Repeats combined into one result (medians), their GPU time added up. */
export function combineRuns(runs: readonly VariantResult[], stage: string): VariantResult {
  const { gpuTime: _first, ...combined } = combineRepeats(runs);
  const gpuTime = runs.reduce<VariantGpuTime | undefined>((a, r) => addGpuTime(a, r.gpuTime), undefined);
  return { ...combined, stage, ...(gpuTime ? { gpuTime } : {}) };
}

/** The variant's --repeats runs (stopping at the first failure), announced once, combined. */
export async function measureRuns(ctx: SessionContext, planned: PlannedVariant, extras: LaunchExtras = {}): Promise<VariantResult[]> {
  const runs: VariantResult[] = [];
  for (let repeat = 0; repeat < ctx.config.repeats; repeat++) {
    const result = await measureRepeat(ctx, planned, repeat, extras, ctx.config.repeats);
    runs.push(result);
    if (result.status !== 'ok') break;
  }
  return runs;
}

/** Announce a variant's (combined) result: the event, and the client-bound warning once. */
export function announce(ctx: SessionContext, combined: VariantResult): VariantResult {
  // The calibrated prediction is made before this measurement joins the host calibration (context/calibration.ts).
  // What it served rides on the row, so that every view's comparison table can name the file.
  const served = { ...combined, served: servedName(combined.variant) };
  const result = ctx.calibration ? ctx.calibration.annotate(served) : served;
  ctx.emit({ type: 'variant-finished', result });
  const summary = ctx.calibration?.observe(result);
  if (summary) ctx.emit({ type: 'calibration-updated', observations: ctx.calibration!.record()?.observations ?? 0, summary });
  warnClientBound(ctx, result);
  return result;
}
