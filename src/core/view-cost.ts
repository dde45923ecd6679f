// GPU-hours as the views show them: per variant (its launches' GPU time, startup and
// benchmark apart) and per session (the core's session-cost event; while a run is going, what the
// finished variants held so far). Pure formatting and sums over what the core recorded.
import type { TuneEvent, VariantGpuTime, VariantResult } from './events.js';
import type { PlanInfo } from './events.js';
import { roundedDurationText } from './duration-text.js';

/**
 * The part of the session view the GPU-time rules read and write (view.ts's SessionView has it),
 * declared here so that the rules do not import the projection that calls them.
 */
export interface CostView {
  simulated: boolean;
  plan?: Pick<PlanInfo, 'host'>;
  stages: { rows: { result: VariantResult }[] }[];
  running: Record<string, { phase: string }>;
  cost?: Extract<TuneEvent, { type: 'session-cost' }>['cost'];
  startedAt?: string;
  waveClock?: WaveClock;
  launchGpuS?: number;
}

export function formatGpuHours(h: number): string {
  return h >= 100 ? h.toFixed(0) : h >= 10 ? h.toFixed(1) : h.toFixed(2);
}

/** "0.12 GPU-h (2 GPUs: startup 3 min, benchmark 1 min)", with "simulated" where it is. */
export function gpuTimeText(t: VariantGpuTime | undefined): string {
  if (!t) return '-';
  // A launch on a host without GPUs (llama.cpp on the CPU) held none: its time alone (CPU-seconds are the row's cpuS).
  if (t.gpus === 0 && !t.simulated)
    return `CPU (no GPU): startup ${roundedDurationText(t.startupS)}, benchmark ${roundedDurationText(t.benchmarkS)}`;
  return `${formatGpuHours(t.gpuS / 3600)} GPU-h (${t.gpus} GPU${t.gpus === 1 ? '' : 's'}: startup ${roundedDurationText(t.startupS)}, benchmark ${roundedDurationText(t.benchmarkS)}${t.simulated ? ', simulated' : ''})`;
}

export function resultGpuHours(r: VariantResult): number | null {
  return r.gpuTime ? r.gpuTime.gpuS / 3600 : null;
}

/**
 * GPU-hours the variants held so far (the live figure before session-cost): the stage rows, and
 * the launches outside them (validation sides, sweeps) that launch-cost reported.
 */
export function variantGpuHoursSoFar(view: CostView): number {
  const rows = view.stages.flatMap((s) => s.rows).reduce((a, { result }) => a + (resultGpuHours(result) ?? 0), 0);
  return rows + (view.launchGpuS ?? 0) / 3600;
}

/** On a real host without GPUs (llama.cpp on the CPU): the servers' CPU-seconds so far (rows' cpuS); null on a GPU or simulated host. */
export function cpuSecondsSoFar(view: CostView): number | null {
  if (view.simulated || view.plan?.host.gpuCount !== 0) return null;
  return view.stages.flatMap((s) => s.rows).reduce((a, { result }) => a + (result.cpuS ?? 0), 0);
}

/** The session's cost line: the core's summary once it came, else the running total so far. */
export function sessionCostText(view: CostView): string | null {
  if (view.cost) return view.cost.summary;
  const cpuS = cpuSecondsSoFar(view);
  if (cpuS !== null) return cpuS > 0 ? `the servers have used ${cpuS.toFixed(1)} CPU-seconds so far (CPU host, no GPU)` : null;
  const soFar = variantGpuHoursSoFar(view);
  return soFar > 0 ? `variants have held ${formatGpuHours(soFar)} GPU-hours so far${view.simulated ? ' (simulated time)' : ''}` : null;
}

/**
 * The simulated session time so far, counted as the core's ledger counts it (src/tune/cost/ledger.ts):
 * launches that ran together form a wave (the running set is not empty from its first launch to
 * its last finish), and a closed wave adds its longest member's time. Seconds, simulated.
 */
