// The plan's contract: the host as the planner sees it, what the planner asks of the rest of
// servelab (PlanDeps, wired in deps.ts), and the plan itself. It sits below every planning file
// so that none of them imports the planner's top (plan.ts) for a type.
import type { PlanInfo, PlanVariant } from '../../core/events.js';
import type { Predicted } from '../../core/predicted.js';
import type { Failure, VariantResult } from '../../core/events.js';
import type { EngineName, Knobs, KnobName, Variant } from '../../core/variant.js';
import type { ModelInfo } from '../../model/models.js';
import type { PlanHost, PreflightResult } from '../../engines/kit/plan-types.js';
import type { SessionConfig, StageName } from '../config/config.js';
import type { Scenario } from '../../core/scenario.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

/** What the planner asks of the rest of servelab (wired in deps.ts; tests may pass their own). */
export interface PlanDeps {
  /** Knobs each engine can express and its attention backends. */
  engineInfo(engine: EngineName): { supports: ReadonlySet<KnobName>; attentionBackends: readonly string[] };
  /**
   * The launch command of a variant (sim-serve argv plus the real engine argv on a simulated
   * host); `env` is the real engine's environment.
   */
  command(variant: Variant): LaunchSpec;
  preflight(variant: Variant): PreflightResult;
  predict(variant: Variant, scenario: Scenario): Predicted | undefined;
  /** Does the checkpoint fit in GPU memory with these knobs (shared estimate)? Memory only. */
  fits(variant: Variant): boolean | undefined;
  /** Model metadata for an id (undefined when unknown). */
  model(id: string): ModelInfo | undefined;
  /** The installed release of an engine (undefined: not known, e.g. on the simulated host). */
  engineVersion?(engine: EngineName): string | undefined;
  /** --dummy-weights: the weights a tuning launch of the variant loads (dummy-weights.ts); undefined when off. */
  weights?(variant: Variant): VariantResult['weights'];
}

/** A planned variant (the event contract's PlanVariant, src/core/events.ts) with its stage typed. */
export interface PlannedVariant extends PlanVariant {
  stage: StageName;
  /** --dummy-weights: what its launch will load, and why (the same decision as its command's). */
  weights?: VariantResult['weights'];
}

export interface PlanStage {
  name: StageName;
  title: string;
  /** Why the whole stage does not run. */
  skipped?: string;
  /** Notes shown with the stage (e.g. "a latency knob"). */
  notes: string[];
  /** Variants expanded from the predicted carried winner (re-expanded from the real one at run time). */
  variants: PlannedVariant[];
  gpus?: string;
}

export interface Plan {
  model: string;
  /** The checkpoint the engine stage serves (the FP8 one when BF16 does not fit). */
  checkpoint: string;
  fp8Checkpoint?: string;
  host: PlanHost;
  engines: EngineName[];
  scenario: Scenario;
  validation: Scenario[];
  stages: PlanStage[];
  /** Shown with every plan: what greedy staging can and cannot find. */
  caveats: string[];
  notes: string[];
  /** Id of the predicted winner along the planned path. */
  predictedWinnerId?: string;
  replica?: ReplicaInfo;
  /** --dummy-weights only: the session's decision (dummy-weights.ts sessionDummyWeights). */
  dummyWeights?: { used: boolean; why?: string };
  /** --budget: the projected cost against the budget (src/tune/budget/budget.ts planBudget). */
  budget?: PlanInfo['budget'];
}

export interface ReplicaInfo {
  /** GPUs of one replica (its TP); tuning stages use GPUs 0..tp-1 of a variant's slot. */
  tp: number;
  hostGpus: number;
  why: string;
}

export interface ExpandContext {
  config: SessionConfig;
  host: PlanHost;
  deps: PlanDeps;
  fp8Checkpoint?: string;
}
