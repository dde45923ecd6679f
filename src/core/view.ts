// The one projection of a session: events -> SessionView. The TUI's Results screen, the headless
// summary and `servelab view RUN_DIR` all show what this returns, so they cannot disagree. Pure:
// it files what the core decided (winners, references, gains, reasons travel in the events) and
// never decides anything itself.
import type { TuneEvent, VariantResult } from './events.js';
import type { StageVerdict } from './stage-verdict.js';
import type { RunningVariantView, SessionView, StageRowView, StageView } from './session-view.js';
import { applySweepEvent, isSweepEvent } from './view-sweep.js';
import { tieClause } from './stage-text.js';
import { applyLaunchCost, applyWaveClock, closeWave } from './view-cost.js';
import { isCapacityEvent, type CapacityEvent } from './capacity-events.js';
import { applyCapacityEvent } from './view-capacity.js';
import { applyBudgetEvent, budgetFromPlan, isBudgetEvent } from './view-budget.js';
import { servedWhenMixed } from './stage-text.js';
import { isNoiseEvent } from './noise-events.js';
import { applyNoiseEvent } from './view-noise.js';

export function emptyView(): SessionView {
  return {
    status: 'not-started',
    simulated: false,
    stages: [],
    baselineId: null,
    winner: null,
    labels: {},
    warnings: [],
    errors: [],
    running: {},
  };
}

function patchRunning(view: SessionView, id: string, patch: Partial<RunningVariantView>): SessionView {
  const cur = view.running[id];
  return cur ? { ...view, running: { ...view.running, [id]: { ...cur, ...patch } } } : view;
}

function dropRunning(view: SessionView, id: string): SessionView {
  if (!view.running[id]) return view;
  const { [id]: _gone, ...running } = view.running;
  return { ...view, running };
}

/** The live part of the view: which variants run, in which phase, with their latest snapshot. */
function applyLive(view: SessionView, e: TuneEvent): SessionView {
  switch (e.type) {
    case 'variant-launching': {
      const r: RunningVariantView = {
        variantId: e.variantId,
        stage: e.stage,
        port: e.port,
        phase: 'launching',
        ...(e.label ? { label: e.label } : {}),
        ...(e.gpuIds ? { gpuIds: e.gpuIds } : {}),
        ...(e.run ? { run: e.run } : {}),
      };
      // A launch whose server was stopped without variant-finished (a validation side, a repeat
      // run) is over once the next launch comes: launches that overlap are never 'stopping'.
      const live = Object.fromEntries(Object.entries(view.running).filter(([, v]) => v.phase !== 'stopping'));
      return { ...view, running: { ...live, [e.variantId]: r } };
    }
    case 'server-ready':
      return patchRunning(view, e.variantId, { phase: 'warming up', startupS: e.startupS });
    case 'bench-started':
      return patchRunning(view, e.variantId, { phase: 'benchmarking', scenario: e.scenario });
    case 'bench-progress':
      return patchRunning(view, e.variantId, { snapshot: e.snapshot });
    case 'server-stopping':
      return patchRunning(view, e.variantId, { phase: 'stopping' });
    default:
      return view;
  }
}

function rowsOf(results: readonly VariantResult[], v: StageVerdict | undefined): StageRowView[] {
  return results.map((r) => ({
    result: r,
    gainPct: v?.gains[r.variantId] ?? null,
    isWinner: !!v && v.winnerId === r.variantId,
    isCarried: !!v && v.carriedId === r.variantId,
    isReference: !!v && v.referenceId === r.variantId,
    ...(v?.notEligible?.[r.variantId] ? { notEligible: v.notEligible[r.variantId] } : {}),
  }));
}

function upsertStage(view: SessionView, name: string, patch: (s: StageView) => StageView): SessionView {
  const i = view.stages.findIndex((s) => s.name === name);
  const base: StageView = i >= 0 ? view.stages[i]! : { name, index: view.stages.length, variants: [], carriedId: null, rows: [] };
  const next = patch(base);
  const stages = i >= 0 ? view.stages.map((s, j) => (j === i ? next : s)) : [...view.stages, next];
  return { ...view, stages };
}

/** The measured result a winner id stands for (its last ok row in any stage). */
function resultOf(view: SessionView, id: string | null): VariantResult | null {
  if (!id) return null;
  const all = view.stages.flatMap((s) => s.rows.map((r) => r.result)).filter((r) => r.variantId === id);
  return [...all].reverse().find((r) => r.status === 'ok') ?? all.at(-1) ?? null;
}

function onFinished(view: SessionView, r: VariantResult): SessionView {
  const labels = r.variant.label && !view.labels[r.variantId] ? { ...view.labels, [r.variantId]: r.variant.label } : view.labels;
  // Validation runs are not stage rows: the validation table reports them.
  if (r.stage.startsWith('validation')) return { ...view, labels };
  const next = upsertStage(view, r.stage, (s) => {
    const results = [...s.rows.map((x) => x.result).filter((x) => !(x.variantId === r.variantId && x.scenario === r.scenario)), r];
    const served = servedWhenMixed(results);
    return { ...s, rows: rowsOf(results, s.verdict), ...(served ? { served } : {}) };
  });
  return { ...next, labels };
}

function onStageFinished(view: SessionView, v: StageVerdict): SessionView {
  const tie = tieClause(v);
  const next = upsertStage(view, v.stage, ({ confirming: _done, ...s }) => ({
    ...s,
    verdict: v,
    rows: rowsOf(
      s.rows.map((r) => r.result),
      v,
    ),
    ...(v.skipped ? { skipped: v.skipped } : {}),
    ...(tie ? { tie } : {}),
  }));
  const winner = v.winnerId ? resultOf(next, v.winnerId) : view.winner;
  return { ...next, baselineId: v.baselineId ?? view.baselineId, winner };
}

