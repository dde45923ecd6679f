// A stage under `--budget`: the rules of src/tune/budget/rule.ts applied to one
// stage's variants, one launch at a time. (1) Variants whose calibrated upper bound stays below
// the leader by more than the margin are not launched. (2) The rest, by expected gain per
// GPU-hour, are screened by short runs where that costs less than full runs (successive
// halving). (3) The survivors run in full, watched by early stop. Before each launch the budget
// left must pay for it, else its row says it was not launched for want of budget. Adaptive
// repeats do not run under a budget: it pays for candidates, not re-runs. Also: which stage runs
// next (nextStage), by the best expected gain per GPU-hour of its candidates.
import { effectiveMarginPct } from '../../core/noise-rule.js';
import type { VariantResult } from '../../core/events.js';
import type { BudgetSkip, BudgetSkipKind } from '../../core/budget-events.js';
import type { Scenario } from '../../core/scenario.js';
import { score } from '../decide/decide.js';
import { launchGpuHours, costHost } from '../budget/budget.js';
import {
  byGainPerCost,
  expectedGainPct,
  fullShortRatio,
  notLaunchedWhy,
  screenCut,
  screeningPays,
  screenPrompts,
  ETA,
  type BudgetPrediction,
} from '../budget/rule.js';
import type { PlannedVariant } from '../plan/types.js';
import { sdOfMedianAbsPct } from '../../model/data/measured-error.js';
import { stageScenario } from '../plan/replica.js';
import { pending } from '../plan/baseline-in-full.js';
import { pickBaseline } from '../decide/validate.js';
import { scenarioKey } from '../launch/workloads.js';
import type { SessionContext } from '../context/session-context.js';
import { announce, combineRuns, measureRuns, resultFromPlanned } from './measure-variant.js';
import { earlyStopLeader, type StageRuns } from './measure-stage.js';
import { baselineInFull, openStage } from './wave.js';

interface Candidate {
  p: PlannedVariant;
  pred?: BudgetPrediction;
}

/** The prediction the rule reads: the session's calibrated one (prior until variants are measured). */
export function predictionOf(ctx: SessionContext, p: PlannedVariant, scenario: string): BudgetPrediction | undefined {
  const prior = p.predicted?.totalTokPerS;
  if (!prior) return undefined;
  const c = ctx.calibration?.annotate({ ...resultFromPlanned(p, scenario), status: 'ok' }).calibrated;
  return c
    ? { value: c.totalTokPerS, bandPct: c.bandPct, observations: c.observations }
    : { value: prior, bandPct: p.calibrated?.bandPct ?? priorBandPct(p.predicted), observations: 0 };
}

/**
 * The uncalibrated prior's band (1 s.d., %): the model's measured error at this engine and
 * concurrency where held-out runs cover them, else 30% (no measured runs: llama.cpp's prior, parts
 * and traffic outside the table), wide enough that the prior alone rarely keeps a variant back.
 */
function priorBandPct(predicted: PlannedVariant['predicted']): number {
  return predicted?.errorPct !== undefined ? sdOfMedianAbsPct(predicted.errorPct) : 30;
}

/** The leader's value: the best eligible result measured in full so far (the carried winner in later stages). */
export function leaderValue(ctx: SessionContext, results: readonly (VariantResult | null)[]): number | undefined {
  let best: number | undefined;
  for (const r of results) {
    if (!r || r.partial) continue;
    const s = score(r, { objective: ctx.config.objective, slo: ctx.config.slo, maxFailedPct: ctx.config.maxFailedPct });
    if (s.eligible && s.value !== null && (best === undefined || s.value > best)) best = s.value;
  }
  return best;
}

/** A variant the budget keeps from its run: its row, the skip event, the profile's record. */
function skip(
  ctx: SessionContext,
  p: PlannedVariant,
  kind: BudgetSkipKind,
  why: string,
  scenario: string,
  from?: VariantResult,
): VariantResult {
  const base = from ?? resultFromPlanned(p, scenario);
  const { gpuTime, ...rest } = base;
  const r: VariantResult = { ...rest, ...(gpuTime ? { gpuTime } : {}), status: 'pruned', failure: { kind: 'pruned', reason: why } };
  const s: BudgetSkip = { variantId: p.variant.id, stage: p.stage, kind, why };
  ctx.budget!.skipped.push(s);
  ctx.emit({ type: 'budget-skip', skip: s });
  return announce(ctx, r);
}

function emitState(ctx: SessionContext, note?: string): void {
  ctx.emit({ type: 'budget-state', state: ctx.budget!.state(), ...(note ? { note } : {}) });
}

