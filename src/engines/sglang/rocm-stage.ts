// SGLang's ROCm stage: its AITER switch and the runtime's scratch switch, both environment
// variables (rocm-knobs.ts), so these variants differ from the winner by env alone.
import type { RocmPlanning, RocmStageInput, RocmStageOut } from '../kit/rocm-stage-types.js';
import { envCandidate, rowCandidates } from '../kit/rocm-stage.js';
import { SGLANG_TABLE } from './knobs.js';

function stage(i: RocmStageInput): RocmStageOut {
  const tries: Record<string, string>[] = [{ 'env.aiter': 'on' }, { 'env.hsaNoScratchReclaim': 'on' }];
  return { candidates: tries.map((t) => envCandidate(SGLANG_TABLE, i.version, i.knobs, t)).filter((c) => c !== undefined), notes: [] };
}

export const SGLANG_ROCM: RocmPlanning = {
  stage,
  attentionBackends: (version) => rowCandidates(SGLANG_TABLE, 'attentionBackend.rocm', version),
};
