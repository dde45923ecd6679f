// The contract between the planner's ROCm stage (src/tune/plan/rocm-stage.ts) and each engine's
// own ROCm candidates (src/engines/<engine>/rocm-stage.ts): plain data, so the engines need not
// know the planner's types. Offered on AMD hosts only.
import type { KnobName, Knobs } from '../../core/variant.js';

export interface RocmStageInput {
  /** The carried winner's knobs. */
  knobs: Knobs;
  /** The engine's knob table the commands are spelled for (versions.ts resolveVersion). */
  version: string;
  /** The served model is a mixture of experts (MoE switches apply). */
  moe: boolean;
}

export interface RocmCandidate {
  knobs: Knobs;
  change: string;
  needs: KnobName[];
}

export interface RocmStageOut {
  candidates: RocmCandidate[];
  notes: string[];
}

/** What an engine built for ROCm answers the planner (EngineAdapter.rocm). */
export interface RocmPlanning {
  /** The ROCm stage's candidates from the carried winner. */
  stage(i: RocmStageInput): RocmStageOut;
  /** The attention backends the attention stage tries on an AMD host, at a knob table. */
  attentionBackends(version: string): readonly string[];
}
