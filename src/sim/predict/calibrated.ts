// The simulator as the calibration fit's predictor: an observation names its variant, host and
// workload; the predictor reruns the virtual clock under given host corrections and returns the
// figures the fit compares (src/model/calibration/fit.ts). Also the observation a measured
// result makes (calibrate's sources, and the session as each variant is measured). llama.cpp
// observations go to its own estimate (llamacpp-calibrated.ts).
import { servesGguf } from '../../engines/index.js';
import { GPU_ENGINES, type Knobs, type Variant } from '../../core/variant.js';
import type { CpuLoad } from '../../model/cpu.js';
import { findGpu } from '../../model/gpus.js';
import type { BenchMetrics } from '../../core/metrics.js';
import type { Figures, Observation, Predictor } from '../../model/calibration/observation.js';
import { PREDICTION_LATENCY, simulateWorkload } from '../scheduler/virtual.js';
import { llamacppFigures } from './llamacpp-calibrated.js';
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
    /** llama.cpp on a CPU: the host's load the variant was launched under, where it was read. */
    cpuLoad?: CpuLoad;
  };
}

const ENGINES: ReadonlySet<string> = new Set(GPU_ENGINES);

/** A predictor over the virtual clock; request lengths are drawn once per workload. */
export function simPredictor(): Predictor<SimObservation> {
  const lengths = new Map<string, LengthPair[]>();
  return (o, k) => {
    const r = o.run;
    // llama.cpp has its own closed-form estimate; any other engine the simulator does not model has no figure.
    if (servesGguf(r.engine)) return llamacppFigures(r, k);
    if (!ENGINES.has(r.engine)) return undefined;
    const w = r.workload;
    const key = JSON.stringify(w);
    if (!lengths.has(key)) lengths.set(key, scenarioRequests(w, w.seed));
    const opts = {
      engine: r.engine as 'vllm',
      gpu: r.gpu,
      gpus: r.gpus,
      model: r.model,
      knobs: r.knobs,
      ...(r.engineVersion ? { engineVersion: r.engineVersion } : {}),
      ...(r.gpusPerNode ? { gpusPerNode: r.gpusPerNode } : {}),
    };
    try {
      const res = simulateWorkload({
        ...opts,
        requests: lengths.get(key)!,
        ...(w.maxConcurrency ? { maxConcurrency: w.maxConcurrency } : {}),
        ...(w.requestRate ? { requestRate: w.requestRate } : {}),
        seed: w.seed,
        corrections: { host: k, engines: {} },
        latencyMetrics: PREDICTION_LATENCY,
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

/** What an observation reads from a variant result (core/events.ts VariantResult, a profile's RecordedResult). */
interface MeasuredResult {
  variantId: string;
  scenario: string;
  status: string;
  variant: Pick<Variant, 'engine' | 'model' | 'knobs' | 'engineVersion'>;
  metrics?: Pick<BenchMetrics, 'total_token_throughput'> & { [k: `${string}_${'ttft' | 'tpot'}_ms`]: number };
  predicted?: Figures;
}

/** A release string the model can select (versions.ts), not 'simulated' or 'unknown'. */
const release = (v: string | undefined) => (v && /^\d/.test(v) ? v : undefined);

/** The catalog's short name for a GPU the host reported ('NVIDIA H100 80GB HBM3' -> 'H100'). */
const simGpu = (name: string) => findGpu(name)?.aliases[0] ?? name;

/** The workload of a scenario as an observation keeps it. */
export function workloadOf(s: Omit<ObservedWorkload, 'requestRate'> & { requestRate?: number | null }): ObservedWorkload {
  return {
    name: s.name,
    dataset: s.dataset,
    numPrompts: s.numPrompts,
    ...(s.inputLen !== undefined ? { inputLen: s.inputLen } : {}),
    ...(s.outputLen !== undefined ? { outputLen: s.outputLen } : {}),
    ...(s.rangeRatio !== undefined ? { rangeRatio: s.rangeRatio } : {}),
    seed: s.seed,
    maxConcurrency: s.maxConcurrency,
    requestRate: s.requestRate ?? null,
  };
}

/** One observation from a measured result (a session's or a profile's); undefined when it measured nothing. */
export function observationOf(
  r: MeasuredResult,
  host: { gpuName: string; gpuCount: number },
  workload: ObservedWorkload,
  versions: Record<string, string>,
  gpusPerNode?: number,
): SimObservation | undefined {
  if (r.status !== 'ok' || !r.metrics || !(r.metrics.total_token_throughput > 0)) return undefined;
  const engine = r.variant.engine;
  const version = release(r.variant.engineVersion) ?? release(versions[engine]);
  return {
    id: `${r.variantId}@${r.scenario}`,
    engine,
    measured: figuresOf(r.metrics as Parameters<typeof figuresOf>[0]),
    ...(r.predicted
      ? { prior: { totalTokPerS: r.predicted.totalTokPerS, meanTtftMs: r.predicted.meanTtftMs, meanTpotMs: r.predicted.meanTpotMs } }
      : {}),
    run: {
      engine,
      ...(version ? { engineVersion: version } : {}),
      model: r.variant.model,
      gpu: simGpu(host.gpuName),
      gpus: host.gpuCount,
      ...(gpusPerNode ? { gpusPerNode } : {}),
      knobs: r.variant.knobs,
      workload,
    },
  };
}
