// An engine's multi-node start by name: host builds the per-node commands from what the adapter
// says (src/host/slurm/engine-ranks.ts), so host never learns an engine's name.
import type { EngineName, Knobs } from '../core/variant.js';
import { multiNodeRanks, type EngineRanks, type NodeLayout } from '../host/slurm/index.js';
import { getAdapter } from './index.js';

export function engineRanks(engine: EngineName, argv: readonly string[], k: Knobs, l: NodeLayout): EngineRanks {
  return multiNodeRanks(getAdapter(engine), argv, k, l);
}
