// The failure rules as data: each names the engines it applies to, the log text that proves it
// (every pattern is checked against the real texts in src/engines/data/corpus.json), a
// one-line reason and a hint. Order matters: the first rule that matches wins, so specific root
// causes come before the generic ones they trigger.
import type { FailureContext } from './types.js';
import type { FailureRule } from './failure-rule.js';

/** "NVIDIA A100-SXM4-80GB" -> "A100"; used to name the GPU in a reason. */
export function shortGpuName(name: string): string {
  const m = /\b(GB\d{3}|B\d{3}|H\d{2,3}|A\d{2,3}G?|L40S?|L4|V100|T4|RTX ?\w+)\b/i.exec(name);
  return m ? m[1]!.toUpperCase() : name.replace(/^NVIDIA\s+/i, '');
}

function onThisGpu(ctx: FailureContext): string {
  const g = ctx.gpu;
  if (!g) return 'on this GPU';
  return g.computeCap
    ? `on this GPU (${shortGpuName(g.name)}, compute capability ${g.computeCap})`
    : `on this GPU (${shortGpuName(g.name)})`;
}

function capDotted(cap: string): string {
  return cap.includes('.') ? cap : `${cap.slice(0, -1)}.${cap.slice(-1)}`;
}

export const SHARED_FAILURE_RULES: readonly FailureRule[] = [
  // --- unsupported dtype / quantization on this GPU ---------------------------------------
  {
    id: 'triton-fp8e4nv',
    kind: 'unsupported',
    pattern: /type fp8e4nv not supported in this architecture/,
    reason: (_m, ctx) => `FP8 is not supported ${onThisGpu(ctx)}`,
    hint: 'FP8 weights need compute capability 8.9+ (Ada/Hopper/Blackwell); serve the BF16 checkpoint or use vLLM (weight-only Marlin FP8).',
  },
  {
    id: 'vllm-quant-capability',
    kind: 'unsupported',
    engines: ['vllm', 'sim'],
    pattern: /quantization method (\S+) is not supported for the current GPU\. Minimum capability: (\d+)\. Current capability: (\d+)/,
    reason: (m, ctx) =>
      `${m[1]!.toUpperCase()} is not supported ${ctx.gpu ? onThisGpu(ctx) : `on this GPU (compute capability ${capDotted(m[3]!)})`}: needs ${capDotted(m[2]!)}`,
    hint: 'Pick a quantization this GPU supports, or serve the unquantized checkpoint.',
  },
  {
    id: 'sglang-blackwell-only-backend',
    kind: 'unsupported',
    engines: ['sglang', 'sim'],
    // 0.5.5: "TRTLLM MHA backend is only supported on Blackwell"; v0.5.13 splits MHA by phase (decode
    // also runs on Hopper) and says "(SM100/SM12x)" for MLA (corpus entries *-0.5.13).
    pattern: /TRTLLM (MLA|MHA) backend (?:for (prefill|decode) )?is only supported on (Hopper|Blackwell)/,
    reason: (m, ctx) =>
      `attention backend trtllm_${m[1]!.toLowerCase()}${m[2] ? ` (${m[2]})` : ''} is not supported ${onThisGpu(ctx)} (${m[3] === 'Hopper' ? 'Hopper and Blackwell' : 'Blackwell'} only)`,
    hint: 'Choose fa3, flashinfer or triton on this GPU.',
  },
  // No real TensorRT-LLM text for FP8 weights on Ampere is known (its docs only say the hardware
  // matrix has none), so there is no rule for it: preflight prunes FP8 below SM89 before launch.
  {
    id: 'sim-unsupported',
    kind: 'unsupported',
    engines: ['sim'],
    // The simulator's own line where no real engine text is known (labelled, never an engine's).
    pattern: /^servelab sim: unsupported: (.+?)(?: \(no real engine text is known for this case\))?$/,
    reason: (m) => `${m[1]!} is not supported here`,
    hint: 'No real engine text is known for this case; servelab prunes it before launch on a real host.',
  },
  {
    id: 'sim-tp-mismatch',
    kind: 'tp-mismatch',
    engines: ['sim'],
    pattern: /^servelab sim: tp-mismatch: (.+?)(?: \(no real engine text is known for this case\))?$/,
    reason: (m) => m[1]!,
    hint: 'Use a TP size that divides the number of attention heads (and KV heads).',
  },
  // --- port in use --------------------------------------------------------------------------
  {
    id: 'port-errno98',
    kind: 'port-in-use',
    pattern: /\[Errno 98\][^\n]*|address already in use|EADDRINUSE/i,
    reason: () => 'the server port is already in use',
    hint: 'Another process holds the port: pick another with --port, or stop that process.',
  },
  {
    id: 'sglang-internal-port',
    kind: 'port-in-use',
    engines: ['sglang', 'sim'],
    pattern: /ValueError: (\S+) at (\d+) is not available in \d+ seconds/,
    reason: (m) => `SGLang's internal ${m[1]} port ${m[2]} is in use`,
    hint: 'SGLang also uses ports above the server port (nccl, DP-attention port+233...): choose a base port with room above it.',
  },
  // --- model not found ----------------------------------------------------------------------
  {
    id: 'hf-invalid-repo',
    kind: 'model-not-found',
    pattern: /Invalid repository ID or local directory specified: '([^']+)'/,
    reason: (m) => `model '${m[1]}' was not found (no such Hugging Face repo or local folder)`,
    hint: 'Check the model id or path; for a gated model log in with `huggingface-cli login` or set HF_TOKEN.',
  },
  {
    id: 'hf-not-valid-identifier',
    kind: 'model-not-found',
    pattern: /(\S+) is not a local folder and is not a valid model identifier/,
    reason: (m) => `model ${m[1]!.replace(/^['"]|['"]$/g, '')} was not found (not a local folder, not a valid model id)`,
    hint: 'Check the model id or path; for a gated model log in with `huggingface-cli login` or set HF_TOKEN.',
  },
  {
    id: 'hf-gated',
    kind: 'model-not-found',
    pattern: /Cannot access gated repo|Access to model \S+ is restricted|401 Client Error/,
    reason: () => 'the model is gated and this host has no access to it',
    hint: 'Accept the model licence on huggingface.co and set HF_TOKEN (or `huggingface-cli login`).',
  },
  {
    id: 'hf-offline',
    kind: 'model-not-found',
    // Only the fatal form: the same sentence without "couldn't find it in the cached files" is a
    // warning after which the cached copy loads fine.
    pattern: /We couldn't connect to '[^']*huggingface\.co'[^\n]*couldn't find it in the cached files|LocalEntryNotFoundError/,
    reason: () => 'the model is not in the local cache and the Hub cannot be reached',
    hint: 'Download the model first (`huggingface-cli download <model>`) or allow network access.',
  },
  // --- TP / heads mismatch, world size ---------------------------------------------------------
  {
    id: 'vllm-heads-divisible',
    kind: 'tp-mismatch',
    pattern: /Total number of attention heads \((\d+)\) must be divisible by tensor parallel size \((\d+)\)/,
    reason: (m) => `${m[1]} attention heads are not divisible by tensor parallel size ${m[2]}`,
    hint: 'Use a TP size that divides the number of attention heads (and KV heads).',
  },
  {
    id: 'assert-heads',
    kind: 'tp-mismatch',
    pattern: /assert\s+[^\n]*(num_heads|num_kv_heads|head)[^\n]*%\s*[^\n]*tp/i,
    reason: () => 'the attention heads are not divisible by the tensor parallel size',
    hint: 'Use a TP size that divides the number of attention heads (and KV heads).',
  },
  {
    id: 'assert-in-attention-init',
    kind: 'tp-mismatch',
    // SGLang's bare AssertionError inside the attention layer's __init__; TRT-LLM's mapping check.
    pattern: /^AssertionError\s*$/,
    near: /attention[^\n]*in __init__|tensorrt_llm\/mapping\.py/,
    reason: () => 'the attention heads are not divisible by the tensor parallel size',
    hint: 'Use a TP size that divides the number of attention heads (and KV heads).',
  },
  {
    id: 'not-enough-gpus',
    kind: 'unsupported',
    // vLLM's Ray path prints no counts in 0.11; newer releases append them.
    pattern:
      /number of required GPUs exceeds the total number of available GPUs(?:[^\n]*Required number of devices: (\d+)\. Total number of devices: (\d+))?/,
    reason: (m) =>
      m[1] ? `the parallel layout needs ${m[1]} GPUs, this host has ${m[2]}` : 'the parallel layout needs more GPUs than this host shows',
    hint: 'Keep tp x pp x dp within the visible GPUs (CUDA_VISIBLE_DEVICES).',
  },
  {
    id: 'vllm-ray',
    kind: 'unsupported',
    engines: ['vllm', 'sim'],
    pattern: /Unable to load Ray/,
    reason: () => 'the parallel layout needs more GPUs than this host shows (vLLM fell back to Ray)',
    hint: 'Keep tp x pp x dp within the visible GPUs (CUDA_VISIBLE_DEVICES).',
  },
  // --- out of memory ----------------------------------------------------------------------------
  {
    id: 'vllm-free-memory',
    kind: 'oom',
    engines: ['vllm', 'sim'],
    // 0.11: "Free memory on device (x/y GiB)"; newer: "Free memory on device cuda:0 (x/y GiB)".
    pattern: /Free memory on device (?:\S+ )?\(([\d.]+)\/([\d.]+) GiB\) on startup is less than desired GPU memory utilization/,
    reason: (m) => `only ${m[1]} of ${m[2]} GiB GPU memory was free at start (another process holds memory)`,
    hint: 'Stop whatever else uses the GPU, or lower --gpu-memory-utilization.',
  },
  {
    id: 'vllm-kv-too-small',
    kind: 'oom',
    engines: ['vllm', 'sim'],
    pattern: /KV cache is needed, which is larger than the available KV cache memory|No available memory for the cache blocks/,
    reason: () => 'not enough GPU memory left for the KV cache',
    hint: 'Raise the memory fraction, lower --max-model-len, use an FP8 KV cache, or add tensor parallelism.',
  },
  {
    id: 'sglang-not-enough-memory',
    kind: 'oom',
    engines: ['sglang', 'sim'],
    pattern: /Not enough memory\. Please try to increase --mem-fraction-static/,
    reason: () => 'the weights do not fit inside --mem-fraction-static',
    hint: 'Raise --mem-fraction-static, quantize the weights, or add tensor parallelism.',
  },
  {
    id: 'cuda-oom',
    kind: 'oom',
    // PyTorch's texts, and TensorRT-LLM's C++ one (cudaUtils.h: "CUDA runtime error in ::cudaMalloc(...): out of memory").
    pattern: /CUDA out of memory|OutOfMemoryError|CUDA error: out of memory|CUDA runtime error in [^\n]*: out of memory/,
    reason: () => 'the GPU ran out of memory',
    hint: 'Lower the memory fraction, max running sequences or batched tokens; or quantize / add tensor parallelism.',
  },
  // --- bad flag ----------------------------------------------------------------------------------
  {
    id: 'argparse-unrecognized',
    kind: 'bad-flag',
    pattern: /error: unrecognized arguments: (.+)/,
    reason: (m) => `the engine does not know the argument(s) ${m[1]!.trim()}`,
    hint: 'This engine version does not have that flag: check `--help` of the installed version, or remove it from extra args.',
  },
  {
    id: 'argparse-invalid',
    kind: 'bad-flag',
    pattern: /error: argument ([^:]+): (invalid .*|expected .*)/,
    reason: (m) => `bad value for ${m[1]}: ${m[2]}`,
    hint: "Check the value against the installed version's `--help`.",
  },
  {
    id: 'click-no-such-option',
    kind: 'bad-flag',
    pattern: /Error: (No such option: \S+|Invalid value for .+)/,
    reason: (m) => `trtllm-serve rejected the command: ${m[1]}`,
    hint: 'Check `trtllm-serve --help` of the installed version.',
  },
  {
    id: 'vllm-env-choice',
    kind: 'bad-flag',
    pattern: /Invalid value '([^']*)' for (VLLM_\w+)/,
    reason: (m) => `${m[2]}=${m[1]} is not accepted by this vLLM`,
    hint: 'Pick one of the values the installed vLLM lists.',
  },
  {
    id: 'vllm-max-model-len',
    kind: 'bad-flag',
    engines: ['vllm', 'sim'],
    pattern: /User-specified max_model_len \((\d+)\) is greater than the derived max_model_len/,
    reason: (m) => `--max-model-len ${m[1]} is longer than the model's own context`,
    hint: "Lower --max-model-len to the model's max_position_embeddings (or set VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 knowingly).",
  },
  {
    id: 'vllm-attention-backend-0110',
    kind: 'bad-flag',
    engines: ['vllm', 'sim'],
    pattern: /Invalid attention backend: '([^']*)'/,
    reason: (m) => `VLLM_ATTENTION_BACKEND=${m[1]} is not accepted by this vLLM`,
    hint: 'Pick one of the backends the installed vLLM lists.',
  },
  {
    id: 'sglang-fa4-decode',
    kind: 'bad-flag',
    engines: ['sglang', 'sim'],
    pattern: /FA4 backend is only supported for prefill/,
    reason: () => 'SGLang rejects fa4 as the decode backend (it is prefill-only)',
    hint: 'Give fa4 as --prefill-attention-backend (servelab does so from SGLang 0.5.5 on).',
  },
  {
    id: 'trtllm-yaml-extra',
    kind: 'bad-flag',
    engines: ['trtllm', 'sim'],
    pattern: /Extra inputs are not permitted/,
    reason: () => 'the --extra_llm_api_options YAML has a key this TensorRT-LLM does not know',
    hint: 'Key names changed across TensorRT-LLM releases: check llm_args.py of the installed version.',
  },
  // --- speculative decoding that fails at start -----------------------------------------------
  {
    id: 'vllm-draft-model',
    kind: 'spec-failed',
    engines: ['vllm', 'sim'],
    pattern: /Draft model speculative decoding is not supported yet/,
    reason: () => 'this vLLM cannot run draft-model speculative decoding',
    hint: 'Use ngram, eagle, eagle3 or mtp on this vLLM; draft models ("method": "draft_model") run from vLLM 0.25 on.',
  },
  {
    id: 'trtllm-decoding-type',
    kind: 'spec-failed',
    engines: ['trtllm', 'sim'],
    pattern: /Invalid decoding type: (\S+)/,
    reason: (m) => `this TensorRT-LLM does not know decoding_type ${m[1]}`,
    hint: 'The decoding_type spelling changed across releases (Eagle on 1.2, Eagle3 later): give servelab the installed version.',
  },
  {
    id: 'sglang-spec-partial',
    kind: 'spec-failed',
    engines: ['sglang', 'sim'],
    pattern: /TypeError: '[<>]=?' not supported between instances of 'NoneType' and 'int'/,
    near: /_handle_speculative_decoding|speculative/,
    reason: () => 'SGLang got only part of --speculative-num-steps / --speculative-eagle-topk / --speculative-num-draft-tokens',
    hint: 'Give all three speculative numbers or none.',
  },
];
