// SGLang's ROCm knobs: its AITER switch and ROCm's attention backends, each row with the source it
// was read from. Spread into SGLANG_ROWS (knobs.ts); the ROCm stage's candidates (rocm-stage.ts)
// are built from them, on AMD hosts only.
import type { KnobRow } from '../data/knob-row.js';
import { ROCM_RUNTIME_ROWS } from '../data/rocm-runtime.js';

export const SGLANG_ROCM_ROWS: readonly KnobRow[] = [
  {
    knob: 'env.aiter',
    via: 'env',
    name: 'SGLANG_USE_AITER',
    values: { on: '1', off: '0' },
    candidates: ['on'],
    engineDefault: 'off',
    source:
      'python/sglang/srt/environ.py, 0.5-series stored copies (ids 43298405556, 85805127): "# AMD & ROCm  SGLANG_USE_AITER = EnvBool(False)"; the same line in the 2026 copies (id 66369029551)',
    note: "SGLang's one AITER switch (InferenceMAX benchmarks/dsr1_fp8_mi325x_docker.sh exports SGLANG_USE_AITER=1)",
  },
  {
    knob: 'attentionBackend.rocm',
    via: 'flag',
    name: '--attention-backend',
    candidates: ['aiter', 'triton'],
    source:
      'python/sglang/srt/server_args.py (0.5.5-era stored copy, id 8356329): ATTENTION_BACKEND_CHOICES "# AMD specific" lists "aiter" and "wave"',
    note: "the attention stage's candidates on an AMD host; wave is not offered (no MI3xx recipe uses it)",
  },
  ...ROCM_RUNTIME_ROWS,
];
