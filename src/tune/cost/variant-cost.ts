// The GPU time one launch held, from the runner's clock readings. On a GPU host it is
// wall time; on the simulated host it is simulated time, what a real host would spend: the
// modelled startup (sim-serve plays the load instantly), the time the server served the client
// (warm-ups and timed requests) x the launch's clock speed, and the rest of ready-to-stop (the
// client's own setup: its worker thread starting, the sampler and server stop) at wall time.
// Failed starts count as startup only.
import type { VariantGpuTime } from '../../core/events.js';
import type { Variant } from '../../core/variant.js';
import type { BenchResult } from '../../bench/types.js';
import { gpusHeld } from '../../model/layout.js';
import { variantGpuTime } from './gpu-hours.js';

export interface LaunchClock {
  /** performance.now() readings, ms. */
  launchMs: number;
  readyMs?: number;
  stopMs: number;
  /** The server's reported startup (simulated seconds on the simulated host), when known. */
  startupS?: number;
  /** Simulated clock speed of the launch; absent on a GPU host. */
  simSpeed?: number;
  /**
   * Wall seconds of ready-to-stop in which the server served the client (servedWallS summed over
   * the launch's benchmarks). Only these run on the simulated clock; absent: all of ready-to-stop.
   */
  servedWallS?: number;
  /** The host has no GPU (llama.cpp on the CPU): the launch held none. */
  cpuHost?: boolean;
}

export function launchGpuTime(variant: Variant, c: LaunchClock): VariantGpuTime {
  const wall = (a: number, b: number) => Math.max(0, b - a) / 1000;
  const sim = c.simSpeed !== undefined;
  const k = c.simSpeed ?? 1;
  const startupS = c.startupS ?? wall(c.launchMs, c.readyMs ?? c.stopMs) * k;
  const span = c.readyMs === undefined ? 0 : wall(c.readyMs, c.stopMs);
  // Why not span x k: the client's setup between benchmarks (about 0.2-0.3 s of wall per
  // benchmark here, mostly its worker thread loading) takes the same wall time on a GPU host; x k
  // it read as 1-1.5 simulated s per benchmark that no real host spends (perf/tuning-cost.md).
  const served = Math.min(span, c.servedWallS ?? span);
  const benchS = served * k + (span - served);
  // On a GPU host the reported startup is the same wall clock; on the simulated host it replaces
  // the instant load with the modelled one.
  return variantGpuTime(
    { gpus: c.cpuHost ? 0 : gpusHeld(variant.engine, variant.knobs), launchS: 0, readyS: startupS, stopS: startupS + benchS },
    sim,
  );
}

/**
 * Wall seconds of one benchmark call (`callWallS` long) in which the server served the client:
 * from the client's first request (reachability check, warm-ups) to the end of its timed run, as
 * the bench result's own clock gives them (startedAt, clockOriginMs, duration). The rest of the
 * call is the client's own setup. Without those readings, the whole call.
 */
export function servedWallS(bench: Pick<BenchResult, 'startedAt' | 'clockOriginMs' | 'metrics'>, callWallS: number): number {
  const preS = bench.clockOriginMs === undefined ? NaN : (bench.clockOriginMs - Date.parse(bench.startedAt)) / 1000;
  if (!Number.isFinite(preS) || !Number.isFinite(bench.metrics.duration)) return callWallS;
  return Math.min(callWallS, Math.max(0, preS) + Math.max(0, bench.metrics.duration));
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
