// Run state: a pure reducer over the core's events. The Run, Results and Save screens only
// format what is here; nothing in this file measures anything, it files what the core reported.
import type { TuneEvent, VariantResult } from '../../core/events.js';
import type { GpuSample } from '../../core/metrics.js';
import { applyToView, emptyView } from '../../core/view.js';
import { tieClause } from '../../core/stage-text.js';
import { type SessionView } from '../../core/session-view.js';
import { applyLiveVariant, pushBounded, type CurrentVariant } from './live.js';
import { movePick, skipTarget } from './pick.js';

export const NOTES_MAX = 20;

export interface StageProgress {
  name: string;
  index: number;
  variants: string[];
  done: boolean;
  winnerId?: string | null;
  gainPct?: number | null;
  /** Why the stage did not run, when it did not. */
  skipped?: string;
}

/** A line of the finished history: what the leaderboard prints once and never redraws (Ink <Static>). */
export type StaticItem =
  | { key: string; kind: 'variant'; result: VariantResult; /** Id of the winner carried into its stage. */ carriedId?: string }
  | {
      key: string;
      kind: 'stage';
      stage: string;
      winnerId: string | null;
      gainPct: number | null;
      /** The winner carried into the stage stayed. */
      kept: boolean;
      /** Why the stage did not run, when it did not. */
      skipped?: string;
      /** Its best two stayed tied within noise after repeats (the tie rule decided). */
      tied?: boolean;
      /** The tied set when more than the winner, and the tie-break's property that chose among it. */
      tiedIds?: string[];
      tieBreak?: string;
    };

export interface RunState {
  status: 'idle' | 'running' | 'finished';
  runDir?: string;
  simulated: boolean;
  startedAt?: number;
  stages: StageProgress[];
  /** Variants running now, in launch order (several when variants share the host). */
  live: readonly CurrentVariant[];
  /** The first of them: the one the log key shows, and the only one when nothing runs in parallel. */
  current?: CurrentVariant;
  results: VariantResult[];
  /** Human labels by variant id, as the core reported them. */
  labels: Record<string, string>;
  staticItems: StaticItem[];
  gpus: GpuSample[];
  /** The validation in progress (its table is in `view`). */
  validation?: { scenarios: string[]; done: boolean };
  /** The core's projection of the stream: stage tables, references, gains, winner (src/core/view.ts). */
  view: SessionView;
  outcome?: { profilePath: string | null; reportPath: string | null; exitCode: number };
  warnings: string[];
  errors: string[];
  requests: { skip: string | null; stopAfterStage: boolean; abort: boolean };
  /** The running row the user picked for the skip key (pick.ts); null: the top row. */
  picked: string | null;
}

export type RunAction =
  | { type: 'started'; now: number }
  | { type: 'events'; events: readonly TuneEvent[]; now: number }
  /** The skip key: stop this running variant, or without an id the one picked (pick.ts skipTarget). */
  | { type: 'skip-requested'; variantId?: string }
  /** Up/down on the Run screen: pick the running row the skip key stops. */
  | { type: 'pick'; dir: 1 | -1 }
  | { type: 'stop-after-stage-requested' }
  | { type: 'abort-requested' }
  /** The session promise settled; `aborted` when the user aborted it. */
  | { type: 'settled'; aborted: boolean }
  /** The session promise rejected: the core crashed rather than reporting a failure. */
  | { type: 'crashed'; message: string };

export const initialRunState: RunState = {
  status: 'idle',
  simulated: false,
  stages: [],
  live: [],
  results: [],
  labels: {},
  staticItems: [],
  view: emptyView(),
  gpus: [],
  warnings: [],
  errors: [],
  requests: { skip: null, stopAfterStage: false, abort: false },
  picked: null,
};

export function applyEvent(stateIn: RunState, e: TuneEvent, now: number): RunState {
  // The projection ignores live-only events (logs, snapshots): the state stays the same object then.
  const view = applyToView(stateIn.view, e);
  const live = applyLiveVariant(stateIn.live, e, now);
  const state = view === stateIn.view && live === stateIn.live ? stateIn : { ...stateIn, view, live, current: live[0] };
  const next = releaseGpus(stateIn.live, applyLive(state, e, now));
  // A skip is over once its variant no longer runs (finished, paid by launch-cost without
  // variant-finished, or its stage or validation ended): the hook sends a skip on change only, so a
  // later skip of the same id (a finalist's sweep, then its validation side) must change it again.
  const skip = next.requests.skip;
  return skip && !next.live.some((c) => c.variantId === skip) ? { ...next, requests: { ...next.requests, skip: null } } : next;
}

