// Measuring one planned variant on the tuning scenario: each repeat taken from the journal when
// it is there (resume), run otherwise and journaled at once; a variant that fails once is not
// retried. Emits variant-finished exactly once, with the repeats combined.
import type { VariantResult } from '../core/events.js';
import { combineRepeats } from './decide.js';
import type { PlannedVariant } from './plan.js';
import { scenarioKey } from './workloads.js';
import type { SessionContext } from './session-context.js';

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

export async function measureVariant(ctx: SessionContext, planned: PlannedVariant): Promise<VariantResult> {
  const { config, journal } = ctx;
  const key = scenarioKey(config.scenario);
  const runs: VariantResult[] = [];
  for (let repeat = 0; repeat < config.repeats; repeat++) {
    const hit = journal.find(planned.variant.id, key, repeat);
    if (hit) {
      runs.push(hit.result);
      continue;
    }
    const request = { stage: planned.stage, skipSignal: ctx.control.nextSkipSignal(), ...(planned.predicted ? { predicted: planned.predicted } : {}) };
    const [first] = await ctx.run(planned.variant, [config.scenario], request);
    const result = { ...first!, stage: planned.stage };
    journal.record('tune', repeat, result, key);
    runs.push(result);
    if (result.status !== 'ok') break;
  }
  const combined = { ...combineRepeats(runs), stage: planned.stage };
  ctx.emit({ type: 'variant-finished', result: combined });
  warnClientBound(ctx, combined);
  return combined;
}
