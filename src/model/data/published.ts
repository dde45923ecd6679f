// Published serving results OUTSIDE the three studies the model was fitted on, for out-of-sample
// validation (model-lab/validate.ts, test/unit/model/validation.test.ts, docs/calibration.md). Every
// figure is copied from the `vllm bench serve` result block printed in the source page (Total
// Token throughput, tok/s; 1000 ShareGPT prompts, or random IN/OUT with the prompt count given,
// all requests at once, as the pages' commands say). Engines: vLLM v0.11.0, SGLang v0.5.5.post1,
// TensorRT-LLM v1.2.0rc1 (the pages' "Engine Version" sections). Source: GPUStack performance lab,
// github.com/gpustack/gpustack docs/performance-lab/<model>/<gpu>.md (commit 47277d79).
//
// TRAINING vs HELD-OUT (declared in model-lab/training.ts, by page, before any fit): the Qwen3-14B pages
// (A100 and H100) are TRAINING rows, fitted on together with the three studies; the Qwen3-32B
// pages (A100 and H100) are HELD OUT: a model size the fit never sees, on both GPUs and all three
// engines. No constant is set from a held-out row (model-lab/fit.ts reads only split 'train').
import type { EngineName, GpuEngineName, Knobs } from '../../core/variant.js';
import { WIDER_HELD_OUT } from './published-wider.js';
import type { PublishedResult } from './published-result.js';

const V = { vllm: '0.11.0', sglang: '0.5.5.post1', trtllm: '1.2.0rc1' } as const;
const SRC = (page: string) => `https://github.com/gpustack/gpustack/blob/main/docs/performance-lab/${page}.md`;
const SG = { kind: 'sharegpt' } as const;
const R = (input: number, output: number) => ({ kind: 'random' as const, input, output });

/** TRT-LLM's --enable_chunked_prefill has no servelab knob: the model schedules TRT-LLM prompts whole. */
const CHUNKED = 'run with --enable_chunked_prefill, which the model does not represent (TRT-LLM prompts are scheduled whole)';

/**
 * The Qwen3-32B/A100 page's "Other Benchmark Cases" baseline is stage 1's vLLM server: the page's
 * comparison table gives its ShareGPT figure as stage 1's (1730.98 tok/s, `vllm serve
 * Qwen/Qwen3-32B --max-model-len 32768`), and at the default 40,960 vLLM 0.11 cannot start there
 * (KV budget ~8.7 GiB of 10 GiB: src/model/kv-budget.ts), so the random rows carry the 32768.
 */
const BASELINE_32K =
  "the page's baseline script omits --max-model-len 32768, but its baseline is stage 1's server, which set it (see BASELINE_32K)";
/**
 * The Qwen3-32B/H100 page's stage 2 shows `python3 -m sglang.launch_server --model-path
 * Qwen/Qwen3-32B-FP8`, but the section is headed "2. Quantization in TensorRT-LLM", its summary's
 * "Quantization +50.6%" is 4005.32 over TensorRT-LLM's 2659.50, and its "Total generated tokens:
 * 201376" equal stage 3's TensorRT-LLM FP8 run exactly (one engine and checkpoint repeat their
 * count on these pages: Qwen3-14B/H100's two SGLang FP8 runs both print 201833). Kept as published.
 */
const STAGE2_ENGINE =
  "the page's serving script is SGLang's, but its heading, summary and generated-token count point at TensorRT-LLM FP8 (see STAGE2_ENGINE); the model reads +24% as SGLang, +26% as TensorRT-LLM";
import { NOT_AS_PUBLISHED } from './not-as-published.js';

type Row = [
  group: string,
  engine: GpuEngineName,
  model: string,
  gpu: string,
  knobs: Knobs,
  workload: PublishedResult['workload'],
  prompts: number,
  tput: number,
  tpot: number,
  page: string,
  caveat?: string,
];

