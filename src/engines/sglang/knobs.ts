// SGLang's spelling of each neutral knob (`python3 -m sglang.launch_server`). Data table. Full
// flag names only: `--tp 2` works through argparse prefix matching, which a new flag can break.
// Source: python/sglang/srt/server_args.py, the 0.5.4/0.5.5-era stored copy (store id 8356329, no
// commit recorded; facts identical in the ≥0.5.7 copy, id 271536807), and the same file at the
// v0.5.13 tag (28b095c0, speculative checks moved to arg_groups/speculative_hook.py): every
// spelling below holds there; what changed is in the notes. Rendered in docs/engines.md.
import { knobTable } from '../kit/knob-table.js';
import type { KnobRow } from '../data/knob-row.js';
import { SGLANG_ROCM_ROWS } from './rocm-knobs.js';

const SA5 = 'python/sglang/srt/server_args.py (0.5.5-era stored copy, id 8356329)';
const SA = `${SA5.slice(0, -1)}; the same at v0.5.13, 28b095c0)`;

export const SGLANG_ROWS: readonly KnobRow[] = [
  { knob: 'tp', via: 'flag', name: '--tp-size', source: `${SA}: "--tensor-parallel-size", "--tp-size"` },
  { knob: 'pp', via: 'flag', name: '--pp-size', source: `${SA}: "--pipeline-parallel-size", "--pp-size"` },
  { knob: 'dp', via: 'flag', name: '--dp-size', source: `${SA}: "--data-parallel-size", "--dp-size"` },
  { knob: 'ep', via: 'flag', name: '--ep-size', source: `${SA}: "--expert-parallel-size", "--ep-size", "--ep"` },
  {
    knob: 'dpAttention',
    via: 'flag',
    name: '--enable-dp-attention',
    source: `${SA}: "--enable-dp-attention"`,
    note: 'needs dp > 1 and tp % dp == 0',
  },
  { knob: 'quantization', via: 'flag', name: '--quantization', source: `${SA}: QUANTIZATION_CHOICES` },
  {
    knob: 'kvCacheDtype',
    via: 'flag',
    name: '--kv-cache-dtype',
    values: { auto: 'auto', fp8: 'fp8_e4m3', fp8_e4m3: 'fp8_e4m3', fp8_e5m2: 'fp8_e5m2', bf16: 'bf16' },
    source: `${SA}: "--kv-cache-dtype" choices; docs/advanced_features/server_arguments.md lists bf16`,
  },
  { knob: 'maxBatchedTokens', via: 'flag', name: '--chunked-prefill-size', source: `${SA}: "--chunked-prefill-size"` },
  { knob: 'maxRunningSeqs', via: 'flag', name: '--max-running-requests', source: `${SA}: "--max-running-requests"` },
  { knob: 'memFraction', via: 'flag', name: '--mem-fraction-static', source: `${SA}: "--mem-fraction-static"` },
  { knob: 'maxModelLen', via: 'flag', name: '--context-length', source: `${SA}: "--context-length"` },
  {
    knob: 'attentionBackend',
    via: 'flag',
    name: '--attention-backend',
    values: {
      fa3: 'fa3',
      flash_attn: 'fa3',
      flashinfer: 'flashinfer',
      triton: 'triton',
      torch_native: 'torch_native',
      flex: 'flex_attention',
      flex_attention: 'flex_attention',
      flashmla: 'flashmla',
      cutlass_mla: 'cutlass_mla',
      trtllm_mla: 'trtllm_mla',
      trtllm: 'trtllm_mha',
      trtllm_mha: 'trtllm_mha',
      // "# AMD specific" in the same list: offered on AMD hosts only (sglang/rocm-knobs.ts).
      aiter: 'aiter',
      wave: 'wave',
    },
    candidates: ['fa3', 'flashinfer', 'triton'],
    source: `${SA}: ATTENTION_BACKEND_CHOICES`,
    note: 'fa4 is prefill-only: see attentionBackend.prefill',
  },
  {
    knob: 'attentionBackend.prefill',
    via: 'flag',
    name: '--prefill-attention-backend',
    values: { fa4: 'fa4' },
    source: `${SA5}: _handle_attention_backend_compatibility raises "FA4 backend is only supported for prefill"; the prefill flag is the same at v0.5.13, 28b095c0`,
    note: '--attention-backend fa4 would also make it the decode backend, which 0.5.5 rejects (v0.5.13 no longer does; the prefill flag still holds)',
  },
  { knob: 'torchCompile', via: 'flag', name: '--enable-torch-compile', source: `${SA}: "--enable-torch-compile"` },
  {
    knob: 'cudaGraph',
    via: 'flag',
    name: '--disable-cuda-graph',
    source: `${SA}: "--disable-cuda-graph"`,
    note: 'deprecated at the v0.5.15 tag (server_args.py@f63458b5: "Use --cuda-graph-backend-{decode,prefill}=disabled instead"; it still turns both off)',
  },
  {
    knob: 'speculative.method',
    via: 'flag',
    name: '--speculative-algorithm',
    values: { eagle: 'EAGLE', eagle3: 'EAGLE3', mtp: 'EAGLE', ngram: 'NGRAM', draft: 'STANDALONE' },
    source: `${SA5}: "--speculative-algorithm" choices EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM; at v0.5.13 no choices, its help lists "Builtins: EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM, DFLASH"`,
    note: 'DeepSeek-style MTP runs through the EAGLE path (NEXTN is an alias of EAGLE; so is EAGLE at v0.5.13, unless the draft is a Gemma 4 assistant)',
  },
  {
    knob: 'speculative.draftModel',
    via: 'flag',
    name: '--speculative-draft-model-path',
    source: `${SA}: "--speculative-draft-model-path"`,
  },
  {
    knob: 'speculative.numSteps',
    via: 'flag',
    name: '--speculative-num-steps',
    source: `${SA}: "--speculative-num-steps"`,
    note: 'EAGLE/EAGLE3/STANDALONE: steps, topk and draft tokens are given together or not at all (in _handle_speculative_decoding: topk or draft tokens without steps is a bare AssertionError; steps without topk a TypeError from `self.speculative_eagle_topk > 1`; the same at v0.5.13 in arg_groups/speculative_hook.py _handle_eagle_family)',
  },
  { knob: 'speculative.topk', via: 'flag', name: '--speculative-eagle-topk', source: `${SA}: "--speculative-eagle-topk"` },
  {
    knob: 'speculative.draftTokens',
    via: 'flag',
    name: '--speculative-num-draft-tokens',
    source: `${SA}: "--speculative-num-draft-tokens"`,
  },
  {
    knob: 'plumbing.metrics',
    via: 'flag',
    name: '--enable-metrics',
    source: `${SA}: enable_metrics=False`,
    note: '/metrics exists only with it; always given',
  },
  {
    knob: 'plumbing.ncclPort',
    via: 'flag',
    name: '--nccl-port',
    source: `${SA}: nccl_port; PortArgs.init_new`,
    note: 'given with DP-attention so the port is known and checked (otherwise a free port the OS picks: `nccl_port = get_free_port()` in PortArgs.init_new at v0.5.13 28b095c0 and v0.5.15 f63458b5; a random port+100..port+1000 only in 0.5.5-era copies)',
  },
  {
    knob: 'prefixCaching',
    via: 'flag',
    name: '--disable-radix-cache',
    engineDefault: 'true',
    source: `${SA5}: disable_radix_cache: bool = False; "--disable-radix-cache" help "Disable RadixAttention for prefix caching."`,
    note: 'only the off switch exists: prefixCaching=false gives the flag, true gives nothing',
  },
  {
    knob: 'schedulePolicy',
    via: 'flag',
    name: '--schedule-policy',
    values: { lpm: 'lpm', fcfs: 'fcfs' },
    candidates: ['lpm'],
    engineDefault: 'fcfs',
    source: `${SA5}: schedule_policy: str = "fcfs"; "--schedule-policy" choices lpm, random, fcfs, dfs-weight, lof, priority`,
    note: 'lpm admits the waiting request with the longest cached prefix first (it needs the radix cache)',
  },
  {
    knob: 'kvOffloadGiB',
    via: 'flag',
    name: '--hicache-size',
    source: `${SA5}: "--hicache-size" type=int, help "The size of host KV cache memory pool in gigabytes, which will override the hicache_ratio if set." (hicache_size: int = 0, hicache_ratio: float = 2.0)`,
    note: 'an integer number of GB; servelab gives it with --enable-hierarchical-cache and rounds the GiB up',
  },
  {
    knob: 'kvOffloadGiB.enable',
    via: 'flag',
    name: '--enable-hierarchical-cache',
    source: `${SA5}: "--enable-hierarchical-cache" action="store_true" (enable_hierarchical_cache: bool = False)`,
  },
  ...SGLANG_ROCM_ROWS,
];

/** The table's questions (kit/knob-table.ts) asked of these rows. */
export const SGLANG_TABLE = knobTable('sglang', SGLANG_ROWS);
