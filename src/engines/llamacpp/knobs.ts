// llama.cpp's spelling of each neutral knob (`llama-server`). Data table. Source: llama.cpp
// 0.4.0-dev, commit 80fb11a (the source bundled in node-llama-cpp 3.21.1): tools/server/README.md,
// generated from common/arg.cpp, which holds each flag's add_opt. Defaults are quoted from the
// README's table. Rendered in docs/engines.md.
import { knobTable } from '../kit/knob-table.js';
import type { KnobRow } from '../data/knob-row.js';

const R = 'tools/server/README.md@80fb11a (from common/arg.cpp)';
const KV_TYPES = {
  auto: 'f16',
  f16: 'f16',
  f32: 'f32',
  bf16: 'bf16',
  q8_0: 'q8_0',
  q4_0: 'q4_0',
  q4_1: 'q4_1',
  iq4_nl: 'iq4_nl',
  q5_0: 'q5_0',
  q5_1: 'q5_1',
};

export const LLAMACPP_ROWS: readonly KnobRow[] = [
  {
    knob: 'maxRunningSeqs',
    via: 'flag',
    name: '-np',
    source: `${R}: "-np, --parallel N  number of server slots (default: -1, -1 = auto)"`,
    note: 'auto gives 4 slots with a unified KV buffer (server log: n_slots = 4)',
  },
  {
    knob: 'ctxSize',
    via: 'flag',
    name: '-c',
    source: `${R}: "-c, --ctx-size N  size of the prompt context (default: 0, 0 = loaded from model)"`,
    note: 'the KV context of all slots together; without a unified KV each slot gets ctx / slots',
  },
  {
    knob: 'maxModelLen',
    via: 'flag',
    name: '-c',
    source: `${R}: "-c, --ctx-size N"`,
    note: 'llama-server has no per-request length: servelab gives slots x maxModelLen as -c when ctxSize is not set',
  },
  {
    knob: 'kvUnified',
    via: 'flag',
    name: '-kvu',
    values: { true: '-kvu', false: '-no-kvu' },
    source: `${R}: "-kvu, --kv-unified, -no-kvu, --no-kv-unified  use single unified KV buffer shared across all sequences (default: enabled if number of slots is auto)"`,
  },
  {
    knob: 'ctxPerSlot',
    via: 'flag',
    name: '--kv-unified-per-slot',
    source: `${R}: "--kv-unified-per-slot N  context limit per parallel slot (default: unset...); when set without -c/--ctx-size, the shared KV pool is sized to n_parallel*N"`,
  },
  { knob: 'maxBatchedTokens', via: 'flag', name: '-b', source: `${R}: "-b, --batch-size N  logical maximum batch size (default: 2048)"` },
  { knob: 'ubatch', via: 'flag', name: '-ub', source: `${R}: "-ub, --ubatch-size N  physical maximum batch size (default: 512)"` },
  {
    knob: 'flashAttn',
    via: 'flag',
    name: '-fa',
    values: { on: 'on', off: 'off', auto: 'auto' },
    candidates: ['on', 'off'],
    source: `${R}: "-fa, --flash-attn [on|off|auto]  set Flash Attention use ('on', 'off', or 'auto', default: 'auto')"`,
  },
  {
    knob: 'kvCacheDtype',
    via: 'flag',
    name: '-ctk',
    values: KV_TYPES,
    candidates: ['f16', 'q8_0', 'q4_0'],
    source: `${R}: "-ctk, --cache-type-k TYPE  allowed values: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 (default: f16)"`,
    note: 'servelab gives the same type to -ctv unless vCacheDtype is set; a quantized V cache needs flash attention',
  },
  {
    knob: 'vCacheDtype',
    via: 'flag',
    name: '-ctv',
    values: KV_TYPES,
    source: `${R}: "-ctv, --cache-type-v TYPE  allowed values: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 (default: f16)"`,
  },
  {
    knob: 'threads',
    via: 'flag',
    name: '-t',
    source: `${R}: "-t, --threads N  number of CPU threads to use during generation (default: -1)"`,
  },
  {
    knob: 'threadsBatch',
    via: 'flag',
    name: '-tb',
    source: `${R}: "-tb, --threads-batch N  number of threads to use during batch and prompt processing (default: same as --threads)"`,
  },
  {
    knob: 'contBatching',
    via: 'flag',
    name: '-cb',
    values: { true: '-cb', false: '-nocb' },
    source: `${R}: "-cb, --cont-batching, -nocb, --no-cont-batching  whether to enable continuous batching (a.k.a dynamic batching) (default: enabled)"`,
  },
  {
    knob: 'cacheReuse',
    via: 'flag',
    name: '--cache-reuse',
    source: `${R}: "--cache-reuse N  min chunk size to attempt reusing from the cache via KV shifting, requires prompt caching to be enabled (default: 0)"`,
  },
  {
    knob: 'cacheRamMiB',
    via: 'flag',
    name: '-cram',
    source: `${R}: "-cram, --cache-ram N  set the maximum cache size in MiB (default: 8192, -1 - no limit, 0 - disable)"`,
  },
  {
    knob: 'gpuLayers',
    via: 'flag',
    name: '-ngl',
    source: `${R}: "-ngl, --gpu-layers, --n-gpu-layers N  max. number of layers to store in VRAM, either an exact number, 'auto', or 'all' (default: auto)"`,
  },
  {
    knob: 'fit',
    via: 'flag',
    name: '-fit',
    values: { true: 'on', false: 'off' },
    source: `${R}: "-fit, --fit [on|off]  whether to adjust unset arguments to fit in device memory ('on' or 'off', default: 'on')"`,
  },
  {
    knob: 'splitMode',
    via: 'flag',
    name: '-sm',
    values: { none: 'none', layer: 'layer', row: 'row', tensor: 'tensor' },
    candidates: ['none', 'layer', 'row'],
    source: `${R}: "-sm, --split-mode {none,layer,row,tensor}  ... layer (default) ... tensor: ... EXPERIMENTAL"`,
  },
  {
    knob: 'repack',
    via: 'flag',
    name: '--repack',
    values: { true: '--repack', false: '--no-repack' },
    source: `${R}: "--repack, -nr, --no-repack  whether to enable weight repacking (default: enabled)"`,
    note: "servelab 2026-12-01: on this Xeon (AVX-512, AMX), GGML_NATIVE build, every quantized GGUF (Q8_0, Q4_0, Q4_K_M) segfaulted at context init with repacking on, and served with --no-repack; since 2026-12-06 servelab's own build compiles the AMX kernels out on such a CPU (-mno-amx-*) and serves them repacked",
  },
  {
    knob: 'tensorSplit',
    via: 'flag',
    name: '-ts',
    source: `${R}: "-ts, --tensor-split N0,N1,N2,...  fraction of the model to offload to each GPU, comma-separated list of proportions, e.g. 3,1"`,
  },
  {
    knob: 'speculative.method',
    via: 'flag',
    name: '--spec-type',
    values: { draft: 'draft-simple', eagle3: 'draft-eagle3', mtp: 'draft-mtp', ngram: 'ngram-simple' },
    source: `${R}: "--spec-type none,draft-simple,draft-eagle3,draft-mtp,draft-dflash,draft-dspark,ngram-simple,ngram-map-k,... (default: none)"`,
    note: 'draft-mtp drafts with the model\'s own MTP layers and needs no -md: llama-server 80fb11a given `--spec-type draft-mtp` without -md logs "creating MTP draft context against the target model" (corpus llamacpp-no-mtp-layers); -md only for a separate drafter (draft-simple, draft-eagle3)',
  },
  {
    knob: 'speculative.draftModel',
    via: 'flag',
    name: '-md',
    source: `${R}: "--spec-draft-model, -md, --model-draft FNAME  draft model for speculative decoding (default: unused)"`,
  },
  {
    knob: 'speculative.draftTokens',
    via: 'flag',
    name: '--spec-draft-n-max',
    source: `${R}: "--spec-draft-n-max N  number of tokens to draft for speculative decoding (default: 3)"`,
  },
  {
    knob: 'plumbing.metrics',
    via: 'flag',
    name: '--metrics',
    source: `${R}: "--metrics  enable prometheus compatible metrics endpoint (default: disabled)"`,
    note: '/metrics exists only with it; always given',
  },
  { knob: 'plumbing.model', via: 'flag', name: '-m', source: `${R}: "-m, --model FNAME  model path to load"` },
  {
    knob: 'plumbing.alias',
    via: 'flag',
    name: '-a',
    source: `${R}: "-a, --alias STRING  set model name aliases, comma-separated (to be used by API)"`,
    note: "the model name clients send; servelab gives the variant's model name",
  },
  {
    knob: 'prefixCaching',
    via: 'flag',
    name: '--cache-prompt',
    values: { true: '--cache-prompt', false: '--no-cache-prompt' },
    engineDefault: 'true',
    source: `llama-server --help at 80fb11a: "--cache-prompt, --no-cache-prompt  whether to enable prompt caching (default: enabled)"`,
  },
  {
    knob: 'slotPromptSimilarity',
    via: 'flag',
    name: '-sps',
    engineDefault: '0.1',
    source: `llama-server --help at 80fb11a: "-sps, --slot-prompt-similarity SIMILARITY  how much the prompt of a request must match the prompt of a slot in order to use that slot (default: 0.10, 0.0 = disabled)"`,
  },
];

/** The table's questions (kit/knob-table.ts) asked of these rows. */
export const LLAMACPP_TABLE = knobTable('llamacpp', LLAMACPP_ROWS);
