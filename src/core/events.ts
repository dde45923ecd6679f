// Typed events emitted by the tuning core. The Ink TUI and the headless reporter are two
// listeners of this one stream; the journal can replay it. Keep them plain data (JSON-safe).
import type { TrafficFigures } from './traffic-text.js';
import type { GpuVendor } from './gpu-vendor.js';
import type { LiveSnapshot, BenchMetrics, GpuSample, ServerMetricsSample } from './metrics.js';
import type { RunOfRuns } from './run-of-runs.js';
import type { StageVerdict } from './stage-verdict.js';
import type { SweepChoiceInfo, SweepLoadInfo, SweepPointInfo } from './sweep-info.js';
import type { EngineName, Variant } from './variant.js';
import type { BudgetEvent, BudgetPlan } from './budget-events.js';
import type { Predicted } from './predicted.js';

export type FailureKind =
  | 'oom'
  | 'unsupported'
  | 'model-not-found'
  | 'port-in-use'
  | 'bad-flag'
  | 'tp-mismatch'
  | 'startup-timeout'
  | 'crash'
  | 'spec-failed'
  | 'pruned'
  | 'bench-failed'
  | 'aborted'
  | 'skipped'
  /** The model file loads but its contents are wrong (tensor shapes, architecture, header keys). */
  | 'bad-model';

export interface Failure {
  kind: FailureKind;
  /** One line for humans, e.g. "SGLang FP8 is not supported on A100 (compute capability 8.0)". */
  reason: string;
  /** What the user can do about it. */
  hint?: string;
  /** Log lines that prove the classification. */
  evidence?: string[];
}

export interface VariantResult extends TrafficFigures {
  variantId: string;
  stage: string;
  scenario: string;
  status: 'ok' | 'failed' | 'pruned' | 'skipped';
  variant: Variant;
  /** The exact argv launched (on the simulated host: the sim-serve argv) and the real-engine argv. */
  argv: string[];
  engineArgv?: string[];
  env?: Record<string, string>;
  metrics?: BenchMetrics;
  failure?: Failure;
  startupS?: number;
  cpuS?: number; // CPU seconds of the server process, start-up to stop (first result of a launch; real hosts)
  /** What the server loaded, as comparison tables name it: the model id, or for llama.cpp the GGUF file and its weight type. */
  served?: string;
  /** Predicted figures from the shared estimate, when the planner made one. */
  predicted?: Predicted;
  /** The session's calibrated prediction before it ran: band = 1 s.d. %, on `observations` measured variants of this host. */
  calibrated?: { totalTokPerS: number; meanTtftMs: number; meanTpotMs: number; bandPct: number; observations: number };
  simulated?: boolean;
  clientBound?: boolean;
  /** A run stopped early (status 'pruned'): `metrics` cover only the requests finished before the stop. */
  partial?: boolean;
  /** A run stopped early: the most its objective could still have reached (early-stop.ts), in the objective's units. */
  stopBound?: number;
  /** GPU time this launch held; on the first result of a launch that measured several scenarios. */
  gpuTime?: VariantGpuTime;
  gpuIds?: number[]; // GPU ids it was pinned to (CUDA_VISIBLE_DEVICES) when it shared the host with other variants
  /**
   * Weights the server loaded: 'dummy' when it ran with random weights of the right shapes
   * (`--load-format dummy`, outputs fixed by ignore_eos), with why; absent = real weights.
   */
  weights?: { kind: 'dummy' | 'real'; why: string };
  quality?: import('./quality-schema.js').VariantQuality; // the quality check (--quality N)
  /** Warm-up requests sent to the server just before this run (tune/run/warmup-count.ts); absent: none. */
  warmups?: number;
  /** A run with failed requests: their errors grouped by text, most frequent first (core/failed-share.ts groupErrors). */
  requestErrors?: { error: string; count: number }[];
  startedAt: string;
  finishedAt: string;
  /** How much of the host other work took while it ran, and the cores it was kept on (real hosts). */
  hostLoad?: import('./host-load.js').HostLoad;
}

