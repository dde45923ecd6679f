// The GPU time one launch held, from the runner's clock readings (issue 16). On a GPU host it is
// wall time; on the simulated host it is simulated time: the modelled startup (sim-serve plays the
// load instantly) and the benchmark's wall time x the launch's clock speed, what a real host would
// spend. Failed starts count as startup only.
import type { VariantGpuTime } from '../core/events.js';
import type { Variant } from '../core/variant.js';
import { resolveParallel } from '../model/estimate.js';
import { variantGpuTime } from './gpu-hours.js';

/** GPUs a variant's server holds: TP x PP x DP (DP-attention inside the TP group adds none). */
export function gpusHeld(variant: Variant): number {
  return resolveParallel(variant.engine, variant.knobs).gpusUsed;
}

export interface LaunchClock {
  /** performance.now() readings, ms. */
  launchMs: number;
  readyMs?: number;
  stopMs: number;
  /** The server's reported startup (simulated seconds on the simulated host), when known. */
  startupS?: number;
  /** Simulated clock speed of the launch; absent on a GPU host. */
  simSpeed?: number;
}

export function launchGpuTime(variant: Variant, c: LaunchClock): VariantGpuTime {
  const wall = (a: number, b: number) => Math.max(0, b - a) / 1000;
  const sim = c.simSpeed !== undefined;
  const k = c.simSpeed ?? 1;
  const startupS = c.startupS ?? wall(c.launchMs, c.readyMs ?? c.stopMs) * k;
  const benchS = c.readyMs === undefined ? 0 : wall(c.readyMs, c.stopMs) * k;
  // On a GPU host the reported startup is the same wall clock; on the simulated host it replaces
  // the instant load with the modelled one.
  return variantGpuTime({ gpus: gpusHeld(variant), launchS: 0, readyS: startupS, stopS: startupS + benchS }, sim);
}

/** Two runs of one variant (repeats): their GPU time added. */
export function addGpuTime(a: VariantGpuTime | undefined, b: VariantGpuTime | undefined): VariantGpuTime | undefined {
  if (!a) return b;
  if (!b) return a;
  return {
    gpus: Math.max(a.gpus, b.gpus),
    startupS: a.startupS + b.startupS,
    benchmarkS: a.benchmarkS + b.benchmarkS,
    startupGpuS: a.startupGpuS + b.startupGpuS,
    benchmarkGpuS: a.benchmarkGpuS + b.benchmarkGpuS,
    gpuS: a.gpuS + b.gpuS,
    simulated: a.simulated && b.simulated,
  };
}
