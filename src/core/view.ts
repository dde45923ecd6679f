// The one projection of a session: events -> SessionView. The TUI's Results screen, the headless
// summary and `servelab view RUN_DIR` all show what this returns, so they cannot disagree. Pure:
// it files what the core decided (winners, references, gains, reasons travel in the events) and
// never decides anything itself.
import type { StageVerdict, TuneEvent, VariantResult } from './events.js';
import type { PlanInfo, ValidationRow } from './plan.js';
import { applySweepEvent, isSweepEvent, type SweepView } from './view-sweep.js';

export type { SweepPointView, SweepSeriesView, SweepView } from './view-sweep.js';

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
}

export interface ValidationView {
  scenarios: string[];
  baselineId: string;
  winnerId: string;
  rows: ValidationRow[];
  done: boolean;
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
  /** `--runtime slurm`: each variant's Slurm job and its last state ("PENDING (Priority)"). */
  jobs?: Record<string, { jobId: string; text: string }>;
}

export function emptyView(): SessionView {
  return { status: 'not-started', simulated: false, stages: [], baselineId: null, winner: null, labels: {}, warnings: [], errors: [] };
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
    return { ...s, rows: rowsOf(results, s.verdict) };
  });
  return { ...next, labels };
}

function onStageFinished(view: SessionView, v: StageVerdict): SessionView {
  const next = upsertStage(view, v.stage, (s) => ({ ...s, verdict: v, rows: rowsOf(s.rows.map((r) => r.result), v), ...(v.skipped ? { skipped: v.skipped } : {}) }));
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
      return { ...emptyView(), status: 'running', runDir: e.runDir, simulated: e.simulated, warnings: view.warnings, errors: view.errors };
    case 'plan-ready':
      return { ...view, plan: e.plan };
    case 'stage-started':
      return upsertStage(view, e.stage, (s) => ({ ...s, index: e.index, variants: e.variants, carriedId: e.carriedId ?? null, ...(e.skipped ? { skipped: e.skipped } : {}) }));
    case 'variant-launching':
      return e.label && !view.labels[e.variantId] ? { ...view, labels: { ...view.labels, [e.variantId]: e.label } } : view;
    case 'variant-finished':
      return onFinished(view, e.result);
    case 'stage-finished': {
      const { type: _type, ...verdict } = e;
      return onStageFinished(view, verdict);
    }
    case 'validation-started':
      return { ...view, validation: { scenarios: e.scenarios, baselineId: e.baselineId, winnerId: e.winnerId, rows: [], done: false } };
    case 'validation-finished':
      return view.validation ? { ...view, validation: { ...view.validation, rows: e.rows, done: true } } : view;
    case 'session-finished': {
      const interrupted = e.exitCode >= 128;
      return { ...view, status: interrupted ? 'interrupted' : 'finished', outcome: { profilePath: e.profilePath, reportPath: e.reportPath, exitCode: e.exitCode } };
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