/** GPU time one launch held: GPUs x wall time from launch to stop, startup (launch to ready) and benchmark (ready to stop) apart. Seconds; simulated seconds on the simulated host. */
export interface VariantGpuTime {
  gpus: number;
  startupS: number;
  benchmarkS: number;
  startupGpuS: number;
  benchmarkGpuS: number;
  gpuS: number;
  /** Simulated time (what the modelled host would spend), not this machine's wall clock. */
  simulated: boolean;
}

/** What a session cost: every host GPU for the session's wall time, and what the variants held. */
export interface SessionGpuTime {
  hostGpus: number;
  wallS: number;
  /** All host GPUs x the session's wall time (an idle GPU is paid for too). */
  hostGpuHours: number;
  variantGpuHours: number;
  startupGpuHours: number;
  benchmarkGpuHours: number;
  /** variantGpuHours / hostGpuHours, %. */
  busyPct: number;
  simulated: boolean;
  /** A real host without GPUs (llama.cpp on the CPU): its threads and the servers' CPU-seconds, what the session used instead of GPUs. */
  cpu?: { threads: number; cpuS: number };
  /** One line for screens and reports. */
  summary: string;
}

export type TuneEvent =
  | { type: 'session-started'; runDir: string; simulated: boolean; at: string }
  | { type: 'plan-ready'; plan: PlanInfo }
  | {
      type: 'stage-started';
      stage: string;
      index: number;
      variants: string[];
      /** The winner carried into the stage (null in the first). */ carriedId?: string | null;
      /** Why the stage does not run, when it does not. */ skipped?: string;
    }
  | {
      type: 'variant-launching';
      variantId: string;
      stage: string;
      argv: string[];
      port: number;
      /** Short human label (Variant.label), for live displays. */ label?: string;
      /** GPUs it is pinned to when variants share the host. */ gpuIds?: number[];
      /** A repeat launch (adaptive repeats): run `n` of at most `of`; absent on a variant's first run. */ run?: RunOfRuns;
    }
  | { type: 'server-log'; variantId: string; line: string; stream: 'stdout' | 'stderr' }
  /** `--runtime slurm`: the variant's job, journalled at submission and at each change of state or reason. */
  | {
      type: 'job-state';
      variantId: string;
      jobId: string;
      state: string;
      reason?: string;
      /** "PENDING (Resources)", "RUNNING on sl1,sl2" */ text: string;
    }
  | { type: 'server-ready'; variantId: string; startupS: number }
  | { type: 'warmup-started'; variantId: string }
  | { type: 'bench-started'; variantId: string; scenario: string; numPrompts: number }
  | { type: 'bench-progress'; variantId: string; snapshot: LiveSnapshot }
  | { type: 'server-metrics'; variantId: string; metrics: ServerMetricsSample }
  /** `partial`: only the GPUs one pinned variant holds (parallel variants each report their own). */
  | { type: 'gpu-sample'; gpus: GpuSample[]; partial?: boolean }
  | { type: 'server-stopping'; variantId: string }
  | { type: 'variant-finished'; result: VariantResult }
  | ({ type: 'stage-finished' } & StageVerdict)
  | {
      type: 'validation-started';
      scenarios: string[];
      /** The two sides compared: the session's baseline and its winner. */ baselineId: string;
      /** How the baseline was chosen (validate.ts baselineWhy). */ baselineWhy?: string;
      winnerId: string;
    }
  | { type: 'validation-finished'; rows: ValidationRow[] }
  /**
   * --no-regress, when the winner regressed on a validation workload: the finalist kept instead
   * (chosenId), or none (null: the winner stays), each one tried with its named regression.
   */
  | { type: 'no-regress'; winnerId: string; chosenId: string | null; tried: { variantId: string; regression: string }[]; why: string }
  /**
   * The GPU time of a launch that ends without variant-finished (a validation side, a finalist's
   * sweep), once its server has stopped: what the core's ledger adds, so live views count it as
   * it lands rather than at session-cost.
   */
  | { type: 'launch-cost'; variantId: string; stage: string; gpuTime: VariantGpuTime }
  | { type: 'session-cost'; cost: SessionGpuTime }
  | {
      type: 'sweep-started';
      spec: string;
      slo: string;
      /** How the finalists were picked. */ rule: string;
      variants: { variantId: string; label: string; /** Why it is a finalist. */ why: string }[];
    }
  | ({ type: 'sweep-point'; variantId: string; label: string } & SweepPointInfo)
  | {
      type: 'sweep-finished';
      frontier: { variantId: string; load: SweepLoadInfo; tokPerGpu: number; tokPerUser: number }[];
      choice: SweepChoiceInfo | null;
      noChoice?: string;
      /** True when the choice decides the session (--objective frontier). */ decides: boolean;
    }
  | {
      type: 'session-finished';
      profilePath: string | null;
      reportPath: string | null;
      exitCode: number;
      /** The saved winner's named regressions on the validation workloads (validation-table.ts regressionLine). */
      regression?: string;
    }
  | { type: 'warning'; message: string }
  /** The session's host calibration was refitted on one more measured variant: its leave-one-out line. */
  | { type: 'calibration-updated'; observations: number; summary: string }
  | { type: 'error'; message: string }
  | import('./capacity-events.js').CapacityEvent // the capacity stage (--capacity RULES)
  | BudgetEvent // the budget (--budget)
  | import('./noise-events.js').NoiseEvent; // the host's measured noise and the stages' confirmations