/** One short run of a variant (journalled under the short scenario's key, so --resume reuses it). */
async function shortRun(ctx: SessionContext, p: PlannedVariant, short: Scenario): Promise<VariantResult> {
  const key = scenarioKey(short);
  const hit = ctx.journal.find(p.variant.id, key, 0);
  if (hit) {
    const { gpuTime: _paidBefore, ...r } = hit.result;
    return r;
  }
  const [first] = await ctx.run(p.variant, [short], {
    stage: p.stage,
    skipSignal: ctx.control.nextSkipSignal(p.variant.id),
    ...(p.predicted ? { predicted: p.predicted } : {}),
  });
  const r = { ...first!, stage: p.stage };
  ctx.journal.record('tune', 0, r, key);
  ctx.cost.addWave([r]);
  return r;
}

/** This session's variants measured both short and full (for the full/short ratio). */
const pairs: WeakMap<SessionContext, { full: number; short: number }[]> = new WeakMap();

/** Screening: a short run each, then the cut; returns the survivors. Dropped ones are filed in `byId`. */
async function screen(
  ctx: SessionContext,
  todo: Candidate[],
  scenario: Scenario,
  leader: number | undefined,
  exempt: Set<string>,
  byId: Map<string, VariantResult>,
): Promise<{ kept: Candidate[]; shorts: Map<string, VariantResult> }> {
  const prompts = screenPrompts(scenario.numPrompts);
  const short: Scenario = {
    ...scenario,
    name: `${scenario.name}-screen`,
    label: `${scenario.label}, short run (${prompts} of ${scenario.numPrompts} prompts)`,
    numPrompts: prompts,
  };
  const host = costHost(ctx.plan);
  const shorts = new Map<string, VariantResult>();
  for (const t of todo) {
    const est = launchGpuHours(t.p, scenario, host, prompts / scenario.numPrompts).total;
    const cost = ctx.budget!.estimate(est);
    if (!ctx.budget!.canPay(cost)) {
      byId.set(t.p.variant.id, skip(ctx, t.p, 'no-budget', `not launched: ${ctx.budget!.cannotPay('its short run', cost)}`, scenario.name));
      continue;
    }
    const r = await shortRun(ctx, t.p, short);
    if (r.status === 'ok') ctx.budget!.learn(est, r.gpuTime);
    shorts.set(t.p.variant.id, r);
    emitState(ctx);
  }
  // A short run that dropped too many requests (--max-failed) is never ranked: it could cut the others.
  const refused = (r: VariantResult) =>
    !!score(r, { objective: ctx.config.objective, slo: [], maxFailedPct: ctx.config.maxFailedPct }).notEligible;
  const rows = [...shorts].map(([id, r]) => ({
    id,
    value: r.status === 'ok' && !refused(r) ? (r.metrics?.total_token_throughput ?? null) : null,
  }));
  // Two single short runs read apart by up to the host's noise for two one-run intervals; before
  // the noise is measured, the margin plus 3% (short runs are noisier than full ones).
  const noisePct = ctx.noise ? effectiveMarginPct(ctx.config.marginPct, ctx.noise, 1, 1) : ctx.config.marginPct + 3;
  const ratio = fullShortRatio(pairs.get(ctx) ?? []);
  const cut = screenCut(rows, {
    noisePct,
    marginPct: ctx.config.marginPct,
    ...(leader ? { leader } : {}),
    ...(ratio ? { ratio } : {}),
    exempt,
  });
  ctx.emit({
    type: 'budget-screened',
    stage: todo[0]!.p.stage,
    prompts,
    of: scenario.numPrompts,
    rows: rows.map((r) => ({ variantId: r.id, totalTokPerS: r.value, kept: cut.kept.includes(r.id) })),
    rule: cut.rule,
  });
  for (const [id, why] of cut.dropped) {
    const t = todo.find((x) => x.p.variant.id === id)!;
    const r = shorts.get(id)!;
    // A failed short run is the variant's failure, as a full run's would be.
    byId.set(
      id,
      r.status === 'ok'
        ? skip(ctx, t.p, 'screened-out', why, scenario.name, { ...r, scenario: scenario.name })
        : announce(ctx, { ...r, scenario: scenario.name }),
    );
  }
  // The survivors' short runs are paid: the views hear of them as launches (their rows come from the full run).
  for (const id of cut.kept) {
    const g = shorts.get(id)?.gpuTime;
    if (g) ctx.emit({ type: 'launch-cost', variantId: id, stage: todo[0]!.p.stage, gpuTime: g });
  }
  return { kept: todo.filter((t) => cut.kept.includes(t.p.variant.id)), shorts };
}

