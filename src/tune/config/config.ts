// What a tuning session is asked to do. Both front ends build one of these (flags or screens)
// and hand it to runSession; it is stored in the run folder so --resume needs nothing else.
import { isGpuEngine, type EngineName } from '../../core/variant.js';
import type { Objective } from '../../core/objective.js';
import type { SloRule } from '../../core/slo-rule.js';
import type { Scenario } from '../../core/scenario.js';
import type { TpotMode } from '../../core/tpot.js';
import type { LlamaCppConfig } from '../../engines/kit/plan-types.js';
import { workloadReuse } from '../../core/workload-reuse.js';

/** The GPU engines' stages (vLLM, SGLang, TensorRT-LLM): the default when llama.cpp is not asked for. */
export const GPU_STAGES = ['engine', 'quantization', 'parallelism', 'batching', 'attention', 'compile', 'speculative'] as const;
/** llama.cpp's stages (llama-server's own knobs: engines/llamacpp/stages.ts). */
export const LLAMACPP_STAGES = ['engine', 'quantization', 'offload', 'slots', 'batch-size', 'kv-cache', 'threads', 'speculative'] as const;
/** Every stage, in the order a session mixing both kinds runs them. */
export const STAGES = [
  'engine',
  'quantization',
  'parallelism',
  'offload',
  'batching',
  'slots',
  'cache',
  'batch-size',
  'attention',
  'rocm',
  'kv-cache',
  'threads',
  'compile',
  'speculative',
] as const;
export type StageName = (typeof STAGES)[number];

export const STAGE_TITLES: Record<StageName, string> = {
  engine: 'engine on defaults',
  quantization: 'quantization (FP8 weights, FP8 KV cache)',
  parallelism: 'parallelism (TP, TP+EP, DP-attention, DP replicas)',
  batching: 'batching (max batched tokens, max running sequences)',
  attention: 'attention backend',
  compile: 'torch.compile and CUDA graphs',
  speculative: 'speculative decoding',
  offload: 'layers offloaded to the GPU and split mode (llama.cpp)',
  slots: 'slots x context (parallel slots, unified or split KV, per-slot context; llama.cpp)',
  'batch-size': 'logical and physical batch sizes (-b/-ub; llama.cpp)',
  'kv-cache': 'flash attention and KV-cache type (llama.cpp)',
  threads: 'CPU threads for generation and for batches (llama.cpp)',
  cache: 'prefix cache (caching on or off, cache-aware admission, a host-memory tier)',
  rocm: 'ROCm switches (AITER kernels, quick-reduce, the runtime scratch switch; AMD hosts)',
};

/** A stage's title for a session's engines: the shared stages say what they are for llama.cpp too. */
export function stageTitle(stage: StageName, engines: readonly EngineName[]): string {
  const llama = !engines.every(isGpuEngine);
  const gpu = engines.some(isGpuEngine);
  if (stage === 'quantization' && llama)
    return gpu ? 'quantization (FP8 weights, FP8 KV cache; llama.cpp: GGUF weight types)' : 'quantization (GGUF weight types)';
  if (stage === 'speculative' && llama && !gpu) return 'speculative decoding (a draft model)';
  return STAGE_TITLES[stage];
}

/**
 * The stages a session runs when --stages is not given: the engines' own kinds, in STAGES order,
 * and the cache stage when the tuning workload resends what it sent before (workloadReuse): on
 * any other workload a prefix cache has nothing to serve, so that stage would measure noise.
 */
export function defaultStages(engines: readonly EngineName[], scenario?: Scenario): StageName[] {
  const llama = !engines.every(isGpuEngine);
  const gpu = engines.some(isGpuEngine);
  const own = new Set<StageName>([...(gpu ? GPU_STAGES : []), ...(llama ? LLAMACPP_STAGES : [])]);
  if (scenario && workloadReuse(scenario).has) own.add('cache');
  return STAGES.filter((s) => own.has(s));
}

