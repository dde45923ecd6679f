// vLLM's spelling of each neutral knob (`vllm serve`). Data table: one row per knob and release
// range. Sources: arg_utils = vllm/engine/arg_utils.py (v0.11.0 b8b302cde; ≈0.11.1 99d7eb5d);
// envs = vllm/envs.py. Rendered with its sources in docs/engines.md (scripts/docs-engines.ts).
import type { KnobRow } from './knob-row.js';

const AU = 'vllm/engine/arg_utils.py (v0.11.0; ≈0.11.1 @99d7eb5d)';
const ENVS = 'vllm/envs.py (0.11.x)';

export const VLLM_ROWS: readonly KnobRow[] = [
  { knob: 'tp', via: 'flag', name: '--tensor-parallel-size', source: `${AU}: add_argument("--tensor-parallel-size", "-tp")` },
  { knob: 'pp', via: 'flag', name: '--pipeline-parallel-size', source: `${AU}: "--pipeline-parallel-size", "-pp"` },
  { knob: 'dp', via: 'flag', name: '--data-parallel-size', source: `${AU}: "--data-parallel-size", "-dp"` },
  { knob: 'ep', via: 'flag', name: '--enable-expert-parallel', source: `${AU}: add_argument("--enable-expert-parallel")`, note: 'a switch: EP size = TP x DP' },
  {
    knob: 'quantization', via: 'flag', name: '--quantization',
    source: 'vllm/model_executor/layers/quantization/__init__.py QuantizationMethods (v0.11.0)', note: 'online quantization; a pre-quantized checkpoint needs no flag',
  },
  {
    knob: 'kvCacheDtype', via: 'flag', name: '--kv-cache-dtype', until: '0.11.1',
    values: { auto: 'auto', fp8: 'fp8', fp8_e4m3: 'fp8_e4m3', fp8_e5m2: 'fp8_e5m2' },
    source: 'docs.vllm.ai v0.10.2 config/cache CacheDType', note: 'bfloat16 is not in the 0.10.2 list and no 0.11.0 page was found, so it is not offered',
  },
  {
    knob: 'kvCacheDtype', via: 'flag', name: '--kv-cache-dtype', since: '0.11.1',
    values: { auto: 'auto', bf16: 'bfloat16', fp8: 'fp8', fp8_e4m3: 'fp8_e4m3', fp8_e5m2: 'fp8_e5m2' },
    source: 'docs.vllm.ai v0.11.1 config/cache CacheDType',
  },
  { knob: 'maxBatchedTokens', via: 'flag', name: '--max-num-batched-tokens', source: `${AU} scheduler group` },
  { knob: 'maxRunningSeqs', via: 'flag', name: '--max-num-seqs', source: `${AU} scheduler group` },
  { knob: 'memFraction', via: 'flag', name: '--gpu-memory-utilization', source: `${AU} cache group`, note: 'fraction of total GPU memory' },
  { knob: 'maxModelLen', via: 'flag', name: '--max-model-len', source: `${AU} model group` },
  { knob: 'cudaGraph', via: 'flag', name: '--enforce-eager', source: `${AU}: add_argument("--enforce-eager")`, note: 'cudaGraph=false: eager (no compile, no graphs)' },
  {
    knob: 'torchCompile', via: 'json', name: '--compilation-config', until: '0.11.1',
    values: { false: '{"level":0,"cudagraph_mode":"FULL_DECODE_ONLY"}' },
    source: 'vllm/config/compilation.py (0.11.0: level); vllm/config/vllm.py cudagraph_mode default',
    note: 'level 0 alone also sets cudagraph_mode NONE (an eager run); FULL_DECODE_ONLY keeps decode graphs',
  },
  {
    knob: 'torchCompile', via: 'json', name: '--compilation-config', since: '0.11.1',
    values: { false: '{"mode":0,"cudagraph_mode":"FULL_DECODE_ONLY"}' },
    source: 'vllm/config/compilation.py@ee525ce4: "Level is deprecated ... Please use mode."',
    note: 'mode replaces level from 0.11.1',
  },
  {
    knob: 'attentionBackend', via: 'env', name: 'VLLM_ATTENTION_BACKEND',
    values: {
      fa2: 'FLASH_ATTN', fa3: 'FLASH_ATTN', flash_attn: 'FLASH_ATTN', flashinfer: 'FLASHINFER', triton: 'TRITON_ATTN', flex: 'FLEX_ATTENTION',
      flex_attention: 'FLEX_ATTENTION', flashmla: 'FLASHMLA', cutlass_mla: 'CUTLASS_MLA', triton_mla: 'TRITON_MLA',
    },
    candidates: ['fa2', 'fa3', 'flashinfer', 'triton', 'flex'],
    source: `${AU} V1_BACKENDS; _Backend in vllm/attention/backends/registry.py; ${ENVS}`,
  },
  {
    knob: 'attentionBackend.faVersion', via: 'env', name: 'VLLM_FLASH_ATTN_VERSION', values: { fa2: '2', fa3: '3' },
    source: `${ENVS}: "Force vllm to use a specific flash-attention version (2 or 3), only valid when using the flash-attention backend."`,
    note: 'without it vLLM picks the FA version itself (FA3 on Hopper), so fa2 and fa3 would be one command',
  },
  { knob: 'speculative', via: 'flag', name: '--speculative-config', source: `${AU}: add_argument("--speculative-config")`, note: 'a JSON object of the keys below' },
  {
    knob: 'speculative.method', via: 'json', name: 'method',
    values: { eagle: 'eagle', eagle3: 'eagle3', mtp: 'mtp', ngram: 'ngram' },
    source: 'docs.vllm.ai v0.11.0 config/speculative SpeculativeMethod; arg_utils@99d7eb5d _is_v1_supported_oracle',
    note: 'draft: "Draft model speculative decoding is not supported yet." (NotImplementedError) on 0.11.x',
  },
  { knob: 'speculative.tokens', via: 'json', name: 'num_speculative_tokens', source: 'vllm/config/speculative.py SpeculativeConfig (v0.11.0)' },
  { knob: 'speculative.draftModel', via: 'json', name: 'model', source: 'vllm/config/speculative.py SpeculativeConfig (v0.11.0)' },
  { knob: 'speculative.ngramMax', via: 'json', name: 'prompt_lookup_max', source: 'vllm/config/speculative.py SpeculativeConfig (v0.11.0)' },
  { knob: 'speculative.ngramMin', via: 'json', name: 'prompt_lookup_min', source: 'vllm/config/speculative.py SpeculativeConfig (v0.11.0)' },
];
