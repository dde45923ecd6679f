// The virtual clock: run a whole workload through the scheduler as a discrete-event simulation
// (no waiting, deterministic to the token) and report it the way `vllm bench serve` would.
import type { EngineName, Knobs } from '../../core/variant.js';
import type { RequestOutput } from '../../bench/types.js';
import type { BenchMetrics, LatencyMetric } from '../../core/metrics.js';
import { ALL_LATENCY_METRICS, calculateMetrics } from '../../bench/metrics/metrics.js';
import { findGpu } from '../../model/gpus.js';
import type { GpuSpec } from '../../model/gpu-spec.js';
import { getModel, type ModelInfo } from '../../model/models.js';
import { resolveServer, type FitResult, type ServerConfig } from '../../model/estimate.js';
import { onNodes } from '../../model/interconnect.js';
import { correctServer } from '../../model/correct-server.js';
import { correctionsFor, type CorrectionSet } from '../../model/calibration/corrections.js';
import { Scheduler } from './scheduler.js';
import type { SimRequest } from './scheduler-types.js';
import { Rng } from './rng.js';
import { BurstFrontEnd, type FrontEndBatch } from './front-end.js';

export interface SimulateOptions {
  engine: EngineName;
  /** Catalog name, alias or nvidia-smi name, or a spec. */
  gpu: string | GpuSpec;
  gpus: number;
  /** HF id / local path, or parsed metadata. */
  model: string | ModelInfo;
  knobs: Knobs;
  /** Each request produces exactly outputLen tokens (as with ignore_eos); `blocks`: its token blocks, for the prefix cache. */
  requests: { promptLen: number; outputLen: number; blocks?: readonly number[] }[];
  /** Client-side cap on requests in flight (vllm bench --max-concurrency). */
  maxConcurrency?: number;
  /** Engine release to model (versions.ts); undefined = the release servelab targets. */
  engineVersion?: string;
  /** Requests per second (Poisson arrivals); undefined or Infinity = all at once. */
  requestRate?: number;
  seed: number;
  /** GPUs per node when the server spans nodes: its collectives cross the inter-node link. */
  gpusPerNode?: number;
  /** Host corrections (src/model/calibration): a truth file's simulated host, or a calibration. Absent = the model as fitted. */
  corrections?: CorrectionSet;
  /** The first N requests warm the server and are left out of the metrics (aiperf --warmup-request-count). */
  warmupRequests?: number;
  /**
   * The latency series whose mean, median, std and p99 are reported (all four unless said). The
   * planner reads only TTFT and TPOT means: sorting every inter-token gap of a 4000-prompt run
   * for each of its predictions was most of a plan's time.
   */
  latencyMetrics?: readonly LatencyMetric[];
}

/** The latency series a prediction is read for (throughput, mean TTFT, mean TPOT): the planner's and the calibration fit's. */
export const PREDICTION_LATENCY: readonly LatencyMetric[] = ['ttft', 'tpot'];

export interface SimulateResult {
  fit: FitResult;
  /** Null when the variant does not fit (see fit.reason). */
  metrics: BenchMetrics | null;
  kvCapacityTokens: number;
  preemptions: number;
  steps: number;
  /** Share of prompt tokens served from the prefix cache, when the requests carried token blocks (a workload with reuse). */
  prefixCacheHitRate?: number;
}

export function resolveOptions(
  o: Pick<SimulateOptions, 'engine' | 'gpu' | 'gpus' | 'model' | 'knobs' | 'engineVersion' | 'gpusPerNode' | 'corrections'>,
): ServerConfig & { fit: FitResult } {
  const gpu = typeof o.gpu === 'string' ? findGpu(o.gpu) : o.gpu;
  if (!gpu) throw new Error(`unknown GPU '${String(o.gpu)}'`);
  const model = typeof o.model === 'string' ? getModel(o.model) : o.model;
  if (!model) throw new Error(`unknown model '${String(o.model)}'`);
  const cfg = onNodes(resolveServer(o.engine, gpu, o.gpus, model, o.knobs, o.engineVersion), o.gpusPerNode);
  return o.corrections ? correctServer(cfg, correctionsFor(o.corrections, o.engine)) : cfg;
}

/** Requests on their way through the API server (front-end.ts): handed to the engine a busy period at a time. */
class FrontEnd {
  private readonly front = new BurstFrontEnd();
  private batches: { b: FrontEndBatch; reqs: SimRequest[] }[] = [];
  private head = 0;
  constructor(private readonly cfg: ServerConfig) {}

  send(r: SimRequest, now: number): void {
    const cost = this.cfg.eff.frontEndPerRequestS + this.cfg.eff.frontEndPerPromptTokenS * r.promptLen;
    const { batch, fresh } = this.front.send(r.id, now, cost);
    if (fresh) this.batches.push({ b: batch, reqs: [r] });
    else this.batches[this.batches.length - 1]!.reqs.push(r);
  }

  /** Requests handed to the engine by `now`. */
  ready(now: number): SimRequest[] {
    const out: SimRequest[] = [];
    while (this.head < this.batches.length && this.batches[this.head]!.b.at <= now) out.push(...this.batches[this.head++]!.reqs);
    return out;
  }

  nextReady(): number {
    return this.head < this.batches.length ? this.batches[this.head]!.b.at : Infinity;
  }
}