export interface SimHostConfig {
  /** GPU catalog name, e.g. 'H100'. */
  gpu: string;
  gpus: number;
  /** The simulated clock runs this many times faster than the wall clock (the most, with autoSpeed). */
  speed: number;
  /** --speed not given: each launch runs as fast as the client can measure, up to `speed` (simspeed.ts). */
  autoSpeed?: boolean;
  seed: number;
  /** `--engine-version vllm=0.33.0`: the release each engine is rehearsed as (absent: the oldest table's). */
  engineVersions?: Partial<Record<EngineName, string>>;
  /**
   * A simulated cluster (`--nodes N`): `gpus` counts all GPUs, `gpus / nodes` per node. Absent
   * for one host. Variants wider than a node launch through the engine's multi-node start.
   */
  nodes?: number;
  /** `--truth FILE` (absolute): host corrections every sim-serve launch runs on, unknown to the planner (src/model/calibration). */
  truth?: string;
}

/** `--runtime slurm`: each variant is a Slurm job (src/host/slurm, docs/slurm.md). */
export interface SlurmRuntimeConfig {
  kind: 'slurm';
  partition?: string;
  account?: string;
  /** sbatch --time, e.g. 30 or 1:00:00. */
  time?: string;
  /** Verbatim sbatch options (--slurm-arg, repeatable). */
  extra: string[];
  /** Most nodes a variant may span (--nodes); default the largest allocation Slurm offers. */
  nodes?: number;
  /** sbatch --exclusive for every job. */
  exclusive?: boolean;
  /** GPUs per node, from Slurm's discovery at session start (tune/session/open.ts). */
  gpusPerNode?: number;
}

export type RuntimeConfig = { kind: 'native' } | { kind: 'docker'; image: string } | SlurmRuntimeConfig;

export interface SessionConfig {
  /** Model asked for: HF id or local path (the BF16 checkpoint unless only FP8 exists). */
  model: string;
  /** A pre-quantized FP8 checkpoint to try (found automatically for known models). */
  fp8Model?: string;
  engines: EngineName[];
  /** Stages in the order they run (engine always first). */
  stages: StageName[];
  /** Candidates to drop: variant ids (globs with *), or a change such as 'attn=triton'. */
  drop: string[];
  /** Extra argv per engine ('*' = every engine), appended verbatim. */
  extraArgs: Partial<Record<EngineName | '*', string[]>>;
  /** Simulated host; absent on a real GPU host. */
  sim?: SimHostConfig;
  datasetPath?: string;
  /** The workload every tuning stage is measured on. */
  scenario: Scenario;
  /** Scenarios for the winner-vs-baseline table; empty skips validation. */
  validation: Scenario[];
  objective: Objective;
  slo: SloRule[];
  marginPct: number;
  repeats: number;
  gpuHourPrice?: number;
  /** Baseline variant id or engine name; default the engine stage's vLLM defaults variant. */
  baseline?: string;
  /** Profiles are written to <outDir>/profiles. */
  outDir: string;
  /** Parent folder of run folders. */
  runsDir: string;
  /** Exact run folder (default <runsDir>/<date>-<model>-<gpu>). */
  runDir?: string;
  readyTimeoutS: number;
  warmupPrompts: number;
  /** Bind address of the servers launched. */
  bindHost: string;
  /** First port tried for servers. */
  portStart: number;
  /** How engines run on a real host. */
  runtime: RuntimeConfig;
  /** Seconds between /metrics scrapes and GPU samples while benchmarking. */
  sampleIntervalS: number;
  // The cost-saving options below are optional so run folders written before them resume with the defaults.
  /** Stop a losing variant's benchmark once it cannot beat the stage leader (default on; --no-early-stop). */
  earlyStop?: boolean;
  /** Runs at most per variant when a stage's best two are within the margin (default 3; 1 turns it off). */
  repeatsMax?: number;
  /** Variants of one stage at once on disjoint GPUs: 'auto' (default), 'off' or a number. */
  parallel?: 'auto' | 'off' | number;
  /** 'auto': tune one replica at its smallest TP, then whole-host layouts (tune/plan/replica.ts); absent/'off': whole host. */
  replica?: 'auto' | 'off';
  /**
   * --dummy-weights: tuning launches where dummy weights cannot change the measurement run with
   * the engine's `--load-format dummy` and a client that sends ignore_eos (dummy-weights.ts).
   */
  dummyWeights?: boolean;
  /** TPOT in the reports: 'excl' (default, vLLM's) or 'inclusive' (--tpot inclusive; src/core/tpot.ts). */
  tpot?: TpotMode;
  /** Sweep the finalists' load after the stages (--sweep, --objective frontier). */
  sweep?: SessionSweepConfig;
  /** `--calibration FILE` (absolute): a host calibration (servelab calibrate) the session's calibration starts from. */
  calibration?: string;
  /** `--fresh-baseline`: measure the validation baseline even when an earlier run folder holds it (stage/baseline-reuse.ts). */
  freshBaseline?: boolean;
  /** `--quality N`: N greedy prompts to the references and every variant that changes numerics; absent: no check. */
  quality?: QualityConfig;
  /** `--capacity RULES`: the capacity search on the winner after validation; absent: none. */
  capacity?: import('./capacity-config.js').CapacityConfig;
  /** llama.cpp only (absent otherwise, so other sessions' configs are unchanged). */
  llamacpp?: LlamaCppConfig;
  /** `--budget GPU-HOURS` / `--budget-wall D`: the stages planned to fit (src/tune/budget); absent: the full protocol. */
  budget?: { gpuHours?: number; wallS?: number };
  /** `--max-failed PCT`: a run whose failed requests exceed PCT % cannot win; absent: DEFAULT_MAX_FAILED_PCT (core/failed-share.ts). */
  maxFailedPct?: number;
  /** --no-noise-prior: decide on this session's own noise alone, not pooled with this host's earlier sessions. */
  noNoisePrior?: boolean;
  /**
   * Warm-ups scaled to the load (tune/run/warmup-count.ts): at least one full batch at each run's
   * concurrency, warmupPrompts the floor. Absent (replay, an explicit --warmup N): exactly warmupPrompts.
   */
  warmupScaled?: boolean;
  /** `--no-regress`: keep the best finalist that loses to the baseline on no validation workload, or say none does. */
  noRegress?: boolean;
  /** `--engine-env [ENGINE:]NAME=VALUE`: the environment every variant starts with (tune/request/env-flags.ts), by engine or '*'. */
  engineEnv?: Partial<Record<EngineName | '*', Record<string, string>>>;
}

