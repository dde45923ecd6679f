// The simulated engine's start-up time (simulated seconds) and the host caches that shorten it.
// Each term says where its figure comes from; the ones without a public measurement are marked as
// assumptions. Figures are for one server process; GPUs load their shards in parallel.
//
// Caches, as a real host has them (src/engines/startup-cache.ts points the engines at a per-session
// folder): the compile cache is a marker file under the engine's cache variable
// ($VLLM_CACHE_ROOT/torch_compile_cache/<key>, else $TORCHINDUCTOR_CACHE_DIR/<key>) for the
// compile-relevant knobs; the OS page cache is a marker per checkpoint under
// $SERVELAB_SIM_PAGE_CACHE (the simulated host's memory, set for simulated launches only). Markers
// are written once the server is ready, so the next launch with the same key starts faster.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EngineName, Knobs } from '../../core/variant.js';

export const STARTUP_TERMS = {
  /** Process start, config, distributed init, memory profiling. */
  processS: { value: 10, source: 'assumption (servelab, not measured): process start, imports, NCCL init and memory profiling' },
  /** Cold weight load from disk, bytes per second per GPU rank. */
  diskBytesPerS: {
    value: 2e9,
    source:
      'assumption (servelab): 2 GB/s per rank from local NVMe; cold loads vary by orders of magnitude with storage (meta-llama/llama#174: 1740 s first load, 12 s the second)',
  },
  /** Weight load with the checkpoint already in the OS page cache, bytes per second per GPU rank. */
  pageCacheBytesPerS: {
    value: 3.1e9,
    source:
      'vllm-project/vllm-omni#4896: 158 GB checkpoint fully page-cached (vmtouch), TP2, "Loading weights took 25.43 seconds" = 79 GB per rank in 25.4 s; the page cache is why a second vLLM load is faster (vllm-project/vllm#3182, simon-mo)',
  },
  /** CUDA-graph capture (not cached on disk by the engines: startup-cache.ts). */
  cudaGraphS: {
    value: 10,
    source:
      'vLLM PR #11005 (Llama-3-8B): "Graph capturing finished in 10 secs"; 15 s with -O3, the extra 5 s being Triton warm-up, counted in compile below',
  },
  /** torch.compile with an empty cache. */
  compileColdS: {
    value: 25,
    source: 'vLLM PR #11005 (Llama-3-8B, -O3): init engine 39.34 s vs 14.18 s without: Dynamo 4.60 s + graph compile 14.77 s + Triton ~5 s',
  },
  /** torch.compile with the artefacts of an earlier launch in the cache. */
  compileWarmS: {
    value: 9,
    source:
      'vLLM PR #16848 (Llama-3-8B): "Dynamo bytecode transform time: 5.03 s" then "Directly load the compiled graph(s) for shape None from the cache, took 4.190 s" (Dynamo runs every time)',
  },
} as const;

export interface StartupOpts {
  /**
   * --load-format dummy: no weights read. vLLM's DummyModelLoader ("Model loader that will set
   * model weights to random values", download_model: "Nothing to download";
   * vllm/model_executor/model_loader/dummy_loader.py; SGLang's in srt/model_loader/loader.py
   * alike); filling the tensors on the GPU is left in the fixed terms.
   */
  dummyWeights?: boolean;
  /** The checkpoint's files are in the host's page cache (an earlier launch read them). */
  weightsPageCached?: boolean;
  /** torch.compile finds this configuration's artefacts in its cache folder. */
  compileCached?: boolean;
  /** False with --no-cuda-graph (enforce eager): no capture. */
  cudaGraph?: boolean;
}

export interface StartupBreakdown {
  totalS: number;
  processS: number;
  weightsS: number;
  cudaGraphS: number;
  compileS: number;
}

export function startupBreakdown(weightsPerGpu: number, torchCompile: boolean, opts: StartupOpts = {}): StartupBreakdown {
  const t = STARTUP_TERMS;
  const rate = opts.weightsPageCached ? t.pageCacheBytesPerS.value : t.diskBytesPerS.value;
  const weightsS = opts.dummyWeights ? 0 : weightsPerGpu / rate;
  const cudaGraphS = opts.cudaGraph === false ? 0 : t.cudaGraphS.value;
  const compileS = torchCompile ? (opts.compileCached ? t.compileWarmS.value : t.compileColdS.value) : 0;
  const processS = t.processS.value;
  return { totalS: processS + weightsS + cudaGraphS + compileS, processS, weightsS, cudaGraphS, compileS };
}

/** Simulated start-up seconds: process start, weight load, CUDA-graph capture, compile. */
export function defaultLoadTime(weightsPerGpu: number, torchCompile: boolean, opts: StartupOpts = {}): number {
  return startupBreakdown(weightsPerGpu, torchCompile, opts).totalS;
}

/**
 * The compile cache key: the knobs that change the compiled graph (checkpoint, quantization, KV
 * dtype, TP/PP, attention backend, speculative method, and max batched tokens, which sets vLLM's
 * compile range, e.g. "compile range (1, 8192)"). Modelled on vLLM hashing its configs into the
 * cache folder name (vllm/compilation/backends.py, torch_compile_cache/<hash>); the exact list is
 * servelab's assumption.
 */
export function compileKey(engine: EngineName, model: string, k: Knobs): string {
  const parts = [engine, model, k.quantization, k.kvCacheDtype, k.tp, k.pp, k.attentionBackend, k.speculative?.method, k.maxBatchedTokens];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 10);
}

export interface CacheMarkers {
  compile?: string;
  pageCache?: string;
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');

/** Where this launch's markers live, from its environment; none where no folder was given. */
export function cacheMarkers(engine: EngineName, model: string, knobs: Knobs, env: NodeJS.ProcessEnv): CacheMarkers {
  const key = compileKey(engine, model, knobs);
  const compileRoot = env.VLLM_CACHE_ROOT ? path.join(env.VLLM_CACHE_ROOT, 'torch_compile_cache') : env.TORCHINDUCTOR_CACHE_DIR;
  return {
    ...(compileRoot ? { compile: path.join(compileRoot, `servelab-sim-${key}`) } : {}),
    ...(env.SERVELAB_SIM_PAGE_CACHE ? { pageCache: path.join(env.SERVELAB_SIM_PAGE_CACHE, slug(model)) } : {}),
  };
}

/** What the markers say now (read at the start of the load). */
export function cacheState(m: CacheMarkers): { compileCached: boolean; weightsPageCached: boolean } {
  return { compileCached: !!m.compile && existsSync(m.compile), weightsPageCached: !!m.pageCache && existsSync(m.pageCache) };
}

/** After a successful load: the next launch finds the compiled artefacts and the page-cached files. */
export function writeCacheMarkers(m: CacheMarkers, torchCompile: boolean, dummyWeights: boolean): void {
  const write = (file: string) => {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `${new Date().toISOString()}\n`);
    } catch {
      // A cache that cannot be written is a slower next start, not a failure (as for the engines).
    }
  };
  if (m.compile && torchCompile) write(m.compile);
  if (m.pageCache && !dummyWeights) write(m.pageCache);
}
