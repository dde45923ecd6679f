// The model's answer for one configuration without launching anything: the virtual-clock
// simulation sim-serve's scheduler runs, reported with `vllm bench serve`'s result keys.
import { UserError } from '../../core/errors.js';
import { isGpuEngine, type EngineName, type Knobs } from '../../core/variant.js';
import type { BenchMetrics } from '../../core/metrics.js';
import { simulateWorkload } from '../scheduler/virtual.js';
import { TARGET_VERSIONS, versionChanges } from '../../model/versions.js';
import type { LengthPair } from './workload.js';
import type { CorrectionSet } from '../../model/calibration/corrections.js';
import { measuredError, type MeasuredError } from '../../model/data/measured-error.js';

export interface PredictInput {
  engine: EngineName;
  engineVersion?: string;
  model: string;
  gpu: string;
  gpus: number;
  knobs: Knobs;
  requests: LengthPair[];
  maxConcurrency?: number;
  requestRate?: number;
  seed: number;
  /** Host corrections (a calibration's); absent = the model as fitted. */
  corrections?: CorrectionSet;
  /** The first N requests warm the server and are left out of the figures (aiperf --warmup-request-count). */
  warmupRequests?: number;
}

/** One prediction: vLLM's result keys (null when it does not fit) plus servelab's own. */
export type Prediction = Partial<BenchMetrics> & {
  engine: EngineName;
  engine_version: string;
  model_id: string;
  gpu: string;
  gpus: number;
  num_prompts: number;
  max_concurrency: number | null;
  request_rate: number | 'inf';
  fits: boolean;
  reason?: string;
  kv_cache_tokens?: number;
  preemptions?: number;
  /** Version-specific changes the model applied (with sources). */
  version_changes?: { why: string; source: string }[];
  /** Share of prompt tokens the prefix cache served, for a workload with reuse (src/sim/predict/reuse-requests.ts). */
  prefix_cache_hit_rate?: number;
  simulated: 'virtual-clock';
  /** The model's measured error for this engine and concurrency on held-out real runs (src/model/data/measured-error.ts). */
  measured_error?: MeasuredError;
};

export function predict(p: PredictInput): Prediction {
  if (!isGpuEngine(p.engine)) throw new UserError(`servelab's simulator has no model of ${p.engine}`);
  const version = p.engineVersion ?? TARGET_VERSIONS[p.engine];
  const r = simulateWorkload({
    engine: p.engine,
    engineVersion: version,
    gpu: p.gpu,
    gpus: p.gpus,
    model: p.model,
    knobs: p.knobs,
    requests: p.requests,
    ...(p.maxConcurrency ? { maxConcurrency: p.maxConcurrency } : {}),
    ...(p.requestRate !== undefined ? { requestRate: p.requestRate } : {}),
    seed: p.seed,
    ...(p.corrections ? { corrections: p.corrections } : {}),
    ...(p.warmupRequests ? { warmupRequests: p.warmupRequests } : {}),
  });
  const changes = versionChanges(p.engine, version);
  return {
    engine: p.engine,
    engine_version: version,
    model_id: p.model,
    gpu: p.gpu,
    gpus: p.gpus,
    num_prompts: p.requests.length,
    max_concurrency: p.maxConcurrency ?? null,
    request_rate: p.requestRate !== undefined && Number.isFinite(p.requestRate) ? p.requestRate : 'inf',
    ...(r.metrics ?? {}),
    fits: r.fit.fits,
    ...(r.fit.reason ? { reason: r.fit.reason } : {}),
    ...(r.metrics ? { kv_cache_tokens: r.kvCapacityTokens, preemptions: r.preemptions } : {}),
    ...(changes.length ? { version_changes: changes } : {}),
    ...(r.prefixCacheHitRate !== undefined ? { prefix_cache_hit_rate: r.prefixCacheHitRate } : {}),
    simulated: 'virtual-clock',
    ...errorBand(p),
  };
}

/** The measured error band at the client's concurrency (all requests at once: the whole workload). */
function errorBand(p: PredictInput): { measured_error?: MeasuredError } {
  const band = isGpuEngine(p.engine) ? measuredError(p.engine, p.maxConcurrency ?? p.requests.length) : undefined;
  return band ? { measured_error: band } : {};
}
