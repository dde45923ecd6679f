// Typed events emitted by the tuning core. The Ink TUI and the headless reporter are two
// listeners of this one stream; the journal can replay it. Keep them plain data (JSON-safe).
import type { LiveSnapshot, BenchMetrics } from '../bench/types.js';
import type { Variant } from './variant.js';

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
  | 'skipped';

export interface Failure {
  kind: FailureKind;
  /** One line for humans, e.g. "SGLang FP8 is not supported on A100 (compute capability 8.0)". */
  reason: string;
  /** What the user can do about it. */
  hint?: string;
  /** Log lines that prove the classification. */
  evidence?: string[];
}

export interface VariantResult {
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
  /** Predicted figures from the shared estimate, when the planner made one. */
  predicted?: { totalTokPerS: number; meanTtftMs: number; meanTpotMs: number; /** Peak SSE events per (simulated) second. */ peakEventsPerS?: number };
  simulated?: boolean;
  clientBound?: boolean;
  startedAt: string;
  finishedAt: string;
}

export interface ServerMetricsSample {
  running: number;
  waiting: number;
  kvUsage: number; // 0..1
  preemptions: number;
}

export interface GpuSample {
  index: number;
  name: string;
  utilPct: number;
  memUsedMiB: number;
  memTotalMiB: number;
}

export type TuneEvent =
  | { type: 'session-started'; runDir: string; simulated: boolean; at: string }
  | { type: 'plan-ready'; plan: unknown /* src/tune Plan */ }
  | { type: 'stage-started'; stage: string; index: number; variants: string[]; /** Why the stage does not run, when it does not. */ skipped?: string }
  | { type: 'variant-launching'; variantId: string; stage: string; argv: string[]; port: number; /** Short human label (Variant.label), for live displays. */ label?: string }
  | { type: 'server-log'; variantId: string; line: string; stream: 'stdout' | 'stderr' }
  | { type: 'server-ready'; variantId: string; startupS: number }
  | { type: 'warmup-started'; variantId: string }
  | { type: 'bench-started'; variantId: string; scenario: string; numPrompts: number }
  | { type: 'bench-progress'; variantId: string; snapshot: LiveSnapshot }
  | { type: 'server-metrics'; variantId: string; metrics: ServerMetricsSample }
  | { type: 'gpu-sample'; gpus: GpuSample[] }
  | { type: 'server-stopping'; variantId: string }
  | { type: 'variant-finished'; result: VariantResult }
  | { type: 'stage-finished'; stage: string; winnerId: string | null; gainPct: number | null }
  | { type: 'validation-started'; scenarios: string[] }
  | { type: 'validation-finished'; table: unknown /* src/tune ValidationRow[] */ }
  | { type: 'session-finished'; profilePath: string | null; reportPath: string | null; exitCode: number }
  | { type: 'warning'; message: string }
  | { type: 'error'; message: string };

export type TuneListener = (event: TuneEvent) => void;