export type TuneListener = (event: TuneEvent) => void;

// ---- The plan and validation as the stream carries them. The tuning core builds richer objects
// (src/tune/plan/types.ts, src/tune/decide/validate.ts); the compiler checks they fit these where
// the session emits them, so views read a plan without importing the tuning core.

export interface PlanScenario {
  /** Stable name: 'sharegpt', 'sharegpt-like', 'random-2000-100'. */
  name: string;
  /** Human label: 'ShareGPT', 'medium 2000/100'. */
  label: string;
  numPrompts: number;
  inputLen?: number;
  outputLen?: number;
  maxConcurrency: number | null;
}

export interface PlanHostInfo {
  gpuName: string;
  gpuCount: number;
  gpuMemMiB: number;
  computeCap?: number;
  simulated: boolean;
  driver?: string;
  /** Who makes the GPUs; absent means NVIDIA. */ vendor?: GpuVendor;
}

export interface PlanVariant {
  variant: Variant;
  stage: string;
  /** What it changes relative to the carried winner ('defaults' in the engine stage). */
  change: string;
  status: 'planned' | 'pruned' | 'dropped';
  reason?: Failure;
  warnings: string[];
  engineArgv?: string[];
  argv?: string[];
  env?: Record<string, string>;
  predicted?: Predicted;
  /** With --calibration FILE: the prediction corrected by that host calibration. */
  calibrated?: NonNullable<VariantResult['calibrated']>;
  /** Under --budget: an engine's predicted path, the later stages' changes in one launch (predicted-path.ts). */
  predictedPath?: string[];
}

export interface PlanStageInfo {
  name: string;
  title: string;
  skipped?: string;
  notes: string[];
  variants: PlanVariant[];
  /** Which GPUs its variants use (one replica, or the whole host). */
  gpus?: string;
}

export interface PlanInfo {
  model: string;
  checkpoint: string;
  fp8Checkpoint?: string;
  host: PlanHostInfo;
  engines: EngineName[];
  scenario: PlanScenario;
  validation: PlanScenario[];
  stages: PlanStageInfo[];
  caveats: string[];
  notes: string[];
  predictedWinnerId?: string;
  /** Set when the stages tune one replica, then whole-host layouts. */
  replica?: { tp: number; hostGpus: number; why: string };
  /** --dummy-weights only: whether any tuning launch loads them (what the flag then changes), else why none can. */
  dummyWeights?: { used: boolean; why?: string };
  budget?: BudgetPlan; // --budget: the projected cost against it (core/budget-events.ts)
}

/** One row of the before/after table: total tok/s and mean TPOT per side; null when that side failed. */
export interface ValidationPoint {
  totalTokPerS: number;
  meanTpotMs: number;
}

export interface ValidationRow {
  scenario: string;
  baseline: ValidationPoint | null;
  optimized: ValidationPoint | null;
  /** (optimized - baseline) / baseline, %; null when either side failed. */
  gainPct: number | null;
  /** The margin the row was judged by: max(--margin, the host's measured noise), % (core/noise-rule.ts). */
  marginPct?: number;
  /** The winner loses to the baseline beyond that margin here, or fails where the baseline ran. */
  regression?: boolean;
}
