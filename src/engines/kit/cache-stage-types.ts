// The contract between the planner's cache stage (src/tune/plan/cache-stage.ts) and each engine's
// own cache candidates (src/engines/<engine>/cache-stage.ts): plain data, so the engines need not
// know the planner's types.
import type { KnobName, Knobs } from '../../core/variant.js';

export interface CacheStageInput {
  /** The carried winner's knobs. */
  knobs: Knobs;
  /** The engine's knob table the commands are spelled for (versions.ts resolveVersion). */
  version: string;
}

export interface CacheCandidate {
  knobs: Knobs;
  change: string;
  /** Knobs the candidate needs the engine to express (the planner drops it otherwise). */
  needs: KnobName[];
}

export interface CacheStageOut {
  candidates: CacheCandidate[];
  notes: string[];
}

/** Host memory offered to a second cache tier: servelab does not read the host's free memory, so a size most serving hosts have free. */
export const KV_OFFLOAD_GIB = 64;
