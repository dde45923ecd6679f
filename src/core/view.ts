// The one projection of a session: events -> SessionView. The TUI's Results screen, the headless
// summary and `servelab view RUN_DIR` all show what this returns, so they cannot disagree. Pure:
// it files what the core decided (winners, references, gains, reasons travel in the events) and
// never decides anything itself.
import type { LiveSnapshot } from './metrics.js';
import type { RunOfRuns, SessionGpuTime, StageVerdict, TuneEvent, VariantResult } from './events.js';
import type { PlanInfo, ValidationRow } from './events.js';
import { applySweepEvent, isSweepEvent, type SweepView } from './view-sweep.js';
import { applyLaunchCost, applyWaveClock, closeWave, type WaveClock } from './view-cost.js';

export interface StageRowView {
  result: VariantResult;
  /** Gain against the stage's reference, as the core measured it. */
  gainPct: number | null;
  isWinner: boolean;
  /** The winner carried into the stage. */
  isCarried: boolean;
  /** The row the stage's gains are measured against (the baseline in the first stage). */
  isReference: boolean;
}

export interface StageView {
  name: string;
  index: number;
  /** Variant ids the stage was started with. */
  variants: string[];
  /** The winner carried into the stage, as the core reported it when the stage started. */
  carriedId: string | null;
  rows: StageRowView[];
  /** The core's verdict, once the stage finished. */
  verdict?: StageVerdict;
  skipped?: string;
  /** The verdict's words on a tie, when its best two stayed within the noise margin (tieClause). */
  tie?: string;
  /** What each row's server loaded, by variant id, when the rows did not all load the same (servedWhenMixed). */
  served?: Record<string, string>;
}

/**
 * What each row served, by variant id, when the rows did not all serve the same: the engine stage
 * of a model with --gguf (vLLM's model id beside llama.cpp's GGUF), llama.cpp's quantization stage.
 * The comparison tables (summary, Results, report) add it then.
 */
export function servedWhenMixed(results: readonly Pick<VariantResult, 'variantId' | 'served'>[]): Record<string, string> | undefined {
  const named = results.filter((r): r is typeof r & { served: string } => !!r.served);
  return new Set(named.map((r) => r.served)).size > 1 ? Object.fromEntries(named.map((r) => [r.variantId, r.served])) : undefined;
}

export interface ValidationView {
  scenarios: string[];
  baselineId: string;
  /** How the baseline was chosen, and what it did in the engine stage. */
  baselineWhy?: string;
  winnerId: string;
  rows: ValidationRow[];
  done: boolean;
}

/** A variant whose server is up or coming up (several at once when variants share the host). */
export interface RunningVariantView {
  variantId: string;
  stage: string;
  label?: string;
  port: number;
  /** GPUs it is pinned to when it shares the host; all GPUs when absent. */
  gpuIds?: number[];
  /** A repeat launch: run n of at most `of` (absent: the variant's first run). */
  run?: RunOfRuns;
  phase: 'launching' | 'warming up' | 'benchmarking' | 'stopping';
  startupS?: number;
  scenario?: string;
  snapshot?: LiveSnapshot;
}

export type SessionStatus = 'not-started' | 'running' | 'finished' | 'interrupted';

