// vLLM's spelling of each neutral knob (`vllm serve`). Data table: one row per knob and release
// range. Sources: arg_utils = vllm/engine/arg_utils.py (v0.11.0 b8b302cde; ≈0.11.1 99d7eb5d; the
// 2026-05 copy on docs.vllm.ai/en/latest/api/vllm/); envs = vllm/envs.py. Rows from 0.20.1 on were
// read from that 2026-05 copy and versioned pages (versions.ts readAt). Rendered with its sources
// in docs/engines.md (scripts/docs-engines.ts).
import { knobTable } from '../kit/knob-table.js';
import type { KnobRow } from '../data/knob-row.js';
import { VLLM_ROCM_ROWS } from './rocm-knobs.js';

const AU = 'vllm/engine/arg_utils.py (v0.11.0; ≈0.11.1 @99d7eb5d)';
const ENVS = 'vllm/envs.py (0.11.x)';
/** The newest stored arg_utils.py: docs.vllm.ai/en/latest/api/vllm/ as fetched 2026-05-07 (store id 60142659630). */
const AU26 = 'vllm/engine/arg_utils.py on docs.vllm.ai/en/latest/api/vllm/ (fetched 2026-05-07)';
const NEW = '0.20.1';

export const VLLM_ROWS: readonly KnobRow[] = [
  { knob: 'tp', via: 'flag', name: '--tensor-parallel-size', source: `${AU}: add_argument("--tensor-parallel-size", "-tp")` },
  { knob: 'pp', via: 'flag', name: '--pipeline-parallel-size', source: `${AU}: "--pipeline-parallel-size", "-pp"` },
  { knob: 'dp', via: 'flag', name: '--data-parallel-size', source: `${AU}: "--data-parallel-size", "-dp"` },
  {
    knob: 'ep',
    via: 'flag',
    name: '--enable-expert-parallel',
    source: `${AU}: add_argument("--enable-expert-parallel")`,
    note: 'a switch: EP size = TP x DP',
  },
  {
    knob: 'quantization',
    via: 'flag',
    name: '--quantization',
    source: 'vllm/model_executor/layers/quantization/__init__.py QuantizationMethods (v0.11.0)',
    note: 'online quantization; a pre-quantized checkpoint needs no flag',
  },
  {
    knob: 'kvCacheDtype',
    via: 'flag',
    name: '--kv-cache-dtype',
    until: '0.11.1',
    values: { auto: 'auto', fp8: 'fp8', fp8_e4m3: 'fp8_e4m3', fp8_e5m2: 'fp8_e5m2' },
    source: 'docs.vllm.ai v0.10.2 config/cache CacheDType',
    note: 'bfloat16 is not in the 0.10.2 list and no 0.11.0 page was found, so it is not offered',
  },
  {
    knob: 'kvCacheDtype',
    via: 'flag',
    name: '--kv-cache-dtype',
    since: '0.11.1',
    values: { auto: 'auto', bf16: 'bfloat16', fp8: 'fp8', fp8_e4m3: 'fp8_e4m3', fp8_e5m2: 'fp8_e5m2' },
    source: `docs.vllm.ai v0.11.1 config/cache CacheDType; ${AU26}: cache_group.add_argument("--kv-cache-dtype")`,
    note: 'the CacheDType list after 0.11.1 was not read: the same values are offered (unverified from 0.20.1; the installed help is checked)',
  },
  { knob: 'maxBatchedTokens', via: 'flag', name: '--max-num-batched-tokens', source: `${AU} scheduler group` },
  { knob: 'maxRunningSeqs', via: 'flag', name: '--max-num-seqs', source: `${AU} scheduler group` },
  {
    knob: 'memFraction',
    via: 'flag',
    name: '--gpu-memory-utilization',
    source: `${AU} cache group`,
    note: 'fraction of total GPU memory; default 0.9 (v0.11), 0.92 from v0.25.0 (vllm/config/cache.py CacheConfig)',
  },
  {
    knob: 'maxModelLen',
    via: 'flag',
    name: '--max-model-len',
    source: `${AU} model group`,
    note: 'docs.vllm.ai v0.31.0 cli: "32K = 32,768" style sizes are accepted there too; servelab always writes plain integers, which every release parses',
  },
  {
    knob: 'cudaGraph',
    via: 'flag',
    name: '--enforce-eager',
    source: `${AU}: add_argument("--enforce-eager")`,
    note: 'cudaGraph=false: eager (no compile, no graphs)',
  },
  {
    knob: 'torchCompile',
    via: 'json',
    name: '--compilation-config',
    until: '0.11.1',
    values: { false: '{"level":0,"cudagraph_mode":"FULL_DECODE_ONLY"}' },
    source: 'vllm/config/compilation.py (0.11.0: level); vllm/config/vllm.py cudagraph_mode default',
    note: 'level 0 alone also sets cudagraph_mode NONE (an eager run); FULL_DECODE_ONLY keeps decode graphs',
  },
  {
    knob: 'torchCompile',
    via: 'json',
    name: '--compilation-config',
    since: '0.11.1',
    values: { false: '{"mode":0,"cudagraph_mode":"FULL_DECODE_ONLY"}' },
    source:
      'vllm/config/compilation.py@ee525ce4: "Level is deprecated ... Please use mode."; CUDAGraphMode FULL_DECODE_ONLY still in docs v0.19.0 config/compilation',
    note: 'mode replaces level from 0.11.1. From 0.12 the -O level (default O2) fills compilation fields the user leaves unset, so explicit mode/cudagraph_mode still win; the mode key itself was not re-read after 0.11.1 (unverified from 0.20.1)',
  },
  {
    knob: 'attentionBackend',
    via: 'env',
    name: 'VLLM_ATTENTION_BACKEND',
    until: NEW,
    values: {
      fa2: 'FLASH_ATTN',
      fa3: 'FLASH_ATTN',
      flash_attn: 'FLASH_ATTN',
      flashinfer: 'FLASHINFER',
      triton: 'TRITON_ATTN',
      flex: 'FLEX_ATTENTION',
      flex_attention: 'FLEX_ATTENTION',
      flashmla: 'FLASHMLA',
      cutlass_mla: 'CUTLASS_MLA',
      triton_mla: 'TRITON_MLA',
    },
    candidates: ['fa2', 'fa3', 'flashinfer', 'triton', 'flex'],
    source: `${AU} V1_BACKENDS; _Backend in vllm/attention/backends/registry.py; ${ENVS}`,
  },
  {
    knob: 'attentionBackend',
    via: 'flag',
    name: '--attention-backend',
    since: NEW,
    values: {
      fa2: 'FLASH_ATTN',
      fa3: 'FLASH_ATTN',
      flash_attn: 'FLASH_ATTN',
      flashinfer: 'FLASHINFER',
      triton: 'TRITON_ATTN',
      flex: 'FLEX_ATTENTION',
      flex_attention: 'FLEX_ATTENTION',
      flashmla: 'FLASHMLA',
      cutlass_mla: 'CUTLASS_MLA',
      triton_mla: 'TRITON_MLA',
      // ROCm's MHA backends (vllm/rocm-knobs.ts): offered on AMD hosts only.
      rocm_attn: 'ROCM_ATTN',
      rocm_aiter_fa: 'ROCM_AITER_FA',
      rocm_aiter_unified: 'ROCM_AITER_UNIFIED_ATTN',
    },
    candidates: ['fa2', 'fa3', 'flashinfer', 'triton', 'flex'],
    source: `${AU26}: attention_group.add_argument("--attention-backend", **attention_kwargs["backend"]); docs.vllm.ai v0.20.1 and v0.32.0 design/attention_backends: "Option 1: Using --attention-backend (simple)"`,
    note: 'a flag, no longer an environment variable; the backend names are the 0.11 ones seen in those pages (AttentionBackendEnum itself not read)',
  },
  {
    knob: 'attentionBackend.faVersion',
    via: 'flag',
    name: '--attention-config.flash_attn_version',
    since: NEW,
    values: { fa2: '2', fa3: '3' },
    source:
      'docs.vllm.ai v0.19.1 config AttentionConfig.flash_attn_version: "Force vllm to use a specific flash-attention version (2, 3, or 4)"; dot form of a JSON argument (v0.31.0 cli/serve)',
    note: '--attention-config.backend and --attention-backend are mutually exclusive, the version key is not the backend key',
  },
  {
    knob: 'attentionBackend.faVersion',
    via: 'env',
    name: 'VLLM_FLASH_ATTN_VERSION',
    values: { fa2: '2', fa3: '3' },
    until: NEW,
    source: `${ENVS}: "Force vllm to use a specific flash-attention version (2 or 3), only valid when using the flash-attention backend."`,
    note: 'without it vLLM picks the FA version itself (FA3 on Hopper), so fa2 and fa3 would be one command',
  },
  {
    knob: 'performanceMode',
    via: 'flag',
    name: '--performance-mode',
    since: NEW,
    values: { balanced: 'balanced', interactivity: 'interactivity', throughput: 'throughput' },
    candidates: ['interactivity', 'throughput'],
    engineDefault: 'balanced',
    source: `${AU26}: vllm_group.add_argument("--performance-mode"); vllm/config/vllm.py: performance_mode: PerformanceMode = "balanced"; vllm#34936 (first in v0.17.0)`,
    note: 'throughput doubles the defaulted max_num_batched_tokens / max_num_seqs only (explicit values are left alone: arg_utils _set_default_max_num_seqs_and_batched_tokens_args) and picks larger graphs; interactivity uses finer CUDA-graph sizes',
  },
  {
    knob: 'speculative',
    via: 'flag',
    name: '--speculative-config',
    source: `${AU}: add_argument("--speculative-config")`,
    note: 'a JSON object of the keys below',
  },
  {
    knob: 'speculative.method',
    via: 'json',
    name: 'method',
    values: { eagle: 'eagle', eagle3: 'eagle3', mtp: 'mtp', ngram: 'ngram' },
    until: '0.33.0',
    source: 'docs.vllm.ai v0.11.0 config/speculative SpeculativeMethod; arg_utils@99d7eb5d _is_v1_supported_oracle',
    note: 'draft: "Draft model speculative decoding is not supported yet." (NotImplementedError) on 0.11.x; 0.20.1 was not checked, so draft stays refused there',
  },
  {
    knob: 'speculative.method',
    via: 'json',
    name: 'method',
    since: '0.33.0',
    values: { eagle: 'eagle', eagle3: 'eagle3', mtp: 'mtp', ngram: 'ngram', draft: 'draft_model' },
    source:
      'docs.vllm.ai v0.25.0 and latest features/speculative_decoding/draft_model: --speculative-config \'{"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 5, "method": "draft_model"}\'; flags/vllm-0.33.0.json lists draft_model',
    note: 'draft: a separate smaller model of the same vocabulary (speculative.draftModel)',
  },
  {
    knob: 'speculative.tokens',
    via: 'json',
    name: 'num_speculative_tokens',
    source: 'vllm/config/speculative.py SpeculativeConfig (v0.11.0)',
  },
  { knob: 'speculative.draftModel', via: 'json', name: 'model', source: 'vllm/config/speculative.py SpeculativeConfig (v0.11.0)' },
  {
    knob: 'speculative.ngramMax',
    via: 'json',
    name: 'prompt_lookup_max',
    source: 'vllm/config/speculative.py SpeculativeConfig (v0.11.0)',
  },
  {
    knob: 'speculative.ngramMin',
    via: 'json',
    name: 'prompt_lookup_min',
    source: 'vllm/config/speculative.py SpeculativeConfig (v0.11.0)',
  },
  {
    knob: 'prefixCaching',
    via: 'flag',
    name: '--enable-prefix-caching',
    values: { true: '--enable-prefix-caching', false: '--no-enable-prefix-caching' },
    engineDefault: 'true',
    source: `${AU}: cache_group.add_argument("--enable-prefix-caching", **{**cache_kwargs["enable_prefix_caching"], "default": None}) (a BooleanOptionalAction: --no-enable-prefix-caching); vLLM's V1 engine-args test test_defaults: "V1 turns on prefix caching by default"`,
    note: 'the V1 engine turns it on when the flag is not given; the same add_argument in the 2026-05 copy',
  },
  {
    knob: 'kvOffloadGiB',
    via: 'flag',
    name: '--kv-offloading-size',
    since: NEW,
    source: `docs.vllm.ai v0.16.0 api/vllm/config/cache: CacheConfig.kv_offloading_size (GiB), KVOffloadingBackend = Literal['native', 'lmcache']`,
    note: 'not offered for the 0.11 tables (no CacheConfig page of 0.11.x with it was found); servelab gives --kv-offloading-backend native with it',
  },
  {
    knob: 'kvOffloadGiB.backend',
    via: 'flag',
    name: '--kv-offloading-backend',
    since: NEW,
    values: { native: 'native' },
    source: `docs.vllm.ai v0.16.0 api/vllm/config/cache: KVOffloadingBackend = Literal['native', 'lmcache']`,
    note: "native: vLLM's own CPU offloading connector (no LMCache install)",
  },
  ...VLLM_ROCM_ROWS,
];

/** The table's questions (kit/knob-table.ts) asked of these rows. */
export const VLLM_TABLE = knobTable('vllm', VLLM_ROWS);
