// The records one variant run leaves: a failed result, a measured one (in simulated units on the
// simulated host, with its bench JSON saved beside the run), and the GPUs a parallel launch was
// pinned to. runner.ts builds them; nothing here launches or measures.
import { groupErrors } from '../../core/failed-share.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Failure, VariantResult } from '../../core/events.js';
import { log } from '../../core/logger.js';
import type { Variant } from '../../core/variant.js';
import { writeFileAtomic } from '../../core/atomic-write.js';
import type { Scenario } from '../../core/scenario.js';
import { scenarioKey } from '../launch/workloads.js';
import type { RunVariantContext, ServerStart } from './contract/types.js';
import { resultJson } from '../../bench/output/save.js';
import { toSimulated } from '../../bench/metrics/simulated.js';
import type { BenchResult } from '../../bench/types.js';
import { cacheMetrics } from '../../bench/metrics/cache.js';
import { turnMetrics } from '../../bench/multiturn/turn-metrics.js';

/** What the traffic's shape adds to a result: the prefix cache's hit rate, multi-turn TTFT by turn. */
function trafficFigures(measured: BenchResult): Partial<VariantResult> {
  const cache = cacheMetrics(measured.outputs);
  const turns = turnMetrics(measured);
  return {
    ...(cache
      ? {
          cache: {
            hitRate: cache.cache_hit_rate,
            possibleReuse: cache.cache_possible_reuse,
            ...(cache.cache_warm_before_run ? { warmBeforeRun: true } : {}),
          },
        }
      : {}),
    ...(turns?.turn_index.length ? { turnTtftMs: turns.turn_mean_ttft_ms } : {}),
    ...(turns ? { conversationsPerS: turns.conversation_throughput } : {}),
  };
}

/** A server that came up: what its results carry. */
export type Up = Extract<ServerStart, { ok: true }>;

/**
 * The GPU ids a parallel launch was pinned to, for its results. Not on Slurm: there Slurm places
 * and pins each job, and the launch records the GPUs it was given (tune/run/slurm/start.ts recordGpus).
 */
export const pinned = (ctx: RunVariantContext): Partial<VariantResult> =>
  ctx.gpuIds && ctx.config.runtime.kind !== 'slurm' ? { gpuIds: [...ctx.gpuIds] } : {};

export function failedResult(
  variant: Variant,
  scenario: string,
  ctx: RunVariantContext,
  failure: Failure,
  started: Date,
  extra: Partial<VariantResult> = {},
): VariantResult {
  return {
    variantId: variant.id,
    stage: ctx.stage,
    scenario,
    status: failure.kind === 'skipped' ? 'skipped' : 'failed',
    variant,
    argv: [],
    failure,
    ...(ctx.predicted ? { predicted: ctx.predicted } : {}),
    ...(ctx.config.sim ? { simulated: true } : {}),
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    ...extra,
  };
}

function saveBenchJson(ctx: RunVariantContext, variant: Variant, scenario: Scenario, measured: BenchResult): void {
  if (!ctx.benchDir) return;
  try {
    mkdirSync(ctx.benchDir, { recursive: true });
    writeFileAtomic(join(ctx.benchDir, `${variant.id}-${scenarioKey(scenario)}.json`), JSON.stringify(resultJson(measured)) + '\n');
  } catch (e) {
    log.warn(`could not save the bench JSON of ${variant.id}: ${(e as Error).message}`);
  }
}

/** The result of one finished benchmark, in simulated units on the simulated host. */
export function measuredResult(
  variant: Variant,
  scenario: Scenario,
  first: boolean,
  bench: BenchResult,
  up: Up,
  ctx: RunVariantContext,
  t0: Date,
): VariantResult {
  const sim = ctx.config.sim;
  const measured = sim ? toSimulated(bench, up.speed) : bench;
  saveBenchJson(ctx, variant, scenario, measured);
  const ok = measured.metrics.completed > 0;
  return {
    variantId: variant.id,
    stage: ctx.stage,
    scenario: scenario.name,
    status: ok ? 'ok' : 'failed',
    variant,
    ...up.base,
    metrics: measured.metrics,
    ...(ok
      ? {}
      : {
          failure: {
            kind: 'bench-failed',
            reason: `all ${measured.metrics.failed} requests failed`,
            evidence: measured.outputs.slice(0, 3).map((o) => o.error),
          },
        }),
    startupS: up.startupS,
    // Some requests failed: what they said, so a partial success keeps its reasons (--max-failed).
    ...(ok && measured.metrics.failed > 0
      ? { requestErrors: groupErrors(measured.outputs.filter((o) => !o.success).map((o) => o.error || 'no error text')) }
      : {}),
    ...(ctx.predicted && first ? { predicted: ctx.predicted } : {}),
    ...(sim ? { simulated: true } : {}),
    ...(measured.clientBound ? { clientBound: true } : {}),
    ...trafficFigures(measured),
    startedAt: t0.toISOString(),
    finishedAt: new Date().toISOString(),
  };
}
