// The load sweep inside a tuning session (`--sweep`, `--objective frontier`): after the staged
// search, sweep the finalists (tune/sweep/finalists.ts) one launch each through the session's runner,
// every point journaled (a resumed session measures only what is missing) and emitted as a
// sweep-point event; then the frontier and, for --objective frontier, the variant and load the
// SLO allows the most tok/s/GPU at, which replaces the staged winner.
import type { TuneEvent, VariantResult } from '../../core/events.js';
import type { SweepLoadInfo, SweepPointSummary } from '../../core/sweep-info.js';
import { formatSlo } from '../../core/slo.js';
import { stageSlo } from '../config/config.js';
import type { SloRule } from '../../core/slo-rule.js';
import { analyseSweeps, type SweepAnalysis } from '../../sweep/analyse.js';
import { choiceSentence, toFrontierPoint, type FrontierPoint } from '../../sweep/frontier.js';
import { formatSweep, parseSweep, type SweepLoad, type SweepSpec } from '../../sweep/spec.js';
import type { SweepPoint, VariantSweep } from '../../sweep/types.js';
import { AbortedError } from '../../core/aborted.js';
import type { SessionContext } from '../context/session-context.js';
import type { StageLoopState } from '../stage/loop.js';
import { FINALIST_RULE, pickFinalists, type Finalist, type StageRows } from './finalists.js';
import { sweepVariant } from './sweep-run.js';
import { sweepDevices } from '../../sweep/record.js';

export interface SessionSweep {
  spec: SweepSpec;
  finalists: Finalist[];
  sweeps: VariantSweep[];
  analysis: SweepAnalysis;
  /** The best point of another variant than the choice, as a sentence. */
  runnerUp?: string;
  /** With --objective frontier and a choice: the chosen variant's staged result, and the load. */
  chosen: { result: VariantResult; load: SweepLoad } | null;
}

export const loadInfo = (l: SweepLoad): SweepLoadInfo => ({ kind: l.kind, value: l.value === Infinity ? null : l.value });

const summaryOf = (p: FrontierPoint): SweepPointSummary => ({
  tokPerGpu: p.tokPerGpu,
  tokPerUser: p.tokPerUser,
  ttftP50Ms: p.ttftP50Ms,
  ttftP99Ms: p.ttftP99Ms,
  tpotP99Ms: typeof p.metrics.p99_tpot_ms === 'number' ? p.metrics.p99_tpot_ms : NaN,
  goodput: p.goodput,
});

function pointEvent(variantId: string, label: string, p: SweepPoint, gpus: number, slo: readonly SloRule[]): TuneEvent {
  const fp = toFrontierPoint({ variantId, label, load: p.load, ...(p.metrics ? { metrics: p.metrics } : {}) }, gpus, slo);
  return {
    type: 'sweep-point',
    variantId,
    label,
    load: loadInfo(p.load),
    status: p.status,
    ...(fp ? { summary: summaryOf(fp) } : {}),
    violations: p.violations,
    ...(p.reason ? { reason: p.reason } : {}),
    ...(p.resumed ? { resumed: true } : {}),
  };
}

const labelOf = (r: VariantResult) => r.variant.label ?? r.variantId;

/** The best SLO-meeting point of a variant other than the choice, in the choice's words. */
function runnerUpOf(a: SweepAnalysis, slo: readonly SloRule[]): string | undefined {
  const c = a.choice?.point;
  if (!c) return undefined;
  const other = a.points
    .filter((p) => p.variantId !== c.variantId && p.violations.length === 0)
    .sort((x, y) => y.tokPerGpu - x.tokPerGpu)[0];
  return other ? choiceSentence(other, slo) : undefined;
}

/** The staged result of a variant (its last ok row in any stage, else the baseline or winner). */
function stagedResult(state: StageLoopState, finalists: readonly Finalist[], id: string): VariantResult | null {
  const rows = state.stages.flatMap((s) => s.results as VariantResult[]).filter((r) => r.variantId === id && r.status === 'ok');
  return rows.at(-1) ?? finalists.find((f) => f.result.variantId === id)?.result ?? null;
}

