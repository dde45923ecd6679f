// llama.cpp's failure rules (llama-server 0.4.0-dev, 80fb11a). Every pattern is a text captured by
// running the real binary; the corpus (src/engines/data/corpus.json) holds each with the
// command that produced it. Listed first in FAILURE_RULES: no other engine prints these texts.
import type { Failure } from '../../core/events.js';
import type { ExitInfo } from '../../host/launch-spec.js';
import type { FailureRule } from '../kit/failure-rule.js';
import type { FailureContext } from '../kit/types.js';

const LL = ['llamacpp', 'sim'] as const;

export const LLAMACPP_RULES: readonly FailureRule[] = [
  {
    id: 'llamacpp-gguf-open',
    kind: 'model-not-found',
    engines: LL,
    pattern: /failed to open GGUF file '([^']+)' \(([^)]+)\)/,
    reason: (m) => `the GGUF file ${m[1]} cannot be opened (${m[2]})`,
    hint: 'Give the path of a .gguf file (--model FILE.gguf); `servelab random-gguf` writes one with random weights.',
  },
  {
    id: 'llamacpp-gguf-magic',
    kind: 'model-not-found',
    engines: LL,
    pattern: /invalid magic characters: '.*', expected 'GGUF'/,
    reason: () => 'the model file is not a GGUF file',
    hint: 'llama-server loads GGUF only: convert the checkpoint with convert_hf_to_gguf.py, or download a .gguf.',
  },
  {
    id: 'llamacpp-gguf-bounds',
    kind: 'model-not-found',
    engines: LL,
    pattern: /tensor '([^']+)' data is not within the file bounds, model is corrupted or incomplete/,
    reason: (m) => `the GGUF file is truncated or corrupt (tensor ${m[1]} lies past its end)`,
    hint: 'Download or write the file again; an interrupted download leaves a short file.',
  },
  {
    id: 'llamacpp-wrong-tensor-shape',
    kind: 'bad-model',
    engines: LL,
    pattern: /check_tensor_dims: tensor '([^']+)' has wrong shape; expected\s+([\d,\s]+?), got\s+([\d,\s]+?)\s*$/,
    reason: (m) =>
      `the GGUF's header disagrees with its tensors: ${m[1]} should be ${dims(m[2]!)} by the header, the file holds ${dims(m[3]!)}`,
    hint: 'The file was written inconsistently (e.g. a head count that does not divide): convert or download it again; `servelab random-gguf` refuses such shapes.',
  },
  {
    id: 'llamacpp-missing-tensor',
    kind: 'bad-model',
    engines: LL,
    pattern: /check_tensor_dims: tensor '([^']+)' not found/,
    reason: (m) => `the GGUF lacks the tensor ${m[1]} that its architecture needs`,
    hint: 'The file is incomplete or was converted for another architecture: convert or download it again.',
  },
  {
    id: 'llamacpp-unknown-arch',
    kind: 'unsupported',
    engines: LL,
    pattern: /error loading model: unknown model architecture: '([^']*)'/,
    reason: (m) => `this llama.cpp build does not know the model architecture '${m[1]}'`,
    hint: 'Update llama.cpp (`servelab engines build llamacpp`) to a build that supports it, or serve a model of a supported architecture.',
  },
  {
    id: 'llamacpp-missing-key',
    kind: 'bad-model',
    engines: LL,
    pattern: /error loading model hyperparameters: key not found in model: (\S+)/,
    reason: (m) => `the GGUF's header lacks the key ${m[1]}`,
    hint: 'The file is incomplete or was written for another llama.cpp: convert or download it again.',
  },
  {
    id: 'llamacpp-no-mtp-layers',
    kind: 'spec-failed',
    engines: LL,
    pattern: /context type MTP requested but model doesn't contain MTP layers/,
    reason: () => 'the model has no MTP layers, so --spec-type draft-mtp has nothing to draft with',
    hint: 'Serve a GGUF converted with its MTP head (nextn tensors), or use another speculative method (ngram, or a draft model with -md).',
  },
  {
    id: 'llamacpp-kv-alloc',
    kind: 'oom',
    engines: LL,
    pattern: /failed to initialize the context: failed to allocate buffer for kv cache/,
    reason: () => 'the KV cache for this context does not fit in memory',
    hint: 'Lower -c (ctxSize) or the slot count, or quantize the KV cache (-ctk/-ctv q8_0 with -fa on).',
  },
  {
    id: 'llamacpp-malloc',
    kind: 'oom',
    engines: LL,
    pattern: /ggml_aligned_malloc: insufficient memory \(attempted to allocate ([\d.]+) MB\)/,
    reason: (m) => `llama.cpp could not allocate ${m[1]} MB of host memory`,
    hint: 'Lower -c (ctxSize), the batch sizes or the slot count, or serve a smaller quantization.',
  },
  {
    id: 'llamacpp-quantized-v',
    kind: 'unsupported',
    engines: LL,
    pattern: /quantized V cache requires flash_attn to be enabled/,
    reason: () => 'a quantized V cache needs flash attention, which is off',
    hint: 'Give -fa on with a quantized -ctv, or keep the V cache at f16.',
  },
  {
    // Any other load error, quoted: after the specific texts above and the allocation failures.
    id: 'llamacpp-model-load',
    kind: 'bad-model',
    engines: LL,
    pattern: /llama_model_load: error loading model: (?!.*(?:alloc|failed to load model from))(.+)$/,
    reason: (m) => `llama.cpp could not load the model: ${m[1]!.trim().slice(0, 200)}`,
    hint: 'The GGUF file is not one this llama.cpp build can load: convert or download it again, or update llama.cpp.',
  },
  {
    id: 'llamacpp-arg-value',
    kind: 'bad-flag',
    engines: LL,
    pattern: /^error while handling argument "([^"]+)": (?:error: )?(.+)$/,
    reason: (m) => `llama-server rejected ${m[1]}: ${m[2]}`,
    hint: 'Check the value against `llama-server --help` of the installed build.',
  },
  {
    id: 'llamacpp-invalid-argument',
    kind: 'bad-flag',
    engines: LL,
    pattern: /^error: invalid argument: (\S+)/,
    reason: (m) => `llama-server does not know the argument ${m[1]}`,
    hint: 'This llama.cpp build does not have that flag: check `llama-server --help`, or remove it from extra args.',
  },
  {
    id: 'llamacpp-bind',
    kind: 'port-in-use',
    engines: LL,
    pattern: /couldn't bind HTTP server socket, hostname: (\S+), port: (\d+)/,
    reason: (m) => `the server port ${m[2]} on ${m[1]} is already in use`,
    hint: 'Another process holds the port: pick another with --port, or stop that process.',
  },
];

