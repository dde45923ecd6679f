// Measuring one stage's variants: waves of variants on disjoint GPUs (stage-parallel.ts), the
// predicted fastest first (run-order.ts; results come back in the listed order), each
// benchmark watched for early stop against the stage's leader so far, then adaptive repeats
// while the best two are within the noise margin (repeats.ts). Returns the results the stage is
// decided on (medians where repeats ran) and the carried winner's median when it was re-run.
import type { VariantResult } from '../../core/events.js';
import type { StageName } from '../config/config.js';
import { AbortedError } from '../../core/aborted.js';
import { score } from '../decide/decide.js';
import { effectiveMarginPct } from '../../core/noise-rule.js';
import { addRuns, recordRuns, runCount, sessionValues, updateNoise } from './noise-runs.js';
import type { EarlyStopRequest } from '../run/contract/types.js';
import { announce, combineRuns, measureRepeat, measureRuns } from './measure-variant.js';
import type { PlannedVariant } from '../plan/types.js';
import { DEFAULT_REPEATS_MAX, nextRepeatStep, type RepeatStep } from '../decide/repeats.js';
import { isCutShort } from '../decide/repeat-candidates.js';
import type { SessionContext } from '../context/session-context.js';
import { runOrder } from './run-order.js';
import { stageSchedule } from './stage-parallel.js';
import { baselineInFull, openStage, runWave } from './wave.js';

/**
 * The leader a variant must be able to beat to keep running: the best eligible result so far, with
 * the margin the tied set judges one run against the leader's runs by (the larger of --margin and
 * the host's noise, noise-rule.ts). With --margin alone, a 2-core host whose runs spread ±13% lost
 * challengers the tied set would have kept, and two sessions' tied sets then differed by whichever
 * a noisy early window had cut.
 */
export function earlyStopLeader(ctx: SessionContext, sofar: readonly (VariantResult | null)[]): EarlyStopRequest | undefined {
  const { config } = ctx;
  if (config.earlyStop === false) return undefined;
  const opts = { objective: config.objective, slo: config.slo, maxFailedPct: config.maxFailedPct };
  let best: { r: VariantResult; v: number } | undefined;
  for (const r of sofar) {
    if (!r) continue;
    const s = score(r, opts);
    if (s.eligible && s.value !== null && (!best || s.value > best.v)) best = { r, v: s.value };
  }
  if (!best?.r.metrics) return undefined;
  return {
    leaderId: best.r.variantId,
    objective: config.objective,
    value: best.v,
    leaderInputTokens: best.r.metrics.total_input_tokens,
    marginPct: effectiveMarginPct(config.marginPct, ctx.noise, Math.max(1, runCount(ctx, best.r.variantId)), 1),
  };
}

export interface StageRuns {
  results: VariantResult[];
  /** Every run of each variant, by id (repeats included). */
  runs: Map<string, VariantResult[]>;
}

/** Every variant of the stage, in waves; one failure does not stop the others; an abort stops all. */
export async function measureStage(
  ctx: SessionContext,
  variants: readonly PlannedVariant[],
  carried: VariantResult | null,
): Promise<StageRuns> {
  const { byId, runs } = openStage(ctx, variants, ctx.config.scenario.name);
  const planned = runOrder(variants.filter((v) => v.status === 'planned'));
  const { limit, waves } = stageSchedule(ctx, planned);
  if (limit.heldBack && waves.some((w) => w.length > 1 || planned.length > 1)) ctx.emit({ type: 'warning', message: limit.heldBack });
  for (const wave of waves) {
    if (ctx.signal?.aborted) throw new AbortedError();
    const leader = earlyStopLeader(ctx, [carried, ...byId.values()]);
    // The baseline validation will take this stage's row from runs in full (baseline-in-full.ts).
    const inFull = baselineInFull(ctx, variants, byId);
    const shared = wave.length > 1;
    const tasks = wave.map((slot) => {
      const p = planned.find((v) => v.variant.id === slot.id)!;
      const watched = leader && leader.leaderId !== p.variant.id && p.variant.id !== inFull;
      const extras = { ...(watched ? { earlyStop: leader } : {}), ...(shared ? { gpuIds: slot.gpuIds, portFrom: slot.port } : {}) };
      return { planned: p, measure: () => measureRuns(ctx, p, extras) };
    });
    await runWave(ctx, tasks, (p, list) => {
      runs.set(p.variant.id, list);
      const c = announce(ctx, combineRuns(list, p.stage));
      byId.set(p.variant.id, c);
      return c;
    });
  }
  if (ctx.signal?.aborted) throw new AbortedError();
  return { results: variants.map((v) => byId.get(v.variant.id)!), runs };
}

export interface Settled {
  results: VariantResult[];
  carried: VariantResult | null;
  /** The runs' last word (null when fewer than two results had a value). */
  step: Extract<RepeatStep, { action: 'decide' }> | null;
  /** True when any variant ran more than once here. */
  repeated: boolean;
}

/**
 * The stage's runs judged as tied sets under the host's noise (repeats.ts): while the best two
 * (the carried winner included) cannot be told apart, or the noise is still unknown, both run
 * once more in reverse order, up to --repeats-max runs each; medians replace single runs. Every
 * run feeds the session's noise (noise-runs.ts).
 */
