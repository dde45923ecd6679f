// The simulator as the calibration fit's predictor: an observation names its variant, host and
// workload; the predictor reruns the virtual clock under given host corrections and returns the
// figures the fit compares (src/model/calibration/fit.ts). Also the model's calibrated figure for
// one variant with its band, for predict and the planner.
import type { Knobs } from '../core/variant.js';
import type { BenchMetrics } from '../bench/types.js';
import type { Figures, Observation, Predictor } from '../model/calibration/fit.js';
import { simulateWorkload } from './virtual.js';
import { scenarioRequests, type LengthPair } from './workload.js';

/** The workload of an observation, as a profile's workload names it. */
export interface ObservedWorkload {
  name: string;
  dataset: string;
  numPrompts: number;
  inputLen?: number;
  outputLen?: number;
  rangeRatio?: number;
  seed: number;
  maxConcurrency: number | null;
  requestRate: number | null;
}

/** An observation the simulator can rerun: the variant on its host, under its workload. */
export interface SimObservation extends Observation {
  run: {
    engine: string;
    engineVersion?: string;
    model: string;
    gpu: string;
    gpus: number;
    gpusPerNode?: number;
    knobs: Knobs;
    workload: ObservedWorkload;
  };
}

const ENGINES = new Set(['vllm', 'sglang', 'trtllm']);

/** A predictor over the virtual clock; request lengths are drawn once per workload. */
export function simPredictor(): Predictor<SimObservation> {
  const lengths = new Map<string, LengthPair[]>();
  return (o, k) => {
    const r = o.run;
    // An engine the simulator does not model (llama.cpp until its estimate lands) has no figure.
    if (!ENGINES.has(r.engine)) return undefined;
    const w = r.workload;
    const key = JSON.stringify(w);
    if (!lengths.has(key)) lengths.set(key, scenarioRequests(w, w.seed));
    const opts = { engine: r.engine as 'vllm', gpu: r.gpu, gpus: r.gpus, model: r.model, knobs: r.knobs, ...(r.engineVersion ? { engineVersion: r.engineVersion } : {}), ...(r.gpusPerNode ? { gpusPerNode: r.gpusPerNode } : {}) };
    try {
      const res = simulateWorkload({
        ...opts,
        requests: lengths.get(key)!,
        ...(w.maxConcurrency ? { maxConcurrency: w.maxConcurrency } : {}),
        ...(w.requestRate ? { requestRate: w.requestRate } : {}),
        seed: w.seed,
        corrections: { host: k, engines: {} },
      });
      return res.metrics ? figuresOf(res.metrics) : undefined;
    } catch {
      return undefined; // unknown GPU or model: the fit drops the observation and names it
    }
  };
}

/** The fit's figures from a benchmark result block. */
export function figuresOf(m: Pick<BenchMetrics, 'total_token_throughput'> & { [k: `${string}_${'ttft' | 'tpot'}_ms`]: number }): Figures {
  return { totalTokPerS: m.total_token_throughput, meanTtftMs: m.mean_ttft_ms, meanTpotMs: m.mean_tpot_ms };
}