const ROWS: Row[] = [
  // Qwen3-14B on 1 x A100 80GB: engine stage, FP8 (weight-only on A100), TRT-LLM max_num_tokens.
  ['qwen3-14b a100 sharegpt', 'vllm', 'Qwen/Qwen3-14B', 'A100', {}, SG, 1000, 3922.41, 114.34, 'qwen3-14b/a100'],
  ['qwen3-14b a100 sharegpt', 'sglang', 'Qwen/Qwen3-14B', 'A100', {}, SG, 1000, 5281.81, 364.93, 'qwen3-14b/a100'],
  ['qwen3-14b a100 sharegpt', 'trtllm', 'Qwen/Qwen3-14B', 'A100', {}, SG, 1000, 5760.97, 261.77, 'qwen3-14b/a100'],
  ['', 'vllm', 'Qwen/Qwen3-14B-FP8', 'A100', {}, SG, 1000, 3334.74, 146.36, 'qwen3-14b/a100'],
  ['', 'trtllm', 'Qwen/Qwen3-14B', 'A100', { maxBatchedTokens: 16384 }, SG, 1000, 5776.5, 268.46, 'qwen3-14b/a100'],
  ['', 'trtllm', 'Qwen/Qwen3-14B', 'A100', { maxBatchedTokens: 32768 }, SG, 1000, 5645.51, 234.79, 'qwen3-14b/a100'],
  ['', 'vllm', 'Qwen/Qwen3-14B', 'A100', {}, R(32000, 100), 100, 4430.14, 445.58, 'qwen3-14b/a100'],
  ['', 'vllm', 'Qwen/Qwen3-14B', 'A100', {}, R(4000, 200), 500, 5153.42, 254.61, 'qwen3-14b/a100'],
  ['', 'vllm', 'Qwen/Qwen3-14B', 'A100', {}, R(2000, 100), 500, 5967.13, 301.73, 'qwen3-14b/a100'],
  ['', 'vllm', 'Qwen/Qwen3-14B', 'A100', {}, R(128, 4), 1000, 4916.63, 233.35, 'qwen3-14b/a100'],
  // Qwen3-32B on 1 x A100 80GB (vLLM's engine-stage run used --max-model-len 32768).
  ['qwen3-32b a100 sharegpt', 'vllm', 'Qwen/Qwen3-32B', 'A100', { maxModelLen: 32768 }, SG, 1000, 1730.98, 149.67, 'qwen3-32b/a100'],
  ['qwen3-32b a100 sharegpt', 'sglang', 'Qwen/Qwen3-32B', 'A100', {}, SG, 1000, 1398.38, 75.11, 'qwen3-32b/a100'],
  ['qwen3-32b a100 sharegpt', 'trtllm', 'Qwen/Qwen3-32B', 'A100', {}, SG, 1000, 2054.21, 89.01, 'qwen3-32b/a100'],
  ['', 'vllm', 'Qwen/Qwen3-32B-FP8', 'A100', {}, SG, 1000, 1563.33, 339.76, 'qwen3-32b/a100'],
  ['', 'vllm', 'Qwen/Qwen3-32B', 'A100', { maxModelLen: 32768 }, R(32000, 100), 100, 1798.45, 67.87, 'qwen3-32b/a100', BASELINE_32K],
  ['', 'vllm', 'Qwen/Qwen3-32B', 'A100', { maxModelLen: 32768 }, R(4000, 200), 500, 1837.08, 96.19, 'qwen3-32b/a100', BASELINE_32K],
  ['', 'vllm', 'Qwen/Qwen3-32B', 'A100', { maxModelLen: 32768 }, R(2000, 100), 500, 2521.38, 143.23, 'qwen3-32b/a100', BASELINE_32K],
  ['', 'vllm', 'Qwen/Qwen3-32B', 'A100', { maxModelLen: 32768 }, R(128, 4), 1000, 2656.71, 528.57, 'qwen3-32b/a100', BASELINE_32K],
  // Qwen3-32B on 1 x H100.
  ['qwen3-32b h100 sharegpt', 'vllm', 'Qwen/Qwen3-32B', 'H100', {}, SG, 1000, 2352.82, 88.09, 'qwen3-32b/h100', NOT_AS_PUBLISHED],
  ['qwen3-32b h100 sharegpt', 'sglang', 'Qwen/Qwen3-32B', 'H100', {}, SG, 1000, 1690.84, 57.86, 'qwen3-32b/h100'],
  ['qwen3-32b h100 sharegpt', 'trtllm', 'Qwen/Qwen3-32B', 'H100', {}, SG, 1000, 2659.5, 61.9, 'qwen3-32b/h100'],
  ['', 'sglang', 'Qwen/Qwen3-32B-FP8', 'H100', {}, SG, 1000, 4005.32, 205.13, 'qwen3-32b/h100', STAGE2_ENGINE],
  ['', 'vllm', 'Qwen/Qwen3-32B', 'H100', {}, R(32000, 100), 100, 2771.81, 43.42, 'qwen3-32b/h100', NOT_AS_PUBLISHED],
  ['', 'vllm', 'Qwen/Qwen3-32B', 'H100', {}, R(4000, 200), 500, 2148.69, 66.61, 'qwen3-32b/h100', NOT_AS_PUBLISHED],
  ['', 'vllm', 'Qwen/Qwen3-32B', 'H100', {}, R(2000, 100), 500, 3195.3, 86.62, 'qwen3-32b/h100', NOT_AS_PUBLISHED],
  ['', 'vllm', 'Qwen/Qwen3-32B', 'H100', {}, R(128, 4), 1000, 4005.62, 1169.72, 'qwen3-32b/h100', NOT_AS_PUBLISHED],
  // Qwen3-14B on 1 x H100: the study's GPU and model, but the random workloads (the fit used ShareGPT only).
  ['', 'vllm', 'Qwen/Qwen3-14B', 'H100', {}, R(32000, 100), 100, 8298.56, 277.44, 'qwen3-14b/h100'],
  ['', 'vllm', 'Qwen/Qwen3-14B', 'H100', {}, R(4000, 200), 500, 9218.03, 132.45, 'qwen3-14b/h100'],
  ['', 'vllm', 'Qwen/Qwen3-14B', 'H100', {}, R(2000, 100), 500, 10597.19, 206.51, 'qwen3-14b/h100'],
  ['', 'vllm', 'Qwen/Qwen3-14B', 'H100', {}, R(128, 4), 1000, 5796.73, 525.31, 'qwen3-14b/h100'],
  ['', 'sglang', 'Qwen/Qwen3-14B-FP8', 'H100', {}, R(32000, 100), 100, 10014.29, 215.93, 'qwen3-14b/h100'],
  ['', 'sglang', 'Qwen/Qwen3-14B-FP8', 'H100', {}, R(4000, 200), 500, 12257.62, 84.93, 'qwen3-14b/h100'],
  ['', 'sglang', 'Qwen/Qwen3-14B-FP8', 'H100', {}, R(2000, 100), 500, 14764.26, 143.22, 'qwen3-14b/h100'],
  ['', 'sglang', 'Qwen/Qwen3-14B-FP8', 'H100', {}, R(128, 4), 1000, 16884.75, 927.88, 'qwen3-14b/h100'],
  // Qwen3-32B on 1 x A100, the page's optimized configuration: `trtllm-serve Qwen/Qwen3-32B
  // --max_seq_len=40960 --enable_chunked_prefill` ("Optimized benchmark results"; its ShareGPT
  // figure repeats stage 1's, so only the random rows are new).
  ['', 'trtllm', 'Qwen/Qwen3-32B', 'A100', { maxModelLen: 40960 }, R(32000, 100), 100, 1580.36, 47.37, 'qwen3-32b/a100', CHUNKED],
  ['', 'trtllm', 'Qwen/Qwen3-32B', 'A100', { maxModelLen: 40960 }, R(4000, 200), 500, 2037.67, 100.09, 'qwen3-32b/a100', CHUNKED],
  ['', 'trtllm', 'Qwen/Qwen3-32B', 'A100', { maxModelLen: 40960 }, R(2000, 100), 500, 2715.9, 145.49, 'qwen3-32b/a100', CHUNKED],
  ['', 'trtllm', 'Qwen/Qwen3-32B', 'A100', { maxModelLen: 40960 }, R(128, 4), 1000, 3535.54, 1885.18, 'qwen3-32b/a100', CHUNKED],
  // Qwen3-32B on 1 x H100, the page's optimized configuration: `trtllm-serve Qwen/Qwen3-32B-FP8
  // --max_seq_len=40960 --enable_chunked_prefill` (stage 3 and "Optimized benchmark results").
  ['', 'trtllm', 'Qwen/Qwen3-32B-FP8', 'H100', { maxModelLen: 40960 }, SG, 1000, 4284.68, 158.64, 'qwen3-32b/h100', CHUNKED],
  ['', 'trtllm', 'Qwen/Qwen3-32B-FP8', 'H100', { maxModelLen: 40960 }, R(32000, 100), 100, 4068.16, 286.97, 'qwen3-32b/h100', CHUNKED],
  ['', 'trtllm', 'Qwen/Qwen3-32B-FP8', 'H100', { maxModelLen: 40960 }, R(4000, 200), 500, 4929.16, 138.75, 'qwen3-32b/h100', CHUNKED],
  ['', 'trtllm', 'Qwen/Qwen3-32B-FP8', 'H100', { maxModelLen: 40960 }, R(2000, 100), 500, 5901.95, 223.4, 'qwen3-32b/h100', CHUNKED],
  ['', 'trtllm', 'Qwen/Qwen3-32B-FP8', 'H100', { maxModelLen: 40960 }, R(128, 4), 1000, 6826.33, 890.11, 'qwen3-32b/h100', CHUNKED],
];

/** Published pages whose rows are training data; declared here once, before any fit (model-lab/training.ts). */
export const TRAINING_PAGES: readonly string[] = ['qwen3-14b/a100', 'qwen3-14b/h100'];

const BASE: PublishedResult[] = ROWS.map(
  ([group, engine, model, gpu, knobs, workload, numPrompts, totalTokPerS, meanTpotMs, page, caveat]) => ({
    group,
    engine,
    engineVersion: V[engine],
    model,
    gpu,
    gpus: 1,
    knobs,
    workload,
    numPrompts,
    totalTokPerS,
    meanTpotMs,
    source: SRC(page),
    ...(caveat ? { caveat } : {}),
    split: TRAINING_PAGES.includes(page) ? ('train' as const) : ('held-out' as const),
  }),
);

export const PUBLISHED: PublishedResult[] = [...BASE, ...WIDER_HELD_OUT];

export const HELD_OUT = PUBLISHED.filter((r) => r.split === 'held-out');