export async function settleTies(ctx: SessionContext, stage: string, carried: VariantResult | null, measured: StageRuns): Promise<Settled> {
  const { config } = ctx;
  const max = config.repeatsMax ?? DEFAULT_REPEATS_MAX;
  const runs = new Map<string, VariantResult[]>();
  if (carried) runs.set(carried.variantId, [carried]);
  // A run early stop cut short stays in view: the tie-break may want it measured in full (repeats.ts).
  for (const r of measured.results) if (r.status === 'ok' || isCutShort(r)) runs.set(r.variantId, measured.runs.get(r.variantId) ?? [r]);
  for (const r of measured.results) if (r.status === 'ok') recordRuns(ctx, r.variantId, measured.runs.get(r.variantId) ?? [r]);
  updateNoise(ctx);
  let repeated = false;
  for (;;) {
    const opts = {
      objective: config.objective,
      slo: config.slo,
      maxFailedPct: config.maxFailedPct,
      marginPct: config.marginPct,
      repeatsMax: max,
      values: sessionValues(ctx, [...runs.keys()]),
      ...(carried ? { keptId: carried.variantId } : {}),
      ...(ctx.noise ? { noise: ctx.noise } : {}),
      ...(ctx.noise && !ctx.ownNoise ? { noiseFromPriorOnly: true } : {}),
    };
    const step = nextRepeatStep(runs, opts);
    if (step.action === 'decide' || max <= 1) {
      return { ...medians(ctx, stage, carried, measured.results, runs, repeated), step: step.action === 'decide' ? step : null, repeated };
    }
    repeated = true;
    ctx.emit({ type: 'confirm-started', stage, variantIds: step.variantIds, why: step.why });
    const lists = step.variantIds.map((id) => runs.get(id)!);
    const before = lists.map((l) => l.length);
    await rerunPair(ctx, stage as StageName, lists, max);
    lists.forEach((l, i) => addRuns(ctx, l[0]!.variantId, l.slice(before[i]!)));
    updateNoise(ctx);
  }
}

/**
 * The same judgement without reruns (the budget rule spends no launch on repeats): tied sets under
 * whatever noise the session measured, and the declared tie-break among them.
 */
export function judgeWithoutRepeats(ctx: SessionContext, carried: VariantResult | null, measured: StageRuns): Settled {
  const runs = new Map<string, VariantResult[]>();
  if (carried) runs.set(carried.variantId, [carried]);
  for (const r of measured.results) if (r.status === 'ok') runs.set(r.variantId, measured.runs.get(r.variantId) ?? [r]);
  for (const r of measured.results) if (r.status === 'ok') recordRuns(ctx, r.variantId, measured.runs.get(r.variantId) ?? [r]);
  updateNoise(ctx);
  const { config } = ctx;
  const step = nextRepeatStep(runs, {
    objective: config.objective,
    slo: config.slo,
    marginPct: config.marginPct,
    repeatsMax: 1,
    values: sessionValues(ctx, [...runs.keys()]),
    ...(ctx.noise ? { noise: ctx.noise } : {}),
  });
  return { results: measured.results, carried, step: step.action === 'decide' ? step : null, repeated: false };
}

/** One more run of each of the two, at once on disjoint GPUs when they fit (as a stage's wave would). */
async function rerunPair(ctx: SessionContext, stage: StageName, lists: VariantResult[][], max: number): Promise<void> {
  if (ctx.signal?.aborted) throw new AbortedError();
  const planned = lists.map((l) => ({
    variant: l[0]!.variant,
    stage,
    change: 'repeat',
    status: 'planned' as const,
    warnings: [],
    ...(l[0]!.predicted ? { predicted: l[0]!.predicted } : {}),
  }));
  for (const wave of stageSchedule(ctx, planned).waves) {
    const shared = wave.length > 1;
    const tasks = wave.map((slot) => {
      const i = planned.findIndex((p) => p.variant.id === slot.id);
      const extras = shared ? { gpuIds: slot.gpuIds, portFrom: slot.port } : {};
      return {
        planned: planned[i]!,
        measure: async () => [
          await measureRepeat(ctx, planned[i]!, Math.max(lists[i]!.length, runCount(ctx, planned[i]!.variant.id)), extras, max),
        ],
      };
    });
    await runWave(ctx, tasks, (p, [r]) => {
      lists[planned.findIndex((q) => q.variant.id === p.variant.id)]!.push(r!);
      return r!;
    });
  }
}

function medians(
  ctx: SessionContext,
  stage: string,
  carried: VariantResult | null,
  results: readonly VariantResult[],
  runs: Map<string, VariantResult[]>,
  repeated: boolean,
) {
  if (!repeated) return { results: [...results], carried };
  const out = results.map((r) => {
    const list = runs.get(r.variantId);
    return list && list.length > 1 ? announce(ctx, combineRuns(list, stage)) : r;
  });
  const c = carried ? runs.get(carried.variantId) : undefined;
  return { results: out, carried: carried && c && c.length > 1 ? combineRuns(c, carried.stage) : carried };
}
