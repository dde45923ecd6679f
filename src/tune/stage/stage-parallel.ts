// How many variants of a stage run at once, and on which GPUs (parallel.ts does the scheduling):
// --parallel off|N|auto; auto takes what the GPUs allow unless the host's CPU cannot drive every
// benchmark client at once (then it says it held back). Variants alone in their wave are not
// pinned, so a one-at-a-time session launches exactly the command it always did.
import { isGpuEngine } from '../../core/variant.js';
import os from 'node:os';
import type { PlannedVariant } from '../plan/types.js';
import { gpuEnv, parallelLimit, planWaves, type ClientBudget, type ParallelLimit, type Slot } from './parallel.js';
import type { SessionContext } from '../context/session-context.js';
import { CLIENT_EVENT_BUDGET } from '../launch/simspeed.js';
import { gpusHeld } from '../../model/layout.js';

/**
 * The client CPU each running variant needs. One benchmark client handles CLIENT_EVENT_BUDGET
 * events/s on about a quarter of a core (simspeed.ts, bench/client-ceiling); a variant gets one
 * core for its client at least, more when its predicted peak event rate (x the simulated clock)
 * needs it. On the simulated host the server (sim-serve) runs here too: one more core.
 */
export function clientBudget(
  ctx: Pick<SessionContext, 'config'>,
  planned: readonly PlannedVariant[],
  cores = os.availableParallelism(),
): ClientBudget {
  const speed = ctx.config.sim?.speed ?? 1;
  const peak = Math.max(0, ...planned.map((p) => (p.predicted?.peakEventsPerS ?? 0) * speed));
  const perClient = Math.max(1, Math.ceil(peak / (4 * CLIENT_EVENT_BUDGET)));
  return { cores, coresPerClient: perClient + (ctx.config.sim ? 1 : 0) };
}

export interface StageSchedule {
  limit: ParallelLimit;
  waves: Slot[][];
}

export function stageSchedule(
  ctx: Pick<SessionContext, 'config' | 'planHost'>,
  planned: readonly PlannedVariant[],
  cores?: number,
): StageSchedule {
  const hostGpus = ctx.planHost.gpuCount;
  // llama.cpp computes on the host's CPU (all of it by default): its variants run one at a time.
  if (!hostGpus || planned.some((p) => !isGpuEngine(p.variant.engine))) {
    const why = hostGpus ? "llama.cpp uses the host's CPU: one variant at a time" : 'no GPU: one variant at a time on the CPU';
    return {
      limit: { limit: 1, why },
      waves: planned.map((p) => [{ id: p.variant.id, gpuIds: [], port: ctx.config.portStart, ...gpuEnv([]) }]),
    };
  }
  const variants = planned.map((p) => ({
    id: p.variant.id,
    gpus: Math.min(hostGpus, Math.max(1, gpusHeld(p.variant.engine, p.variant.knobs))),
  }));
  const spec = ctx.config.parallel ?? 'auto';
  const limit = variants.length
    ? parallelLimit(spec, variants, hostGpus, clientBudget(ctx, planned, cores))
    : { limit: 1, why: 'nothing to run' };
  const ids = Array.from({ length: hostGpus }, (_, i) => i);
  return { limit, waves: planWaves(variants, ids, limit.limit, { base: ctx.config.portStart }) };
}
