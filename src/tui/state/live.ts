// The variants running now, as the Run screen draws them: each one's lifecycle, log tail and live
// figures, in launch order (several at once when variants of a stage share the host on disjoint
// GPUs). A pure reducer over the core's events: it files what the core reported.
import type { TuneEvent } from '../../core/events.js';
import type { RunOfRuns } from '../../core/run-of-runs.js';
import type { ServerMetricsSample } from '../../core/metrics.js';
import type { LiveSnapshot } from '../../core/metrics.js';

/** Bounds that keep memory flat however long a run lasts. */
export const HISTORY_MAX = 120;
export const LOG_TAIL_MAX = 200;

export type Phase = 'launching' | 'ready' | 'warmup' | 'bench' | 'stopping';

export interface CurrentVariant {
  variantId: string;
  stage: string;
  phase: Phase;
  argv: string[];
  port: number;
  /** Short human label, as the core reported it. */
  label?: string;
  /** GPUs it is pinned to when it shares the host with other variants; absent: the host's GPUs. */
  gpuIds?: number[];
  /** A repeat launch: run n of at most `of` (absent: the first run). */
  run?: RunOfRuns;
  /** Wall-clock ms when the launch event was filed (for the elapsed display). */
  launchedAt: number;
  phaseAt: number;
  startupS?: number;
  logTail: string[];
  scenario?: string;
  numPrompts?: number;
  snapshot?: LiveSnapshot;
  /** Output and total tok/s, one point per snapshot, newest last. */
  outHistory: number[];
  totalHistory: number[];
  server?: ServerMetricsSample;
}

export function pushBounded<T>(list: readonly T[], items: readonly T[], max: number): T[] {
  return list.length + items.length > max ? [...list, ...items].slice(-max) : [...list, ...items];
}

function launched(e: Extract<TuneEvent, { type: 'variant-launching' }>, now: number): CurrentVariant {
  return {
    variantId: e.variantId,
    stage: e.stage,
    phase: 'launching',
    argv: e.argv,
    port: e.port,
    ...(e.label ? { label: e.label } : {}),
    ...(e.gpuIds ? { gpuIds: e.gpuIds } : {}),
    ...(e.run ? { run: e.run } : {}),
    launchedAt: now,
    phaseAt: now,
    logTail: [],
    outHistory: [],
    totalHistory: [],
  };
}

function patch(live: readonly CurrentVariant[], id: string, f: (c: CurrentVariant) => CurrentVariant): readonly CurrentVariant[] {
  const i = live.findIndex((c) => c.variantId === id);
  return i < 0 ? live : live.map((c, j) => (j === i ? f(c) : c));
}

/** One event applied to the running variants; the same array back when the event is not about them. */
export function applyLiveVariant(live: readonly CurrentVariant[], e: TuneEvent, now: number): readonly CurrentVariant[] {
  switch (e.type) {
    case 'variant-launching': {
      // A launch stopped without variant-finished (a validation side, a repeat run) is over once
      // the next one starts; a relaunch of the same variant (a repeat) keeps its place.
      const i = live.findIndex((c) => c.variantId === e.variantId);
      const next = launched(e, now);
      const kept = i >= 0 ? live.map((c, j) => (j === i ? next : c)) : [...live, next];
      return kept.filter((c) => c === next || c.phase !== 'stopping');
    }
    case 'server-log':
      return patch(live, e.variantId, (c) => ({ ...c, logTail: pushBounded(c.logTail, [e.line], LOG_TAIL_MAX) }));
    case 'server-ready':
      return patch(live, e.variantId, (c) => ({ ...c, phase: 'ready', phaseAt: now, startupS: e.startupS }));
    case 'warmup-started':
      return patch(live, e.variantId, (c) => ({ ...c, phase: 'warmup', phaseAt: now }));
    case 'bench-started':
      return patch(live, e.variantId, (c) => ({
        ...c,
        phase: 'bench',
        phaseAt: now,
        scenario: e.scenario,
        numPrompts: e.numPrompts,
        snapshot: undefined,
        outHistory: [],
        totalHistory: [],
      }));
    case 'bench-progress':
      return patch(live, e.variantId, (c) => ({
        ...c,
        snapshot: e.snapshot,
        outHistory: pushBounded(c.outHistory, [e.snapshot.outputTokPerS], HISTORY_MAX),
        totalHistory: pushBounded(c.totalHistory, [e.snapshot.totalTokPerS], HISTORY_MAX),
      }));
    case 'server-metrics':
      return patch(live, e.variantId, (c) => ({ ...c, server: e.metrics }));
    case 'server-stopping':
      return patch(live, e.variantId, (c) => ({ ...c, phase: 'stopping', phaseAt: now }));
    case 'variant-finished':
      return live.some((c) => c.variantId === e.result.variantId) ? live.filter((c) => c.variantId !== e.result.variantId) : live;
    // A launch without variant-finished (a validation side, a sweep) is over once the core paid it.
    case 'launch-cost':
      return live.some((c) => c.variantId === e.variantId && c.phase === 'stopping')
        ? live.filter((c) => c.variantId !== e.variantId || c.phase !== 'stopping')
        : live;
    // Nothing of a stage or of the validation runs once its verdict or table is in.
    case 'stage-finished':
    case 'validation-finished':
    case 'capacity-finished':
    case 'session-finished':
      return live.length ? [] : live;
    default:
      return live;
  }
}

/**
 * Seconds left in the benchmark at the pace so far; undefined until a request has finished.
 * `elapsedS` defaults to the snapshot's own clock (simulated time on the simulated host); pass
 * the wall-clock seconds since the benchmark started for a wall-clock ETA.
 */
export function etaSeconds(s: LiveSnapshot | undefined, elapsedS = s?.elapsedS ?? 0): number | undefined {
  if (!s || s.completed + s.failed <= 0 || s.total <= 0) return undefined;
  const done = s.completed + s.failed;
  return (elapsedS / done) * Math.max(0, s.total - done);
}