export interface SessionView {
  status: SessionStatus;
  runDir?: string;
  simulated: boolean;
  plan?: PlanInfo;
  stages: StageView[];
  /** The session's baseline, once the engine stage chose it. */
  baselineId: string | null;
  /** The variant the session ended with (the last stage's winner), with its measured result. */
  winner: VariantResult | null;
  validation?: ValidationView;
  /** The load sweep of the finalists, when the session ran one (--sweep). */
  sweep?: SweepView;
  outcome?: { profilePath: string | null; reportPath: string | null; exitCode: number };
  /** Human labels by variant id. */
  labels: Record<string, string>;
  warnings: string[];
  errors: string[];
  /** Variants running now, by id (live panels; several when variants run in parallel). */
  running: Record<string, RunningVariantView>;
  /** What the session cost (host GPU-hours, variant GPU-hours), once the core summed it. */
  cost?: SessionGpuTime;
  /** `--runtime slurm`: each variant's Slurm job and its last state ("PENDING (Priority)"). */
  jobs?: Record<string, { jobId: string; text: string }>;
  /** When the session started (session-started's clock), for the live host GPU-hours on a GPU host. */
  startedAt?: string;
  /** The simulated session time so far, wave by wave (view-cost.ts applyWaveClock). */
  waveClock?: WaveClock;
  /** GPU-seconds of launches outside the stage tables (validation sides, sweeps), from launch-cost. */
  launchGpuS?: number;
}

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
  const next = upsertStage(view, v.stage, (s) => ({
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

/** One event applied to the view. A new session-started (a resumed run) starts the view afresh. */
export function applyToView(view: SessionView, e: TuneEvent): SessionView {
  if (isSweepEvent(e)) {
    const sweep = applySweepEvent(view.sweep, e);
    if (!sweep) return view;
    // Under --objective frontier the core's choice is the session's winner.
    const chosen = e.type === 'sweep-finished' && e.decides && e.choice ? resultOf(view, e.choice.variantId) : null;
    return { ...view, sweep, ...(chosen ? { winner: chosen } : {}) };
  }
  switch (e.type) {
    case 'session-started':
      return {
        ...emptyView(),
        status: 'running',
        runDir: e.runDir,
        simulated: e.simulated,
        startedAt: e.at,
        warnings: view.warnings,
        errors: view.errors,
      };
    case 'plan-ready':
      return { ...view, plan: e.plan };
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
    case 'validation-finished':
      // Validation launches end without variant-finished: nothing runs once the table is in.
      return closeWave(
        view.validation ? { ...view, running: {}, validation: { ...view.validation, rows: e.rows, done: true } } : { ...view, running: {} },
      );
    case 'session-finished': {
      const interrupted = e.exitCode >= 128;
      return {
        ...view,
        running: {},
        status: interrupted ? 'interrupted' : 'finished',
        outcome: { profilePath: e.profilePath, reportPath: e.reportPath, exitCode: e.exitCode },
      };
    }
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

/** Stages that measured something or were decided, in run order. */
export function shownStages(view: SessionView): StageView[] {
  return [...view.stages].sort((a, b) => a.index - b.index).filter((s) => s.rows.length > 0);
}

/** What a stage's gain is measured against, in words: "the baseline vllm", "the carried winner X". */
export function referenceText(s: StageView, name: (id: string) => string = (id) => id): string | null {
  const v = s.verdict;
  if (!v?.referenceId) return null;
  if (v.referenceId === v.carriedId) return `the carried winner ${name(v.referenceId)}`;
  if (v.referenceId === v.baselineId) return `the baseline ${name(v.referenceId)}`;
  return name(v.referenceId);
}

/** The words adaptive repeats use when a stage's best two stayed within the noise margin (src/tune/decide/repeats.ts). */
export const TIED_WITHIN_NOISE = 'tied within noise';

/**
 * The clause of a verdict's why that says its best two stayed tied within noise after repeats,
 * with the rule that broke the tie ("A and B tied within noise (0.3% apart after 3 and 3 runs,
 * margin 2%): B wins on lower p99 TPOT (…)"); null when no tie was called. The verdict carries the
 * tie in words only: repeats.ts writes the clause, stage-verdict.ts joins clauses with '; '.
 */
export function tieClause(v: Pick<StageVerdict, 'why' | 'tied'> | undefined): string | null {
  // Verdicts journalled before the `tied` field carry the tie in words only.
  if (!v || v.tied === false) return null;
  return v.why.split('; ').find((c) => c.includes(TIED_WITHIN_NOISE)) ?? (v.tied ? TIED_WITHIN_NOISE : null);
}
