// vLLM's ROCm stage: AITER on, AITER on with one of its sub-switches turned the other way,
// quick-reduce's quantized all-reduce (TP > 1), and the runtime's scratch switch. The switches are
// environment variables (rocm-knobs.ts), so these variants differ from the winner by env alone.
import type { RocmPlanning, RocmStageInput, RocmStageOut } from '../kit/rocm-stage-types.js';
import { envCandidate, rowCandidates } from '../kit/rocm-stage.js';
import { VLLM_TABLE } from './knobs.js';

function stage(i: RocmStageInput): RocmStageOut {
  const at = (set: Record<string, string>) => envCandidate(VLLM_TABLE, i.version, i.knobs, set);
  const tries: Record<string, string>[] = [
    { 'env.aiter': 'on' },
    { 'env.aiter': 'on', 'env.aiterMha': 'off' },
    { 'env.aiter': 'on', 'env.aiterUnifiedAttention': 'on' },
    ...(i.moe ? [{ 'env.aiter': 'on', 'env.aiterMoe': 'off' }] : []),
    ...((i.knobs.tp ?? 1) > 1 ? rowCandidates(VLLM_TABLE, 'env.quickReduce', i.version).map((q) => ({ 'env.quickReduce': q })) : []),
    { 'env.hsaNoScratchReclaim': 'on' },
  ];
  const notes =
    (i.knobs.tp ?? 1) > 1 ? [] : ['quick-reduce is not tried: it quantizes the all-reduce between GPUs, and this variant runs on one'];
  return { candidates: tries.map(at).filter((c) => c !== undefined), notes };
}

export const VLLM_ROCM: RocmPlanning = {
  stage,
  attentionBackends: (version) => rowCandidates(VLLM_TABLE, 'attentionBackend.rocm', version),
};
