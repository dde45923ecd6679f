// ROCm's own runtime switches (ROCr / HSA): variables the runtime under every engine reads, so
// each engine's ROCm rows include them. Sourced like the engines' rows.
import type { KnobRow } from './knob-row.js';

export const ROCM_RUNTIME_ROWS: readonly KnobRow[] = [
  {
    knob: 'env.hsaNoScratchReclaim',
    via: 'env',
    name: 'HSA_NO_SCRATCH_RECLAIM',
    values: { on: '1' },
    candidates: ['on'],
    source:
      "ROCm runtime (ROCr), not the engine's: SemiAnalysisAI/InferenceX#39; InferenceX's MI3xx launch scripts export HSA_NO_SCRATCH_RECLAIM=1 when the MEC firmware (rocm-smi --showfw) is older than 177, citing the amdgpu driver updates of the ROCm 6.4.3 release notes",
    note: 'by its name, the runtime stops reclaiming scratch memory between kernels (the ROCr source was not read); a switch of the host, tried like any knob',
  },
];