/**
 * Who runs in full whatever the rule says: the baseline validation takes from this stage, and,
 * with predicted paths in the engine stage, the baseline on its defaults: validation and every
 * gain are against it, and a path that beat it must not become the baseline by its absence.
 */
function budgetExempt(ctx: SessionContext, variants: readonly PlannedVariant[], inFull: string | null): Set<string> {
  const paths = variants.some((v) => v.predictedPath);
  const defaults = paths
    ? pickBaseline(variants.filter((v) => !v.predictedPath && v.status === 'planned').map(pending), ctx.config.baseline)
    : null;
  return new Set([inFull, defaults?.variantId].filter((x): x is string => !!x));
}

/** Every variant of the stage under the budget rule; results in the stage's listed order. */
export async function measureStageOnBudget(
  ctx: SessionContext,
  variants: readonly PlannedVariant[],
  carried: VariantResult | null,
): Promise<StageRuns> {
  const stage = variants[0]?.stage ?? 'engine';
  const scenario = stageScenario(ctx.config.scenario, ctx.plan.replica, stage as PlannedVariant['stage']);
  const { byId, runs } = openStage(ctx, variants, scenario.name);
  const inFull = baselineInFull(ctx, variants, byId);
  const exempt = budgetExempt(ctx, variants, inFull);
  const leader = leaderValue(ctx, [carried]);
  const host = costHost(ctx.plan);
  let todo: Candidate[] = [];
  for (const p of variants.filter((v) => v.status === 'planned')) {
    const pred = predictionOf(ctx, p, scenario.name);
    const why = pred && leader && !exempt.has(p.variant.id) ? notLaunchedWhy(pred, leader, ctx.config.marginPct) : null;
    if (why) byId.set(p.variant.id, skip(ctx, p, 'not-launched', why, scenario.name));
    else todo.push({ p, ...(pred ? { pred } : {}) });
  }
  const ref = leader ?? Math.max(0, ...todo.map((t) => t.pred?.value ?? 0));
  todo = byGainPerCost(
    todo,
    (t) => (exempt.has(t.p.variant.id) ? Infinity : t.pred ? expectedGainPct(t.pred, ref) : 0),
    (t) => ctx.budget!.estimate(launchGpuHours(t.p, scenario, host).total),
  );
  const first = todo[0] ? launchGpuHours(todo[0].p, scenario, host, 1) : undefined;
  const pays = first
    ? screeningPays(todo.length, first.startup, first.bench, first.bench * (screenPrompts(scenario.numPrompts) / scenario.numPrompts), ETA)
    : false;
  const screened = pays
    ? await screen(ctx, todo, scenario, leader, exempt, byId)
    : { kept: todo, shorts: new Map<string, VariantResult>() };
  for (const t of screened.kept) {
    const id = t.p.variant.id;
    // The rule again against the leader so far: a measured variant of this stage may have raised it, and the calibration moved.
    const now = leaderValue(ctx, [carried, ...byId.values()]);
    const pred = predictionOf(ctx, t.p, scenario.name);
    const why = pred && now && !exempt.has(id) && !screened.shorts.has(id) ? notLaunchedWhy(pred, now, ctx.config.marginPct) : null;
    if (why) {
      byId.set(id, skip(ctx, t.p, 'not-launched', why, scenario.name));
      continue;
    }
    const est = launchGpuHours(t.p, scenario, host).total;
    const cost = ctx.budget!.estimate(est);
    if (!exempt.has(id) && !ctx.budget!.canPay(cost)) {
      byId.set(id, skip(ctx, t.p, 'no-budget', `not launched: ${ctx.budget!.cannotPay('its full run', cost)}`, scenario.name));
      continue;
    }
    const lead = earlyStopLeader(ctx, [carried, ...byId.values()]);
    const watched = lead && lead.leaderId !== id && !exempt.has(id);
    const list = await measureRuns(ctx, t.p, watched ? { earlyStop: lead } : {});
    // A complete run teaches the budget what a launch costs here; a run early stop cut short would under-count.
    for (const run of list) if (run.status === 'ok' && !run.partial) ctx.budget!.learn(est, run.gpuTime);
    runs.set(id, list);
    const c = announce(ctx, combineRuns(list, t.p.stage));
    byId.set(id, c);
    ctx.cost.addWave([c]);
    const s = screened.shorts.get(id);
    const full = c.status === 'ok' && !c.partial ? c.metrics?.total_token_throughput : undefined;
    if (full && s?.status === 'ok' && s.metrics)
      pairs.set(ctx, [...(pairs.get(ctx) ?? []), { full, short: s.metrics.total_token_throughput }]);
    emitState(ctx);
  }
  return { results: variants.map((v) => byId.get(v.variant.id)!), runs };
}
