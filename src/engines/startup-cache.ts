// Startup cost knobs, as data the engine adapters can read: where vLLM and SGLang keep their
// compile caches (pointed at a per-session folder, so variants of one engine after the first
// reuse them), and dummy weights (--load-format dummy; TensorRT-LLM's YAML load_format) where they
// cannot change the measurement.
// Every entry names its source. What is NOT cached by either engine: CUDA-graph capture runs at
// every start (no on-disk cache is read for it in the sources below), and weights are only
// reused through the OS page cache (nothing to set: the second load of the same files is faster).
import path from 'node:path';
import type { EngineName } from '../core/variant.js';
import { TRTLLM_DUMMY_YAML } from './trtllm/adapter.js';

export interface CacheKnob {
  engine: EngineName;
  /** Environment variable set for the server process (docker: `-e NAME=...` plus a bind mount). */
  env: string;
  /** Sub-folder of the session cache folder. */
  subdir: string;
  what: string;
  source: string;
  /** False where the source is a development branch and no release was checked. */
  released: boolean;
}

export const CACHE_KNOBS: readonly CacheKnob[] = [
  {
    engine: 'vllm',
    env: 'VLLM_CACHE_ROOT',
    subdir: 'vllm',
    what: "vLLM's cache root; torch.compile artefacts go to $VLLM_CACHE_ROOT/torch_compile_cache/<hash of the config> unless --compilation-config sets cache_dir, so variants that differ only in serving knobs with the same compile config reuse them",
    source:
      'vllm/envs.py ("VLLM_CACHE_ROOT", default ~/.cache/vllm) and vllm/compilation/backends.py (os.path.join(envs.VLLM_CACHE_ROOT, "torch_compile_cache", hash_key)), vLLM main 2025',
    released: true,
  },
  {
    engine: 'vllm',
    env: 'TORCHINDUCTOR_CACHE_DIR',
    subdir: 'torchinductor',
    what: "PyTorch Inductor's own cache (kernels it generates), outside vLLM's folder",
    source: 'PyTorch torch.compile caching recipe (TORCHINDUCTOR_CACHE_DIR); set alongside VLLM_CACHE_ROOT in deployment examples',
    released: true,
  },
  {
    engine: 'vllm',
    env: 'TRITON_CACHE_DIR',
    subdir: 'triton',
    what: 'Triton kernel cache (default ~/.triton/cache)',
    source: "Triton's TRITON_CACHE_DIR",
    released: true,
  },
  {
    engine: 'sglang',
    env: 'TORCHINDUCTOR_CACHE_DIR',
    subdir: 'torchinductor',
    what: 'torch.compile (--enable-torch-compile, mode max-autotune-no-cudagraphs) cache',
    source:
      'sgl-project/sglang docs/references/torch_compile_cache.md ("Generate the cache by setting TORCHINDUCTOR_CACHE_DIR and running the model once")',
    released: true,
  },
  {
    engine: 'sglang',
    env: 'TRITON_CACHE_DIR',
    subdir: 'triton',
    what: 'Triton kernel cache (default ~/.triton/cache)',
    source: "Triton's TRITON_CACHE_DIR",
    released: true,
  },
  {
    engine: 'sglang',
    env: 'SGLANG_JIT_CACHE_ROOT',
    subdir: 'sglang-jit',
    what: 'newer SGLang: one root for torch_compile/ and deep_gemm/ JIT caches; per-component variables (TORCHINDUCTOR_CACHE_DIR ...) take precedence',
    source:
      'SGLang torch_compile_cache.md "Unified cache root" section and its unit tests, seen on development branches; no release checked',
    released: false,
  },
];

/** Env for an engine's server: its cache variables pointed into `<sessionCacheDir>/<subdir>`. */
export function cacheEnv(engine: EngineName, sessionCacheDir: string, includeUnreleased = false): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of CACHE_KNOBS) {
    if (k.engine !== engine || (!k.released && !includeUnreleased)) continue;
    env[k.env] = path.join(sessionCacheDir, k.subdir);
  }
  return env;
}

export interface DummyWeights {
  /** Flags appended to the engine's argv; none where the setting lives in a file the adapter writes. */
  flags: string[];
  /** How the engine is asked for them, for plan lines, notes and verdicts. */
  spelling: string;
  source: string;
}

/** Dummy weights: random weights of the right shapes, no download or load. */
export const DUMMY_WEIGHTS: Partial<Record<EngineName, DummyWeights>> = {
  vllm: {
    flags: ['--load-format', 'dummy'],
    spelling: '--load-format dummy',
    source:
      'vllm-project/vllm benchmarks/auto_tune/auto_tune.sh (start_server: "--load-format" "dummy", with vllm bench serve --ignore-eos)',
  },
  sglang: {
    flags: ['--load-format', 'dummy'],
    spelling: '--load-format dummy',
    source: 'sgl-project/sglang python/sglang/srt/server_args.py (LOAD_FORMAT_CHOICES includes "dummy")',
  },
  // No trtllm-serve flag: `load_format: dummy` in the --extra_llm_api_options YAML the adapter
  // writes (src/engines/trtllm/adapter.ts TRTLLM_DUMMY_YAML holds the sources, 1.2.0rc1 and 1.3.0rc27).
  trtllm: {
    flags: [],
    spelling: `TensorRT-LLM: ${TRTLLM_DUMMY_YAML.key}: ${TRTLLM_DUMMY_YAML.value} in its --extra_llm_api_options YAML`,
    source:
      'NVIDIA/TensorRT-LLM tensorrt_llm/llmapi/llm_args.py TorchLlmArgs.load_format (LoadFormat.DUMMY, convert_load_format), the copies the 1.2.0rc1 and 1.3.0rc27 tables were read from; _torch/pyexecutor/model_loader.py@b51992a3 initialize_dummy_weights',
  },
};

/** Engines servelab does not start with dummy weights, and why (the verdict says it); none today. */
export const DUMMY_NOT_OFFERED: Partial<Record<EngineName, string>> = {};

/** With dummy weights the model's EOS is meaningless: the client must fix output lengths. */
export const DUMMY_CLIENT = { ignoreEos: true, source: 'auto_tune.sh runs vllm bench serve with --ignore-eos' } as const;

export interface DummyContext {
  engine: EngineName;
  /** Speculative decoding: acceptance depends on the real weights. */
  speculative: boolean;
  /** MoE: random router weights spread tokens over experts unlike the trained router. */
  moe: boolean;
  /** The final validation always measures the real model. */
  finalValidation: boolean;
}

/** Whether dummy weights may stand in for the real ones here, and why (shown and saved in the profile). */
export function dummyWeightsVerdict(c: DummyContext): { use: boolean; why: string } {
  if (!DUMMY_WEIGHTS[c.engine])
    return { use: false, why: DUMMY_NOT_OFFERED[c.engine] ?? `${c.engine}: no dummy-weight load format used by servelab` };
  if (c.finalValidation) return { use: false, why: 'final validation runs the real weights' };
  if (c.speculative) return { use: false, why: 'speculative decoding: draft acceptance depends on the real weights' };
  if (c.moe)
    return { use: false, why: 'MoE: random router weights change how tokens spread over experts (expert load), so real weights are used' };
  return {
    use: true,
    why: `dummy weights (${DUMMY_WEIGHTS[c.engine]!.spelling}, outputs fixed by ignore_eos): same shapes and kernels, no weight load`,
  };
}
