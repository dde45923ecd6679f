// TensorRT-LLM's spelling of each neutral knob (`trtllm-serve`, PyTorch backend). Data table.
// Many knobs have no flag and live in the --extra_llm_api_options YAML (dotted names below).
// Sources: tensorrt_llm/commands/serve.py@4c05a748; tensorrt_llm/llmapi/llm_args.py (≈1.1/1.2
// stored copy, and a later one with Eagle3DecodingConfig). Rendered in docs/engines.md.
import { knobTable } from '../kit/knob-table.js';
import type { KnobRow } from '../data/knob-row.js';

const SV = 'tensorrt_llm/commands/serve.py@4c05a748';
const LA = 'tensorrt_llm/llmapi/llm_args.py (≈1.2)';
const LA3 = 'nvidia.github.io/TensorRT-LLM/1.3.0rc27 llm-api Eagle3DecodingConfig';

export const TRTLLM_ROWS: readonly KnobRow[] = [
  { knob: 'tp', via: 'flag', name: '--tp_size', source: `${SV}: @click.option("--tp_size")` },
  { knob: 'pp', via: 'flag', name: '--pp_size', source: `${SV}: @click.option("--pp_size")` },
  { knob: 'ep', via: 'flag', name: '--ep_size', source: `${SV}: @click.option("--ep_size") -> moe_expert_parallel_size` },
  { knob: 'maxBatchedTokens', via: 'flag', name: '--max_num_tokens', source: `${SV}: @click.option("--max_num_tokens")` },
  { knob: 'maxRunningSeqs', via: 'flag', name: '--max_batch_size', source: `${SV}: @click.option("--max_batch_size")` },
  { knob: 'maxModelLen', via: 'flag', name: '--max_seq_len', source: `${SV}: @click.option("--max_seq_len")` },
  {
    knob: 'memFraction',
    via: 'flag',
    name: '--kv_cache_free_gpu_memory_fraction',
    source: `${SV}: @click.option("--kv_cache_free_gpu_memory_fraction")`,
    note: 'fraction of the memory left free after the weights',
  },
  {
    knob: 'memFraction.yaml',
    via: 'yaml',
    name: 'kv_cache_config.free_gpu_memory_fraction',
    source: `${SV} update_llm_args_with_extra_dict: llm_args | llm_args_dict (a YAML kv_cache_config replaces the flag's object)`,
    note: 'written whenever the YAML has kv_cache_config, else the flag is silently dropped',
  },
  { knob: 'dpAttention', via: 'yaml', name: 'enable_attention_dp', source: `${LA}: BaseLlmArgs.enable_attention_dp` },
  {
    knob: 'kvCacheDtype',
    via: 'yaml',
    name: 'kv_cache_config.dtype',
    values: { auto: 'auto', bf16: 'auto', fp8: 'fp8', fp8_e4m3: 'fp8' },
    source: `${LA}: KvCacheConfig.dtype; dtype == 'fp8' sets kv_cache_quant_algo FP8`,
    note: 'auto/bf16 keep the model dtype: no key is written',
  },
  {
    knob: 'attentionBackend',
    via: 'yaml',
    name: 'attn_backend',
    values: { trtllm: 'TRTLLM', flashinfer: 'FLASHINFER', vanilla: 'VANILLA', flashinfer_star: 'FLASHINFER_STAR_ATTENTION' },
    candidates: ['trtllm', 'flashinfer'],
    source: `${LA}: attn_backend; _torch/attention_backend/utils.py get_attention_backend`,
    note: 'unknown names silently fall back to TRTLLM, so servelab refuses them',
  },
  {
    knob: 'cudaGraph',
    via: 'yaml',
    name: 'cuda_graph_config',
    source: `${LA}: cuda_graph_config: Optional[CudaGraphConfig]`,
    note: 'null turns graphs off',
  },
  { knob: 'torchCompile', via: 'yaml', name: 'torch_compile_config', source: `${LA}: TorchCompileConfig(enable_fullgraph=True)` },
  {
    knob: 'speculative.method',
    via: 'yaml',
    name: 'speculative_config.decoding_type',
    until: '1.3.0rc27',
    values: { eagle3: 'Eagle', mtp: 'MTP', ngram: 'NGram', draft: 'DraftTarget' },
    source: `${LA}: DecodingBaseConfig.from_dict config_classes {"MTP","Medusa","Eagle",...,"NGram","DraftTarget"}; EagleDecodingConfig.spec_dec_mode is EAGLE3`,
    note: '"Eagle3" is "Invalid decoding type" here; "Eagle" is EAGLE-3; EAGLE-1/2 (neutral eagle) does not run on the PyTorch backend',
  },
  {
    knob: 'speculative.method',
    via: 'yaml',
    name: 'speculative_config.decoding_type',
    since: '1.3.0rc27',
    values: { eagle3: 'Eagle3', mtp: 'MTP', ngram: 'NGram', draft: 'DraftTarget' },
    source: `${LA3}: decoding_type: Literal['Eagle3']`,
    note: 'neutral eagle (EAGLE-1/2) still unsupported on the PyTorch backend',
  },
  { knob: 'speculative.tokens', via: 'yaml', name: 'speculative_config.max_draft_len', source: `${LA}: DecodingBaseConfig.max_draft_len` },
  {
    knob: 'speculative.mtpLayers',
    via: 'yaml',
    name: 'speculative_config.num_nextn_predict_layers',
    source: `${LA}: MTPDecodingConfig.num_nextn_predict_layers`,
  },
  {
    knob: 'speculative.ngramSize',
    via: 'yaml',
    name: 'speculative_config.max_matching_ngram_size',
    source: `${LA}: NGramDecodingConfig.max_matching_ngram_size`,
  },
  {
    knob: 'speculative.draftModel',
    via: 'yaml',
    name: 'speculative_config.speculative_model_dir',
    until: '1.3.0rc27',
    source: `${LA}: DecodingBaseConfig.speculative_model_dir`,
  },
  {
    knob: 'speculative.draftModel',
    via: 'yaml',
    name: 'speculative_config.speculative_model',
    since: '1.3.0rc27',
    source: `${LA3}: speculative_model (speculative_model_dir kept as an alias)`,
  },
  {
    knob: 'plumbing.iterStats',
    via: 'yaml',
    name: 'enable_iter_perf_stats',
    source: `${LA}: TorchLlmArgs.enable_iter_perf_stats`,
    note: 'feeds the JSON /metrics servelab polls; always written',
  },
  {
    knob: 'plumbing.prometheus',
    via: 'yaml',
    name: 'return_perf_metrics',
    source: 'tensorrt_llm/serve/openai_server.py@e7f7345e: Mount("/prometheus/metrics") only if return_perf_metrics',
    note: 'Prometheus text is at /prometheus/metrics, never /metrics (JSON); servelab reads the JSON one',
  },
  { knob: 'plumbing.yaml', via: 'flag', name: '--extra_llm_api_options', source: `${SV}: @click.option("--extra_llm_api_options")` },
  {
    knob: 'prefixCaching',
    via: 'yaml',
    name: 'kv_cache_config.enable_block_reuse',
    engineDefault: 'true',
    source: `${LA}: KvCacheConfig.enable_block_reuse: bool = Field(default=True, description="Controls if KV cache blocks can be reused for different requests.")`,
    note: 'engine audit 4 (G5): 1.2.1 runs with cache_reuse=False under attn_backend FLASHINFER whatever this key says',
  },
];

/** The table's questions (kit/knob-table.ts) asked of these rows. */
export const TRTLLM_TABLE = knobTable('trtllm', TRTLLM_ROWS);
