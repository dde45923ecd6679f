// Startup cost knobs, as data the engine adapters can read: where vLLM and SGLang keep their
// compile caches (pointed at a per-session folder, so variants of one engine after the first
// reuse them), and dummy weights (--load-format dummy) where they cannot change the measurement.
// Every entry names its source. What is NOT cached by either engine: CUDA-graph capture runs at
// every start (no on-disk cache is read for it in the sources below), and weights are only
// reused through the OS page cache (nothing to set: the second load of the same files is faster).
import path from 'node:path';
import type { EngineName } from '../core/variant.js';

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
    source: 'vllm/envs.py ("VLLM_CACHE_ROOT", default ~/.cache/vllm) and vllm/compilation/backends.py (os.path.join(envs.VLLM_CACHE_ROOT, "torch_compile_cache", hash_key)), vLLM main 2025',
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
    source: 'sgl-project/sglang docs/references/torch_compile_cache.md ("Generate the cache by setting TORCHINDUCTOR_CACHE_DIR and running the model once")',
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
    source: 'SGLang torch_compile_cache.md "Unified cache root" section and its unit tests, seen on development branches; no release checked',
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
  flags: string[];
  source: string;
}

/** `--load-format dummy`: random weights of the right shapes, no download or load. */
export const DUMMY_WEIGHTS: Partial<Record<EngineName, DummyWeights>> = {
  vllm: {
    flags: ['--load-format', 'dummy'],
    source: 'vllm-project/vllm benchmarks/auto_tune/auto_tune.sh (start_server: "--load-format" "dummy", with vllm bench serve --ignore-eos)',
  },
  sglang: {
    flags: ['--load-format', 'dummy'],
    source: 'sgl-project/sglang python/sglang/srt/server_args.py (LOAD_FORMAT_CHOICES includes "dummy")',
  },
};

/**
 * Engines servelab does not start with dummy weights, and why (the verdict says it). TensorRT-LLM
 * has the option, in its LLM API rather than on the command line: `class LoadFormat(Enum): AUTO = 0;
 * # Initialize all weights randomly. DUMMY = 1` and `TorchLlmArgs.load_format` ("How to load the
 * model weights"), a string upper-cased into LoadFormat by `convert_load_format`, so YAML
 * `load_format: dummy` in --extra_llm_api_options would reach it (tensorrt_llm/llmapi/llm_args.py
 * at NVIDIA/TensorRT-LLM@fcd3f316, 0.2x, and a later stored copy that adds VISION_ONLY = 2).
 * Not read in the 1.2.0rc1 source our knob table targets, and no trtllm-serve flag: left out.
 */
export const DUMMY_NOT_OFFERED: Partial<Record<EngineName, string>> = {
  trtllm: 'TensorRT-LLM: its LLM API has load_format DUMMY (llm_args.py), but servelab has not checked it in the 1.2.0rc1 source its knob table targets, so real weights are used',
};

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
  if (!DUMMY_WEIGHTS[c.engine]) return { use: false, why: DUMMY_NOT_OFFERED[c.engine] ?? `${c.engine}: no dummy-weight load format used by servelab` };
  if (c.finalValidation) return { use: false, why: 'final validation runs the real weights' };
  if (c.speculative) return { use: false, why: 'speculative decoding: draft acceptance depends on the real weights' };
  if (c.moe) return { use: false, why: 'MoE: random router weights change how tokens spread over experts (expert load), so real weights are used' };
  return { use: true, why: 'dummy weights (--load-format dummy, outputs fixed by ignore_eos): same shapes and kernels, no weight load' };
}
