// vLLM's ROCm knobs: the AITER switches, quick-reduce and ROCm's attention backends, each row with
// the source it was read from. Spread into VLLM_ROWS (knobs.ts) so docs/engines.md renders them;
// the ROCm stage's candidates (rocm-stage.ts) are built from them, on AMD hosts only.
import type { KnobRow } from '../data/knob-row.js';
import { ROCM_RUNTIME_ROWS } from '../data/rocm-runtime.js';

/** vllm/envs.py at f218f9c2 (the stored copy, ≈0.11.1, store id 6351456). */
const ENVS = 'vllm/envs.py@f218f9c2 (≈0.11.1)';
const ON_OFF = { on: '1', off: '0' } as const;
/** Not re-read after 0.11.1: 2026 recipes for vLLM on MI3xx still set them (SemiAnalysisAI/InferenceX launch scripts). */
const LATER = 'read at 0.11.1 only; later releases still honour it in 2026 InferenceX MI3xx recipes (unverified in source)';

export const VLLM_ROCM_ROWS: readonly KnobRow[] = [
  {
    knob: 'env.aiter',
    via: 'env',
    name: 'VLLM_ROCM_USE_AITER',
    values: ON_OFF,
    candidates: ['on'],
    engineDefault: 'off',
    source: `${ENVS}: "Disable aiter ops unless specifically enabled. Acts as a parent switch to enable the rest of the other operations." (default "False")`,
    note: `the parent switch: the AITER sub-switches act only with it on; ${LATER}`,
  },
  {
    knob: 'env.aiterMha',
    via: 'env',
    name: 'VLLM_ROCM_USE_AITER_MHA',
    values: ON_OFF,
    candidates: ['off'],
    engineDefault: 'on',
    source: `${ENVS}: "Whether to use aiter mha ops. By default is enabled."`,
    note: 'tried off under AITER on, as InferenceX MI300X/MI325X recipes do at 1k/1k and 1k/8k',
  },
  {
    knob: 'env.aiterMoe',
    via: 'env',
    name: 'VLLM_ROCM_USE_AITER_MOE',
    values: ON_OFF,
    candidates: ['off'],
    engineDefault: 'on',
    source: `${ENVS}: "Whether to use aiter moe ops. By default is enabled."`,
    note: 'MoE models only',
  },
  {
    knob: 'env.aiterUnifiedAttention',
    via: 'env',
    name: 'VLLM_ROCM_USE_AITER_UNIFIED_ATTENTION',
    values: ON_OFF,
    candidates: ['on'],
    engineDefault: 'off',
    source: `${ENVS}: "Use AITER triton unified attention for V1 attention" (default "False")`,
    note: 'from 0.20.1 the same kernel is the attention backend ROCM_AITER_UNIFIED_ATTN',
    until: '0.20.1',
  },
  {
    knob: 'env.quickReduce',
    via: 'env',
    name: 'VLLM_ROCM_QUICK_REDUCE_QUANTIZATION',
    values: { FP: 'FP', INT8: 'INT8', INT6: 'INT6', INT4: 'INT4', NONE: 'NONE' },
    candidates: ['INT4', 'INT8'],
    engineDefault: 'NONE',
    source: `${ENVS}: "Custom quick allreduce kernel for MI3* cards ... Choice of quantization level: FP, INT8, INT6, INT4 or NONE"; env_with_choices("VLLM_ROCM_QUICK_REDUCE_QUANTIZATION", "NONE", ["FP", "INT8", "INT6", "INT4", "NONE"])`,
    note: `TP > 1 only (it quantizes the all-reduce between GPUs); ${LATER}`,
  },
  {
    knob: 'attentionBackend.rocm',
    via: 'flag',
    name: '--attention-backend',
    since: '0.20.1',
    candidates: ['triton', 'rocm_attn', 'rocm_aiter_fa', 'rocm_aiter_unified'],
    source:
      'vllm-project/vllm-project.github.io _posts/2025-12-16-rocm-attention-backend.md: "for AMD ROCm backend, there are four MHA implementations (TRITON_ATTN, ROCM_AITER_UNIFIED_ATTN, ROCM_ATTN, and the ROCM_AITER_FA) ... vLLM provides the argument of --attention-backend"',
    note: "the attention stage's candidates on an AMD host; the MLA backends (TRITON_MLA, ROCM_AITER_TRITON_MLA, ROCM_AITER_MLA) are not offered; before 0.20.1 the AITER switches choose ROCm's attention",
  },
  ...ROCM_RUNTIME_ROWS,
];
