// GPU-hours in words for the screens: the session's cost on the Results pages and its
// running figure on the Run screen's status line. Formatting only: the figures are the core's
// (session-cost) or the projection's (view-cost.ts liveCost); simulated time always says so.
import type { SessionGpuTime } from '../../core/events.js';
import { formatGpuHours, type LiveCost } from '../../core/view-cost.js';
import { roundedDurationText } from '../../core/duration-text.js';

/** The longest of `choices` that fits `width` columns (the last one when none does). */
function longestFitting(choices: readonly string[], width: number): string {
  return choices.find((c) => [...c].length <= width) ?? choices.at(-1)!;
}

/**
 * "cost: host 1.20 GPU-h (8 GPUs x 9 min) · variants held 0.38 (startup 0.32, benchmark 0.06) ·
 * simulated time", shortened to fit: the core's own summary on a wide terminal.
 */
export function sessionCostLine(c: SessionGpuTime, width: number): string {
  // A host without GPUs says what it used: threads, wall, the servers' CPU-seconds.
  if (c.cpu)
    return longestFitting(
      [`cost: ${c.summary}`, `cost: ${c.cpu.cpuS.toFixed(1)} CPU-s over ${roundedDurationText(c.wallS)} · wall clock`],
      width,
    );
  const host = `host ${formatGpuHours(c.hostGpuHours)} GPU-h (${c.hostGpus} GPUs x ${roundedDurationText(c.wallS)})`;
  const clock = c.simulated ? 'simulated time' : 'wall clock';
  const held = `variants held ${formatGpuHours(c.variantGpuHours)}`;
  return longestFitting(
    [
      `cost: ${c.summary}`,
      `cost: ${host} · ${held} (startup ${formatGpuHours(c.startupGpuHours)}, benchmark ${formatGpuHours(c.benchmarkGpuHours)}; ${c.busyPct.toFixed(0)}% of the host) · ${clock}`,
      `cost: ${host} · ${held} (startup ${formatGpuHours(c.startupGpuHours)}, benchmark ${formatGpuHours(c.benchmarkGpuHours)}) · ${clock}`,
      `cost: ${host} · ${held} · ${clock}`,
      `cost: ${host} · ${clock}`,
    ],
    width,
  );
}

/** The Run screen's cost: "host 0.80 GPU-h so far · variants held 0.36 GPU-h · simulated time". */
export function liveCostText(c: LiveCost, width: number): string {
  const soFar = c.final ? '' : ' so far';
  if (c.cpuS !== undefined)
    return longestFitting(
      [`servers used ${c.cpuS.toFixed(1)} CPU-s${soFar} (CPU host) · wall clock`, `${c.cpuS.toFixed(0)} CPU-s${soFar}`],
      width,
    );
  const host = c.hostGpuHours === null ? null : `host ${formatGpuHours(c.hostGpuHours)} GPU-h${soFar}`;
  const held = `variants held ${formatGpuHours(c.variantGpuHours)} GPU-h${host ? '' : soFar}`;
  const clock = c.simulated ? 'simulated time' : 'wall clock';
  return longestFitting(
    [
      [host, held, clock],
      [host ?? held, clock],
    ].map((parts) => parts.filter(Boolean).join(' · ')),
    width,
  );
}