type EventOf<T extends TuneEvent['type']> = Extract<TuneEvent, { type: T }>;

/** A resumed run starts the view afresh; the warnings and errors said so far stay. */
function onSessionStarted(view: SessionView, e: EventOf<'session-started'>): SessionView {
  return {
    ...emptyView(),
    status: 'running',
    runDir: e.runDir,
    simulated: e.simulated,
    startedAt: e.at,
    warnings: view.warnings,
    errors: view.errors,
  };
}

function onValidationStarted(view: SessionView, e: EventOf<'validation-started'>): SessionView {
  return {
    ...view,
    validation: {
      scenarios: e.scenarios,
      baselineId: e.baselineId,
      ...(e.baselineWhy ? { baselineWhy: e.baselineWhy } : {}),
      winnerId: e.winnerId,
      rows: [],
      done: false,
    },
  };
}

/** Exit codes of 128 and over are signals: the session was interrupted, not finished. */
function onSessionFinished(view: SessionView, e: EventOf<'session-finished'>): SessionView {
  const interrupted = e.exitCode >= 128;
  return {
    ...view,
    running: {},
    status: interrupted ? 'interrupted' : 'finished',
    outcome: { profilePath: e.profilePath, reportPath: e.reportPath, exitCode: e.exitCode },
  };
}

function applyCapacity(view: SessionView, e: CapacityEvent): SessionView {
  const capacity = applyCapacityEvent(view.capacity, e);
  if (!capacity) return view;
  // The capacity launch ends without variant-finished: nothing runs once its answer is in.
  return e.type === 'capacity-finished' ? closeWave({ ...view, capacity, running: {} }) : { ...view, capacity };
}

/** One event applied to the view. A new session-started (a resumed run) starts the view afresh. */
export function applyToView(view: SessionView, e: TuneEvent): SessionView {
  if (isSweepEvent(e)) {
    const sweep = applySweepEvent(view.sweep, e);
    if (!sweep) return view;
    // Under --objective frontier the core's choice is the session's winner.
    const chosen = e.type === 'sweep-finished' && e.decides && e.choice ? resultOf(view, e.choice.variantId) : null;
    return { ...view, sweep, ...(chosen ? { winner: chosen } : {}) };
  }
  if (isCapacityEvent(e)) return applyCapacity(view, e);
  if (isBudgetEvent(e)) return { ...view, budget: applyBudgetEvent(view.budget, e) };
  if (isNoiseEvent(e)) return applyNoiseEvent(view, e);
  switch (e.type) {
    case 'session-started':
      return onSessionStarted(view, e);
    case 'plan-ready': {
      const budget = budgetFromPlan(view.budget, e.plan.budget);
      return { ...view, plan: e.plan, ...(budget ? { budget } : {}) };
    }
    case 'stage-started':
      return upsertStage(view, e.stage, (s) => ({
        ...s,
        index: e.index,
        variants: e.variants,
        carriedId: e.carriedId ?? null,
        ...(e.skipped ? { skipped: e.skipped } : {}),
      }));
    case 'variant-launching': {
      // A launch into a host where nothing else runs starts a new wave: the last one is over.
      const idle = Object.values(view.running).every((r) => r.phase === 'stopping');
      const live = applyLive(idle ? closeWave(view) : view, e);
      return e.label && !view.labels[e.variantId] ? { ...live, labels: { ...view.labels, [e.variantId]: e.label } } : live;
    }
    case 'server-ready':
    case 'bench-started':
    case 'bench-progress':
    case 'server-stopping':
      return applyLive(view, e);
    case 'variant-finished': {
      const before = view.stages
        .find((s) => s.name === e.result.stage)
        ?.rows.find((r) => r.result.variantId === e.result.variantId && r.result.scenario === e.result.scenario)?.result;
      return applyWaveClock(onFinished(dropRunning(view, e.result.variantId), e.result), e.result, before);
    }
    case 'launch-cost':
      return applyLaunchCost(view, e);
    case 'session-cost':
      return { ...view, cost: e.cost };
    case 'stage-finished': {
      const { type: _type, ...verdict } = e;
      return onStageFinished(closeWave(view), verdict);
    }
    case 'validation-started':
      return onValidationStarted(view, e);
    case 'no-regress': {
      // The finalist the guard kept is the session's winner.
      const chosen = e.chosenId ? resultOf(view, e.chosenId) : null;
      return { ...view, noRegress: { winnerId: e.winnerId, chosenId: e.chosenId, why: e.why }, ...(chosen ? { winner: chosen } : {}) };
    }
    case 'validation-finished':
      // Validation launches end without variant-finished: nothing runs once the table is in.
      return closeWave(
        view.validation ? { ...view, running: {}, validation: { ...view.validation, rows: e.rows, done: true } } : { ...view, running: {} },
      );
    case 'session-finished':
      return onSessionFinished(view, e);
    case 'job-state':
      return { ...view, jobs: { ...view.jobs, [e.variantId]: { jobId: e.jobId, text: e.text } } };
    case 'warning':
      return { ...view, warnings: [...view.warnings, e.message] };
    case 'error':
      return { ...view, errors: [...view.errors, e.message] };
    default:
      return view;
  }
}

/**
 * The whole stream to one view. A stream that ends without session-finished (a crash, a kill,
 * a run still going when read) is `interrupted` when `ended` says the stream is all there is.
 */
export function projectSession(events: Iterable<TuneEvent>, opts: { ended?: boolean } = {}): SessionView {
  let view = emptyView();
  for (const e of events) view = applyToView(view, e);
  if (opts.ended && view.status === 'running') view = { ...view, status: 'interrupted' };
  return view;
}