/** Sweep the finalists; null when the session was not asked to sweep. Throws AbortedError on abort. */
export async function sweepFinalists(ctx: SessionContext, state: StageLoopState, winner: VariantResult): Promise<SessionSweep | null> {
  const o = ctx.config.sweep;
  if (!o) return null;
  const { config } = ctx;
  const spec = parseSweep(o.spec);
  const slo = config.slo;
  const gpus = sweepDevices(ctx.planHost.gpuCount);
  // The stages hold the VariantResults this session measured (StageRecord's schema type is looser).
  const finalists = pickFinalists(state.stages as unknown as StageRows[], state.baseline, winner, {
    objective: config.objective,
    slo: stageSlo(config),
    maxFailedPct: config.maxFailedPct,
  });
  ctx.emit({
    type: 'sweep-started',
    spec: formatSweep(spec),
    slo: slo.length ? formatSlo(slo) : '',
    rule: FINALIST_RULE,
    variants: finalists.map((f) => ({ variantId: f.result.variantId, label: labelOf(f.result), why: f.why })),
  });
  // A multi-turn point runs as many conversations per user as the workload had (sweep/spec.ts): it always reaches its users.
  const closedLoop = config.scenario.dataset === 'multi_turn';
  const short = spec.kind === 'concurrency' && !closedLoop ? spec.levels.filter((l) => l > config.scenario.numPrompts) : [];
  if (short.length) {
    ctx.emit({
      type: 'warning',
      message: `the workload has ${config.scenario.numPrompts} prompts: the points at ${short.join(', ')} concurrent never reach their load (raise --num-prompts or --scale)`,
    });
  }
  const sweeps: VariantSweep[] = [];
  // Each finalist's sweep is one launch: its GPU time goes into the session's ledger.
  const swept: typeof ctx.run = async (...a) => {
    const results = await ctx.run(...a);
    ctx.cost.addLaunch(ctx.emit, 'sweep', results[0]);
    return results;
  };
  for (const f of finalists) {
    if (ctx.signal?.aborted) throw new AbortedError();
    const label = labelOf(f.result);
    const sweep = await sweepVariant(f.result.variant, label, config.scenario, spec, {
      run: swept,
      stage: 'sweep',
      slo,
      journal: ctx.journal,
      sweepAll: o.all,
      skipSignal: ctx.control.nextSkipSignal(f.result.variant.id),
      onPoint: (_id, p) => ctx.emit(pointEvent(f.result.variantId, label, p, gpus, slo)),
    });
    // Levels not run (after an early stop) are points too: the chart and tables list them.
    for (const p of sweep.points) if (p.status === 'not-run') ctx.emit(pointEvent(f.result.variantId, label, p, gpus, slo));
    sweeps.push(sweep);
  }
  if (ctx.signal?.aborted) throw new AbortedError();
  const analysis = analyseSweeps(sweeps, gpus, slo, config.maxFailedPct);
  const c = analysis.choice;
  const runnerUp = runnerUpOf(analysis, slo);
  const chosenResult = o.frontier && c ? stagedResult(state, finalists, c.point.variantId) : null;
  const chosen = chosenResult && c ? { result: chosenResult, load: c.point.load } : null;
  ctx.emit({
    type: 'sweep-finished',
    frontier: analysis.frontier.points.map((p) => ({
      variantId: p.variantId,
      load: loadInfo(p.load),
      tokPerGpu: p.tokPerGpu,
      tokPerUser: p.tokPerUser,
    })),
    choice: c
      ? { variantId: c.point.variantId, load: loadInfo(c.point.load), sentence: c.sentence, why: c.why, ...(runnerUp ? { runnerUp } : {}) }
      : null,
    ...(analysis.noChoice ? { noChoice: analysis.noChoice } : {}),
    decides: chosen !== null,
  });
  return { spec, finalists, sweeps, analysis, ...(runnerUp ? { runnerUp } : {}), chosen };
}
