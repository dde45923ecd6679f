// The plan and validation contracts as the event stream carries them. The tuning core builds
// richer objects (src/tune/plan/plan.ts, src/tune/decide/validate.ts); the compiler checks they fit these
// where the session emits them, so views read a plan without importing the tuning core.
import type { Failure, VariantResult } from './events.js';
import type { EngineName, Variant } from './variant.js';

export type Predicted = NonNullable<VariantResult['predicted']>;

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
}

export interface PlanStageInfo {
  name: string;
  title: string;
  skipped?: string;
  notes: string[];
  variants: PlanVariant[];
  /** Which GPUs its variants use (issue 16: one replica, or the whole host). */
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
}
