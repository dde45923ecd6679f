// GPU-hours as the views show them (issue 16): per variant (its launches' GPU time, startup and
// benchmark apart) and per session (the core's session-cost event; while a run is going, what the
// finished variants held so far). Pure formatting and sums over what the core recorded.
import type { VariantGpuTime, VariantResult } from './events.js';
import type { SessionView } from './view.js';

export function formatGpuHours(h: number): string {
  return h >= 100 ? h.toFixed(0) : h >= 10 ? h.toFixed(1) : h.toFixed(2);
}

export function formatDuration(s: number): string {
  if (s < 90) return `${s.toFixed(0)} s`;
  if (s < 5400) return `${(s / 60).toFixed(0)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/** "0.12 GPU-h (2 GPUs: startup 3 min, benchmark 1 min)", with "simulated" where it is. */
export function gpuTimeText(t: VariantGpuTime | undefined): string {
  if (!t) return '-';
  return `${formatGpuHours(t.gpuS / 3600)} GPU-h (${t.gpus} GPU${t.gpus === 1 ? '' : 's'}: startup ${formatDuration(t.startupS)}, benchmark ${formatDuration(t.benchmarkS)}${t.simulated ? ', simulated' : ''})`;
}

export function resultGpuHours(r: VariantResult): number | null {
  return r.gpuTime ? r.gpuTime.gpuS / 3600 : null;
}

/** GPU-hours the variants of the shown stages held so far (the live figure before session-cost). */
export function variantGpuHoursSoFar(view: SessionView): number {
  return view.stages.flatMap((s) => s.rows).reduce((a, { result }) => a + (resultGpuHours(result) ?? 0), 0);
}

/** The session's cost line: the core's summary once it came, else the running total so far. */
export function sessionCostText(view: SessionView): string | null {
  if (view.cost) return view.cost.summary;
  const soFar = variantGpuHoursSoFar(view);
  return soFar > 0 ? `variants have held ${formatGpuHours(soFar)} GPU-hours so far${view.simulated ? ' (simulated time)' : ''}` : null;
}
