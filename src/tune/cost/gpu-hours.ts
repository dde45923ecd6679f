// GPU-hours: what tuning costs. A variant pays for the GPUs it holds from launch to stop
// (startup and benchmark apart); a session pays for every GPU of the host for its whole wall time
// (an idle GPU is paid for too). On the simulated host every figure is simulated time: what a real
// host would spend (modelled startup, the time the server served the client x the simulator's
// clock speed, the client's own setup at wall time: variant-cost.ts), and says so.
import type { SessionGpuTime, VariantGpuTime } from '../../core/events.js';

// Pure; the session records the times and these functions turn them into figures.

/** One variant's times on the session's clock, seconds (simulated seconds on the simulated host). */
export interface VariantTimes {
  /** GPUs the variant held (its server's TP x PP x DP). */
  gpus: number;
  launchS: number;
  /** When it answered as ready; absent when it never did (failed start: all of it is startup). */
  readyS?: number;
  /** When it was stopped (its GPUs free again). */
  stopS: number;
}

export function variantGpuTime(t: VariantTimes, simulated: boolean): VariantGpuTime {
  if (!(t.gpus >= 0) || !(t.stopS >= t.launchS)) throw new RangeError(`bad variant times: ${JSON.stringify(t)}`);
  const ready = t.readyS === undefined ? t.stopS : Math.min(Math.max(t.readyS, t.launchS), t.stopS);
  const startupS = ready - t.launchS;
  const benchmarkS = t.stopS - ready;
  return {
    gpus: t.gpus,
    startupS,
    benchmarkS,
    startupGpuS: startupS * t.gpus,
    benchmarkGpuS: benchmarkS * t.gpus,
    gpuS: (startupS + benchmarkS) * t.gpus,
    simulated,
  };
}

/**
 * A session on a real host without GPUs (llama.cpp on the CPU) says what it used instead: its CPU
 * threads, the wall time, and the servers' own CPU-seconds (runner.ts reads them from /proc), not "0 GPUs".
 */
function cpuSummary(cpu: { threads: number; cpuS: number }, wallS: number, variants: readonly VariantGpuTime[]): string {
  const startup = variants.reduce((a, v) => a + v.startupS, 0);
  const bench = variants.reduce((a, v) => a + v.benchmarkS, 0);
  return `CPU host (${cpu.threads} thread${cpu.threads === 1 ? '' : 's'}, no GPU): ${formatDuration(wallS)} wall; the servers used ${cpu.cpuS.toFixed(1)} CPU-seconds (startup ${formatDuration(startup)}, benchmark ${formatDuration(bench)} of wall) [wall clock]`;
}

export function sessionGpuTime(
  hostGpus: number,
  wallS: number,
  variants: readonly VariantGpuTime[],
  simulated: boolean,
  cpu?: { threads: number; cpuS: number },
): SessionGpuTime {
  const h = (s: number) => s / 3600;
  const hostGpuHours = h(hostGpus * wallS);
  const startup = h(variants.reduce((a, v) => a + v.startupGpuS, 0));
  const bench = h(variants.reduce((a, v) => a + v.benchmarkGpuS, 0));
  const variantGpuHours = startup + bench;
  const busyPct = hostGpuHours > 0 ? (variantGpuHours / hostGpuHours) * 100 : 0;
  const clock = simulated ? 'simulated time: what the modelled host would spend' : 'wall clock';
  return {
    hostGpus,
    wallS,
    hostGpuHours,
    variantGpuHours,
    startupGpuHours: startup,
    benchmarkGpuHours: bench,
    busyPct,
    simulated,
    ...(cpu && hostGpus === 0 && !simulated ? { cpu, summary: cpuSummary(cpu, wallS, variants) } : { summary: fullSummary() }),
  };
  function fullSummary(): string {
    return `${formatGpuHours(hostGpuHours)} host GPU-hours (${hostGpus} GPUs x ${formatDuration(wallS)}); variants held ${formatGpuHours(variantGpuHours)} (startup ${formatGpuHours(startup)}, benchmark ${formatGpuHours(bench)}; ${busyPct.toFixed(0)}% of the host) [${clock}]`;
  }
}

/**
 * The simulated session's wall time: waves of variants that ran together (one variant per wave
 * when nothing runs in parallel) take as long as their longest member; plus the session's own
 * time outside variants (planning, probes), in simulated seconds.
 */
export function simulatedWallS(waves: readonly (readonly VariantGpuTime[])[], otherS = 0): number {
  return waves.reduce((a, w) => a + Math.max(0, ...w.map((v) => v.startupS + v.benchmarkS)), 0) + otherS;
}

// The views format these figures (src/core/view-cost.ts); re-exported for the tuning code.
import { formatDuration, formatGpuHours } from '../../core/view-cost.js';