interface Track {
  start: number;
  last: number;
  ttft: number;
  itl: number[];
  out: number;
}

/** Simulate a workload on the virtual clock. Deterministic for the same options and seed. */
export function simulateWorkload(o: SimulateOptions): SimulateResult {
  const cfg = resolveOptions(o);
  if (!cfg.fit.fits) return { fit: cfg.fit, metrics: null, kvCapacityTokens: 0, preemptions: 0, steps: 0 };
  // TRT-LLM and SGLang cap the context at what the KV pool holds instead of failing (estimate.ts checkFit).
  const perGroup = Math.floor(cfg.kvCapacityTokens / cfg.par.dp);
  if (perGroup < cfg.maxModelLen) cfg.maxModelLen = perGroup;
  const sched = new Scheduler(cfg, o.seed);
  const n = o.requests.length;
  const rng = new Rng(o.seed);
  const arrivals: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    arrivals.push(t);
    if (o.requestRate && Number.isFinite(o.requestRate)) t += -Math.log(1 - rng.next()) / o.requestRate;
  }
  const maxConc = o.maxConcurrency ?? Infinity;
  const tracks: (Track | undefined)[] = new Array(n);
  const reqs: SimRequest[] = o.requests.map((r, i) => {
    const len = Math.min(r.promptLen, cfg.maxModelLen - 1);
    const out = Math.max(1, Math.min(r.outputLen, cfg.maxModelLen - len));
    return {
      id: i,
      promptLen: Math.max(1, len),
      maxTokens: out,
      outputTarget: out,
      arrival: arrivals[i]!,
      ...(r.blocks ? { blocks: r.blocks } : {}),
    };
  });
  let now = 0;
  let next = 0;
  let inflight = 0;
  let completed = 0;
  let lastEnd = 0;
  // The API server's serial front end (efficiency.ts frontEndPerRequestS, front-end.ts): requests
  // sent together reach the engine together, once the front end has preprocessed all of them.
  const front = new FrontEnd(cfg);
  while (completed < n) {
    while (next < n && arrivals[next]! <= now && inflight < maxConc) {
      const r = reqs[next]!;
      tracks[next] = { start: now, last: now, ttft: 0, itl: [], out: 0 };
      front.send(r, now);
      inflight++;
      next++;
    }
    for (const r of front.ready(now)) sched.add(r);
    const step = sched.plan();
    if (!step) {
      const wake = Math.min(front.nextReady(), next < n && inflight < maxConc ? arrivals[next]! : Infinity);
      if (!Number.isFinite(wake)) throw new Error('simulator stalled: requests left but nothing schedulable');
      now = Math.max(now, wake);
      continue;
    }
    now += step.seconds;
    for (const ev of sched.commit(step)) {
      const tr = tracks[ev.req.id]!;
      if (ev.first) tr.ttft = now - tr.start;
      else tr.itl.push(now - tr.last);
      tr.last = now;
      tr.out += ev.tokens;
      if (ev.done) {
        inflight--;
        completed++;
        lastEnd = now;
      }
    }
  }
  const metrics = measuredMetrics(reqs, tracks, lastEnd, o.warmupRequests ?? 0, o.latencyMetrics ?? ALL_LATENCY_METRICS);
  const st = sched.snapshot();
  const hitRate = reqs.some((r) => r.blocks) ? cachedShare(reqs) : undefined;
  return {
    fit: cfg.fit,
    metrics,
    kvCapacityTokens: cfg.kvCapacityTokens,
    preemptions: st.preemptions,
    steps: st.steps,
    ...(hitRate !== undefined ? { prefixCacheHitRate: hitRate } : {}),
  };
}

/**
 * `vllm bench serve`'s metrics of the run. Warm-up requests are sent like the others but left out,
 * and the measured span starts with the first measured request.
 */
function measuredMetrics(
  reqs: SimRequest[],
  tracks: (Track | undefined)[],
  lastEnd: number,
  warmup: number,
  latency: readonly LatencyMetric[],
): BenchMetrics {
  const skip = Math.max(0, Math.min(warmup, reqs.length - 1));
  const outputs = toOutputs(reqs, tracks).slice(skip);
  return calculateMetrics(outputs, lastEnd - (skip ? tracks[skip]!.start : 0), {
    percentileMetrics: latency,
    metricPercentiles: [99],
  });
}

/** Prompt tokens found in the prefix cache over all prompt tokens. */
function cachedShare(reqs: readonly SimRequest[]): number {
  let cached = 0;
  let total = 0;
  for (const r of reqs) {
    cached += r.cachedTokens ?? 0;
    total += r.promptLen;
  }
  return total > 0 ? cached / total : 0;
}

/** The client's view of each request, as `vllm bench serve` records it. */
function toOutputs(reqs: SimRequest[], tracks: (Track | undefined)[]): RequestOutput[] {
  return reqs.map((r, i) => {
    const tr = tracks[i]!;
    // start + latency must not pass the finish time: float rounding would overlap it with the
    // request the client sends at that very moment and count one extra in flight.
    let latency = tr.last - tr.start;
    if (tr.start + latency > tr.last) latency -= Math.abs(tr.last) * Number.EPSILON;
    return {
      success: true,
      promptLen: r.promptLen,
      outputLen: tr.out,
      ttft: tr.ttft,
      itl: tr.itl,
      latency,
      startTime: tr.start,
      generatedText: '',
      error: '',
    };
  });
}