/** What `--quality N`, `--quality-floor X` and `--quality-eval FILE` ask (tune/request/quality-flags.ts). */
export interface QualityConfig {
  prompts: number;
  /** Exact-match rate, 0..1, below which a variant cannot win. */
  floor?: number;
  /** The eval file (absolute): its prompts are sent and its answers scored. */
  eval?: string;
}

/**
 * Default speed of the simulated clock. Measured (perf/auto-sim.bench.ts, 2 busy cores): at 5x the
 * HTTP measurement lands within a few % of the virtual-clock prediction; at 10x and 20x the
 * simulator's step timers and the client fall behind and throughput reads 40-130% low. Without
 * --speed this is the ceiling: each launch runs as fast as the client can follow (simspeed.ts).
 */
export const DEFAULT_SIM_SPEED = 5;
export const DEFAULT_READY_TIMEOUT_S = 20 * 60;
export const DEFAULT_SIM_READY_TIMEOUT_S = 60;

export function gpuTag(config: Pick<SessionConfig, 'sim'>, realGpuName?: string, realCount?: number): string {
  if (config.sim) return `${config.sim.gpu}x${config.sim.gpus}`;
  if (realCount === 0) return 'cpu';
  return `${(realGpuName ?? 'gpu').replace(/^NVIDIA\s+/i, '').split(/\s+/)[0]}x${realCount ?? 1}`;
}

/** What `--sweep`, `--sweep-all` and `--objective frontier` ask of a session (stored in its config). */
export interface SessionSweepConfig {
  /** "concurrency:1,8,32,128,512" (text: a rate of inf survives JSON). */
  spec: string;
  all: boolean;
  /** The frontier's choice decides the session's variant (and the load validation runs at). */
  frontier: boolean;
}

/** The SLO the stages decide by: none under --objective frontier (it holds at the chosen load, not with every request at once). */
export function stageSlo(config: Pick<SessionConfig, 'slo' | 'sweep'>): SloRule[] {
  return config.sweep?.frontier ? [] : config.slo;
}