/** "320, 128, 1, 1" -> "320x128": llama.cpp pads a shape to 4 dimensions with ones. */
function dims(text: string): string {
  const d = text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  while (d.length > 1 && d.at(-1) === '1') d.pop();
  return d.join('x');
}

export const AMX_REPACK_ISSUE = 'https://github.com/ggml-org/llama.cpp/issues/20824';

/**
 * llama-server 80fb11a on a CPU with AMX, repacking a quantized GGUF for its AMX kernels: it dies
 * by SIGSEGV in ggml_backend_amx_mul_mat during the warm-up decode (ggml-org/llama.cpp#20824). It
 * prints nothing about it: captured here (Xeon with AMX_INT8, Q8_0 file of random-gguf, repack on)
 * the log ends at "init: llama threadpool init, n_threads = 2" and the exit is signal SIGSEGV
 * (status 139). On a second VM (Xeon with AMX, 2026-12-05) the same launch, same log lines, died
 * by SIGILL instead (status 132; dmesg "trap invalid opcode" at offset 0x7e39b7 of the binary,
 * which objdump reads as `tilezero %tmm4` in tinygemm_kernel_amx<block_q8_0>): the same AMX kernel
 * path, the tiles refused rather than misused, and the same way out. So the rule is either signal
 * together with the launch's conditions (ctx.amxRepacked), not a log text; the GGUF and flag rules
 * above win when their text is there.
 */
const AMX_CRASH_SIGNALS: readonly string[] = ['SIGSEGV', 'SIGILL'];

export function amxRepackCrash(lines: readonly string[], exit: ExitInfo, ctx: FailureContext): Failure | undefined {
  if (!exit.signal || !AMX_CRASH_SIGNALS.includes(exit.signal) || !ctx.amxRepacked) return undefined;
  return {
    kind: 'unsupported',
    reason: `llama.cpp#20824: llama-server crashed (${exit.signal}) repacking ${ctx.amxRepacked} weights for this CPU's AMX kernels; pass --no-repack (${AMX_REPACK_ISSUE})`,
    hint: 'Serve quantized GGUFs on this CPU with --no-repack (servelab adds it to its own launches here), or an F16 file.',
    evidence: lines
      .slice(-3)
      .map((l) => l.trimEnd())
      .filter(Boolean),
  };
}