/** The live part of the run state: the running variant, its phases, buffers and the history lines. */
function applyLive(state: RunState, e: TuneEvent, now: number): RunState {
  switch (e.type) {
    case 'session-started':
      return { ...state, status: 'running', runDir: e.runDir, simulated: e.simulated, startedAt: state.startedAt ?? now };
    case 'stage-started': {
      const stages = state.stages.filter((s) => s.name !== e.stage);
      stages.push({ name: e.stage, index: e.index, variants: e.variants, done: false, ...(e.skipped ? { skipped: e.skipped } : {}) });
      stages.sort((a, b) => a.index - b.index);
      return { ...state, stages };
    }
    case 'variant-launching':
      return e.label ? { ...state, labels: { ...state.labels, [e.variantId]: e.label } } : state;
    case 'gpu-sample':
      return { ...state, gpus: e.partial ? mergeGpus(state.gpus, e.gpus) : e.gpus };
    case 'variant-finished': {
      const r = e.result;
      const carriedId = state.view.stages.find((s) => s.name === r.stage)?.carriedId ?? undefined;
      const skip = state.requests.skip === r.variantId ? null : state.requests.skip;
      return {
        ...state,
        labels: r.variant.label && !state.labels[r.variantId] ? { ...state.labels, [r.variantId]: r.variant.label } : state.labels,
        results: [...state.results.filter((x) => !(x.variantId === r.variantId && x.scenario === r.scenario && x.stage === r.stage)), r],
        staticItems: [
          ...state.staticItems,
          {
            key: `v:${r.variantId}:${r.scenario}:${state.staticItems.length}`,
            kind: 'variant',
            result: r,
            ...(carriedId ? { carriedId } : {}),
          },
        ],
        requests: { ...state.requests, skip },
      };
    }
    case 'stage-finished': {
      const skippedWhy = state.stages.find((s) => s.name === e.stage)?.skipped;
      return {
        ...state,
        // "Stop after this stage" is honoured once the stage ends: the note would be stale after.
        requests: { ...state.requests, stopAfterStage: false },
        stages: state.stages.map((s) => (s.name === e.stage ? { ...s, done: true, winnerId: e.winnerId, gainPct: e.gainPct } : s)),
        staticItems: [
          ...state.staticItems,
          {
            key: `s:${e.stage}:${state.staticItems.length}`,
            kind: 'stage',
            stage: e.stage,
            winnerId: e.winnerId,
            gainPct: e.gainPct,
            kept: e.carriedId !== null && e.carriedId === e.winnerId,
            ...(skippedWhy ? { skipped: skippedWhy } : {}),
            ...(tieClause(e) ? { tied: true } : {}),
            ...(e.tiedIds && e.tiedIds.length > 1 ? { tiedIds: e.tiedIds } : {}),
            ...(e.tieBreak ? { tieBreak: e.tieBreak } : {}),
          },
        ],
      };
    }
    case 'validation-started':
      return { ...state, validation: { scenarios: e.scenarios, done: false } };
    case 'validation-finished':
      return { ...state, validation: { scenarios: state.validation?.scenarios ?? [], done: true } };
    case 'session-finished':
      return {
        ...state,
        status: 'finished',
        outcome: { profilePath: e.profilePath, reportPath: e.reportPath, exitCode: e.exitCode },
      };
    case 'warning':
      return { ...state, warnings: pushBounded(state.warnings, [e.message], NOTES_MAX) };
    case 'error':
      return { ...state, errors: pushBounded(state.errors, [e.message], NOTES_MAX) };
    default:
      return state;
  }
}

export function runReducer(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case 'started':
      return { ...initialRunState, status: 'running', startedAt: action.now };
    case 'events':
      return action.events.reduce((s, e) => applyEvent(s, e, action.now), state);
    case 'skip-requested': {
      // Resolved here, after every key before it: a pick and a skip typed in one burst skip the row picked.
      const id = action.variantId ?? skipTarget(state.live, state.picked);
      return id && state.live.some((c) => c.variantId === id) ? { ...state, requests: { ...state.requests, skip: id } } : state;
    }
    case 'pick':
      return { ...state, picked: movePick(state.live, state.picked, action.dir) };
    case 'stop-after-stage-requested':
      return { ...state, requests: { ...state.requests, stopAfterStage: true } };
    case 'abort-requested':
      return { ...state, requests: { ...state.requests, abort: true } };
    case 'settled':
      // A session stopped by abort may end without its own session-finished event.
      if (state.status === 'finished') return state;
      return {
        ...state,
        status: 'finished',
        live: [],
        current: undefined,
        outcome: { profilePath: null, reportPath: null, exitCode: action.aborted ? 130 : 1 },
      };
    case 'crashed':
      return {
        ...state,
        status: 'finished',
        live: [],
        current: undefined,
        errors: pushBounded(state.errors, [action.message], NOTES_MAX),
        outcome: state.outcome ?? { profilePath: null, reportPath: null, exitCode: 1 },
      };
  }
}

/** A pinned variant's GPUs replace those indexes only; the other variants' samples stay. */
/**
 * On the simulated host a pinned server is the only report of its GPUs: once it has stopped they
 * read idle, not its last sample under load (a real host's next sample from its vendor's tool says for itself).
 */
function releaseGpus(before: readonly CurrentVariant[], next: RunState): RunState {
  if (!next.simulated || before === next.live) return next;
  const gone = before.filter((c) => !next.live.some((n) => n.variantId === c.variantId));
  if (!gone.length) return next;
  const all = gone.some((c) => !c.gpuIds);
  const freed = new Set(gone.flatMap((c) => c.gpuIds ?? []));
  const gpus = next.gpus.map((g) => (all || freed.has(g.index) ? { ...g, utilPct: 0, memUsedMiB: 0 } : g));
  return { ...next, gpus };
}

function mergeGpus(prev: readonly GpuSample[] | undefined, part: readonly GpuSample[]): GpuSample[] {
  const byIndex = new Map((prev ?? []).map((g) => [g.index, g]));
  for (const g of part) byIndex.set(g.index, g);
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}