export interface WaveClock {
  /** Closed waves, summed. */
  doneS: number;
  /** The longest member of the wave still open, so far. */
  openS: number;
}

const launchS = (r: VariantResult | undefined) => (r?.gpuTime ? r.gpuTime.startupS + r.gpuTime.benchmarkS : 0);

/**
 * A finished variant on the clock. A result that replaces an earlier one of the same variant (the
 * median after adaptive repeats, whose GPU time sums every run) adds only the runs since; the
 * wave closes once nothing runs. `before` is the row the result replaces, if any.
 */
export function applyWaveClock<V extends CostView>(view: V, r: VariantResult, before: VariantResult | undefined): V {
  return addToWave(view, Math.max(0, launchS(r) - launchS(before)));
}

/** A launch of `seconds` in the open wave; the wave closes once nothing runs. */
function addToWave<V extends CostView>(view: V, seconds: number): V {
  const clock = view.waveClock ?? { doneS: 0, openS: 0 };
  const next = { ...view, waveClock: { doneS: clock.doneS, openS: Math.max(clock.openS, seconds) } };
  return Object.keys(view.running).length === 0 ? closeWave(next) : next;
}

/**
 * A launch outside the stage tables (a validation side, a finalist's sweep) that the core has
 * paid (launch-cost): its server is stopped, so it leaves the running set, its time joins the
 * wave as a finished variant's does, and its GPU time the variants' total.
 */
export function applyLaunchCost<V extends CostView>(view: V, e: Extract<TuneEvent, { type: 'launch-cost' }>): V {
  const { [e.variantId]: stopped, ...others } = view.running;
  const running = stopped?.phase === 'stopping' ? others : view.running;
  const next = { ...view, running, launchGpuS: (view.launchGpuS ?? 0) + e.gpuTime.gpuS };
  return addToWave(next, e.gpuTime.startupS + e.gpuTime.benchmarkS);
}

export function closeWave<V extends CostView>(view: V): V {
  const clock = view.waveClock;
  return clock && clock.openS > 0 ? { ...view, waveClock: { doneS: clock.doneS + clock.openS, openS: 0 } } : view;
}

/** The session's GPU-hours while it runs: the core's figures once it summed them, else so far. */
export interface LiveCost {
  /** All host GPUs x the session's time so far; null when the host's GPU count is not known yet. */
  hostGpuHours: number | null;
  variantGpuHours: number;
  simulated: boolean;
  /** True once the core's session-cost came (the figures are final). */
  final: boolean;
  /** A real host without GPUs: the servers' CPU-seconds, instead of GPU-hours. */
  cpuS?: number;
}

/**
 * Host GPU-hours so far: on the simulated host, its GPUs x the closed waves' simulated time (a
 * launch adds its time once its wave ends: a stage variant at variant-finished, a validation side
 * or a sweep at launch-cost); on a GPU host, its GPUs x the wall clock since session-started.
 * `nowMs` is the caller's clock (Date.now()).
 */
export function liveCost(view: CostView, nowMs: number): LiveCost {
  const c = view.cost;
  const cpuS = c ? c.cpu?.cpuS : (cpuSecondsSoFar(view) ?? undefined);
  const cpu = cpuS !== undefined ? { cpuS } : {};
  if (c) return { hostGpuHours: c.hostGpuHours, variantGpuHours: c.variantGpuHours, simulated: c.simulated, final: true, ...cpu };
  const gpus = view.plan?.host.gpuCount;
  const started = view.startedAt ? Date.parse(view.startedAt) : NaN;
  const wallS = view.simulated ? (view.waveClock?.doneS ?? 0) : Number.isFinite(started) ? Math.max(0, nowMs - started) / 1000 : null;
  return {
    hostGpuHours: gpus && wallS !== null ? (gpus * wallS) / 3600 : null,
    variantGpuHours: variantGpuHoursSoFar(view),
    simulated: view.simulated,
    final: false,
    ...cpu,
  };
}
