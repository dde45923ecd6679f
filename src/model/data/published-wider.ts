// More HELD-OUT published results: other models, GPUs, GPU counts and TensorRT-LLM's own
// tables, all outside the three studies and never fitted on (model-lab/fit.ts reads split 'train' only).
// Every row names its page (at the commit read) and quotes its figure; nothing here is recalled.
//
// 1. GPUStack performance lab, Qwen3-235B-A22B-Instruct-2507 on 8 x A100 80GB and 8 x H100: the
//    same protocol as published.ts (`vllm bench serve`, 1000 ShareGPT prompts or random IN/OUT,
//    all at once; Total Token throughput and Mean TPOT copied from each result block). Engines:
//    vLLM v0.11.0, SGLang v0.5.5.post1 (the pages' "Engine Version"). Multi-GPU: gpus = the GPUs
//    one server uses (the pages' "x2" rows run two TP4 servers on 8 GPUs; the row is one server).
//    Also GLM-4.6 on 8 x H200 and 8 x H100 (same lab and protocol; SGLang v0.5.3 there).
// 2. TensorRT-LLM's performance overview (docs/source/developer-guide/perf-overview.md), measured
//    with `trtllm-bench throughput`: offline, in-process (no HTTP server), every request queued at
//    once, synthetic prompts of exactly ISL tokens and OSL output tokens. Published unit: OUTPUT
//    tokens per second PER GPU. Converted here to the total token throughput the model predicts:
//    perGpu x GPUs x (ISL + OSL) / OSL (exact when every request produces OSL tokens, as the
//    dataset's output-length stdev 0 asks, and trtllm-bench runs with EOS off: --eos_id -1).
//    Checked against tensorrt_llm/bench/dataclasses/reporting.py@02499765: "output_throughput_per_gpu_tok_s"
//    = output_throughput_tok_s / world_size (tp x pp; DEP8 = 8), where output throughput is "total
//    output (OSL) tokens / end-to-end latency" counting the first token; total token throughput is
//    (ISL + OSL) tokens over the same latency. Request counts: the page's "Number of Requests" table.
//    Batch limits: the page passes neither --max_batch_size nor --max_num_tokens, so trtllm-bench
//    picked them from ISL/OSL and GPU memory; each row carries that choice (trtllm-bench-settings.ts).
// 3. The earlier revision of the same page (docs/source/performance/perf-overview.md, TensorRT-LLM
//    1.0 era): "Total Output Throughput (tokens/sec)", Llama-3.1-8B FP8 at TP1.
//
// Left out (the model cannot represent them): every FP4/NVFP4 row (B200, GB200, RTX 6000: no FP4
// weight type in models.ts), GPT-OSS (MXFP4 weights, no config here), Llama 4 (no config here),
// the RTX 6000 Pro tables (no such GPU in gpus.ts), and the perf-overview's ISL/OSL 1000/1000 rows
// where the page's request table has no 1000/1000 entry and a 1024/1024 row exists.
// Left out for simulation cost only (the virtual clock takes one step per decode step: 4-21 s per
// row on a 2-core host, and test/unit/model/validation.test.ts runs every held-out row): the long-output
// shapes, as published (output tok/s per GPU, or total output tok/s at TP1):
//   DeepSeek-R1-0528 H200 DEP8: 1024/8192 1,218; 1024/32768 438. Llama-3.3-70B H200 TP2: 1024/8192
//   2,009. Qwen3-235B-A22B H200 DEP4: 1024/8192 1,417; H100 DEP8: 1024/8192 873. Llama-3.1-8B TP1
//   (1.0-era page): 128/2048 26,221 (H200), 22,714 (H100).
import type { EngineName, GpuEngineName, Knobs } from '../../core/variant.js';
import type { PublishedResult } from './published-result.js';
import { findGpu } from '../gpus.js';
import { trtllmBenchSettings } from './trtllm-bench-settings.js';
import { SAMPLER_DEPENDENT_235B } from './not-as-published.js';
import { FP8_CHECKPOINTS } from '../model-configs.js';

type Workload = PublishedResult['workload'];
const SG = { kind: 'sharegpt' } as const;
const R = (input: number, output: number): Workload => ({ kind: 'random', input, output });

// --- 1. GPUStack Qwen3-235B-A22B pages -------------------------------------------------------

const GS_V = { vllm: '0.11.0', sglang: '0.5.5.post1', trtllm: '' } as const;
const gs = (page: string, commit: string) => `https://github.com/gpustack/gpustack/blob/${commit}/docs/performance-lab/${page}.md`;
const Q235_A100 = gs('qwen3-235b-a22b/a100', '9babbd2674ad9b74c2ea48d804c79d845b6c329b');
const Q235_H100 = gs('qwen3-235b-a22b/h100', '10e9444a07c73556f2ef0d10d2b2766bbf54c9c0');
const Q235 = 'Qwen/Qwen3-235B-A22B-Instruct-2507';
const Q235_FP8 = 'Qwen/Qwen3-235B-A22B-Instruct-2507-FP8';

/** Runs that stopped early on EOS (no --ignore-eos; flagged when over 5% short): the model generates every output token. */
const EARLY_EOS = (generated: number, asked: number) =>
  `generated ${generated} of ${asked} output tokens (no --ignore-eos); the model generates all of them`;
const A100_FP8 = 'FP8 checkpoint on A100 runs weight-only (W8A16, Marlin), as the page says';
const H100_984 = '984 of the 1000 requests succeeded; the figure covers those 984';

type GsRow = [
  group: string,
  engine: GpuEngineName,
  model: string,
  gpus: number,
  knobs: Knobs,
  workload: Workload,
  prompts: number,
  tput: number,
  tpot: number,
  where: string,
  caveat?: string,
];

const GS_A100: GsRow[] = [
  // Stage 1, engine choice (`-tp 8` / `--tp-size 8`, BF16).
  ['qwen3-235b a100 sharegpt', 'vllm', Q235, 8, { tp: 8 }, SG, 1000, 3792.5, 123.36, '1. Choosing the Inference Engine, vLLM'],
  ['qwen3-235b a100 sharegpt', 'sglang', Q235, 8, { tp: 8 }, SG, 1000, 4635.31, 235.1, '1. Choosing the Inference Engine, SGLang'],
  // Stages 2-4 (vLLM FP8).
  [
    '',
    'vllm',
    Q235_FP8,
    8,
    { tp: 8, ep: 8 },
    SG,
    1000,
    3740.89,
    115.74,
    '2. Quantization in vLLM (-tp 8 --enable-expert-parallel)',
    A100_FP8,
  ],
  ['', 'vllm', Q235_FP8, 4, { tp: 4 }, SG, 1000, 3019.19, 150.72, '3. Parallelism in vLLM, TP4', A100_FP8],
  ['', 'vllm', Q235_FP8, 4, { tp: 4, ep: 4 }, SG, 1000, 2814.47, 161.49, '3. Parallelism in vLLM, TP4 EP4', A100_FP8],
  ['', 'vllm', Q235_FP8, 4, { tp: 4, maxBatchedTokens: 4096 }, SG, 1000, 3025.05, 155.37, '4. Max Batched Token Numbers, 4096', A100_FP8],
  ['', 'vllm', Q235_FP8, 4, { tp: 4, maxBatchedTokens: 8192 }, SG, 1000, 3003.01, 157.1, '4. Max Batched Token Numbers, 8192', A100_FP8],
  // "Other Benchmark Cases": baseline `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8`.
  [
    '',
    'vllm',
    Q235,
    8,
    { tp: 8 },
    R(32000, 100),
    100,
    6657.49,
    298.86,
    'Baseline benchmark results, random 32K input',
    EARLY_EOS(8191, 10000),
  ],
  [
    '',
    'vllm',
    Q235,
    8,
    { tp: 8 },
    R(4000, 200),
    500,
    8170.72,
    205.64,
    'Baseline benchmark results, random 4K input',
    EARLY_EOS(91352, 100000),
  ],
  ['', 'vllm', Q235, 8, { tp: 8 }, R(2000, 100), 500, 9342.67, 190.79, 'Baseline benchmark results, random 2K input'],
  ['', 'vllm', Q235, 8, { tp: 8 }, R(128, 4), 1000, 7449.43, 155.16, 'Baseline benchmark results, random 128 input'],
  // Optimized: `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4` (one of the page's two servers).
  [
    '',
    'vllm',
    Q235_FP8,
    4,
    { tp: 4 },
    R(32000, 100),
    100,
    4132.51,
    481.71,
    'Optimized benchmark results, random 32K input',
    `${A100_FP8}; ${EARLY_EOS(8300, 10000)}`,
  ],
  [
    '',
    'vllm',
    Q235_FP8,
    4,
    { tp: 4 },
    R(4000, 200),
    500,
    4633.41,
    347.13,
    'Optimized benchmark results, random 4K input',
    `${A100_FP8}; ${EARLY_EOS(90389, 100000)}`,
  ],
  ['', 'vllm', Q235_FP8, 4, { tp: 4 }, R(2000, 100), 500, 5333.91, 342.39, 'Optimized benchmark results, random 2K input', A100_FP8],
  ['', 'vllm', Q235_FP8, 4, { tp: 4 }, R(128, 4), 1000, 4961.66, 265.87, 'Optimized benchmark results, random 128 input', A100_FP8],
];

const GS_H100: GsRow[] = [
  [
    'qwen3-235b h100 sharegpt',
    'vllm',
    Q235,
    8,
    { tp: 8 },
    SG,
    984,
    8424.86,
    147.56,
    '1. Choosing the Inference Engine, vLLM',
    `${SAMPLER_DEPENDENT_235B}; ${H100_984}`,
  ],
  [
    'qwen3-235b h100 sharegpt',
    'sglang',
    Q235,
    8,
    { tp: 8 },
    SG,
    984,
    7671.31,
    178.35,
    '1. Choosing the Inference Engine, SGLang',
    H100_984,
  ],
  [
    '',
    'vllm',
    Q235_FP8,
    8,
    { tp: 8, ep: 8 },
    SG,
    984,
    8102.36,
    169.52,
    '2. Quantization in vLLM (-tp 8 --enable-expert-parallel)',
    H100_984,
  ],
  ['', 'vllm', Q235_FP8, 4, { tp: 4 }, SG, 984, 7527.8, 169.2, '3. Parallelism in vLLM, TP4', `${SAMPLER_DEPENDENT_235B}; ${H100_984}`],
  [
    '',
    'vllm',
    Q235_FP8,
    4,
    { tp: 4, ep: 4 },
    SG,
    984,
    7131.69,
    190.24,
    '3. Parallelism in vLLM, TP4+EP',
    `${SAMPLER_DEPENDENT_235B}; ${H100_984}`,
  ],
  [
    '',
    'vllm',
    Q235_FP8,
    4,
    { tp: 4, maxBatchedTokens: 16384 },
    SG,
    984,
    7787.17,
    186.26,
    '5. Max Number of Batched Tokens, 16384',
    `${SAMPLER_DEPENDENT_235B}; ${H100_984}`,
  ],
  [
    '',
    'vllm',
    Q235,
    8,
    { tp: 8 },
    R(32000, 100),
    100,
    22657.51,
    132.1,
    'Baseline benchmark results, random 32K input',
    `${SAMPLER_DEPENDENT_235B}; ${EARLY_EOS(8191, 10000)}`,
  ],
  [
    '',
    'vllm',
    Q235,
    8,
    { tp: 8 },
    R(4000, 200),
    500,
    21113.53,
    68.94,
    'Baseline benchmark results, random 4K input',
    `${SAMPLER_DEPENDENT_235B}; ${EARLY_EOS(92185, 100000)}`,
  ],
  [
    '',
    'vllm',
    Q235,
    8,
    { tp: 8 },
    R(2000, 100),
    500,
    23858.69,
    101.08,
    'Baseline benchmark results, random 2K input',
    SAMPLER_DEPENDENT_235B,
  ],
  [
    '',
    'vllm',
    Q235,
    8,
    { tp: 8 },
    R(128, 4),
    984,
    14668.27,
    212.98,
    'Baseline benchmark results, random 128 input',
    `${SAMPLER_DEPENDENT_235B}; ${H100_984}`,
  ],
  [
    '',
    'vllm',
    Q235_FP8,
    4,
    { tp: 4, maxBatchedTokens: 16384 },
    R(32000, 100),
    100,
    15366.32,
    194.6,
    'Optimized benchmark results, random 32K input',
    `${SAMPLER_DEPENDENT_235B}; ${EARLY_EOS(8281, 10000)}`,
  ],
  [
    '',
    'vllm',
    Q235_FP8,
    4,
    { tp: 4, maxBatchedTokens: 16384 },
    R(4000, 200),
    500,
    16478.79,
    89.52,
    'Optimized benchmark results, random 4K input',
    `${SAMPLER_DEPENDENT_235B}; ${EARLY_EOS(90966, 100000)}`,
  ],
  [
    '',
    'vllm',
    Q235_FP8,
    4,
    { tp: 4, maxBatchedTokens: 16384 },
    R(2000, 100),
    500,
    18950.04,
    125.93,
    'Optimized benchmark results, random 2K input',
    SAMPLER_DEPENDENT_235B,
  ],
  [
    '',
    'vllm',
    Q235_FP8,
    4,
    { tp: 4, maxBatchedTokens: 16384 },
    R(128, 4),
    984,
    21211.83,
    125.18,
    'Optimized benchmark results, random 128 input',
    `${SAMPLER_DEPENDENT_235B}; ${H100_984}`,
  ],
];

// GLM-4.6 on 8 x H200 and 8 x H100 (the study's model; its GPU, 8 x A100, is a training page and
// these are not). Engines on these pages: vLLM v0.11.0, SGLang v0.5.3 (older than the SGLang 0.5.5
// the model targets; no version override applies), TensorRT-LLM v1.0.0 ("Not supported": no row).
const GLM_H200 = gs('glm-4.6/h200', '72aee9dd195ff5c9bf3a4886add80038ce79aef8');
const GLM_H100 = gs('glm-4.6/h100', 'a5c9fafc3022e81779c2c5ade32c5b703ce2248c');
const GLM_V = { vllm: '0.11.0', sglang: '0.5.3', trtllm: '' } as const;
const GLM = 'zai-org/GLM-4.6';
const GLM_FP8 = 'zai-org/GLM-4.6-FP8';

const GLM_H200_ROWS: GsRow[] = [
  ['glm-4.6 h200 sharegpt', 'vllm', GLM, 8, { tp: 8 }, SG, 1000, 6030.9, 197.85, '1. Choosing the Inference Engine, vLLM'],
  ['glm-4.6 h200 sharegpt', 'sglang', GLM, 8, { tp: 8 }, SG, 1000, 6979.05, 282.87, '1. Choosing the Inference Engine, SGLang'],
  ['', 'sglang', GLM_FP8, 8, { tp: 8 }, SG, 1000, 7859.29, 271.63, '2. Quantization in SGLang, FP8 (--tp-size 8)'],
  ['', 'sglang', GLM_FP8, 4, { tp: 4 }, SG, 1000, 7081.34, 256.43, '3. Parallelism in SGLang, TP4'],
  ['', 'sglang', GLM_FP8, 4, { tp: 4, ep: 4 }, SG, 1000, 6676.84, 284.2, '3. Parallelism in SGLang, TP4+EP4'],
  // Conclusion table: baseline `vllm serve zai-org/GLM-4.6 -tp 8` and optimized
  // `sglang.launch_server --model zai-org/GLM-4.6-FP8 --tp 4` (one of two servers on 8 GPUs).
  [
    '',
    'vllm',
    GLM,
    8,
    { tp: 8 },
    R(32000, 100),
    100,
    15066.09,
    479.17,
    'Conclusion table, baseline, Very Long Prompt',
    EARLY_EOS(9406, 10000),
  ],
  ['', 'vllm', GLM, 8, { tp: 8 }, R(4000, 200), 500, 16714.91, 205.69, 'Conclusion table, baseline, Long Prompt'],
  ['', 'vllm', GLM, 8, { tp: 8 }, R(2000, 100), 500, 17214.85, 269.75, 'Conclusion table, baseline, Medium Prompt'],
  ['', 'vllm', GLM, 8, { tp: 8 }, R(128, 4), 1000, 9497.19, 351.26, 'Conclusion table, baseline, Short Prompt'],
  ['', 'sglang', GLM_FP8, 4, { tp: 4 }, R(32000, 100), 100, 12223.53, 191.61, 'Conclusion table, optimized, Very Long Prompt'],
  ['', 'sglang', GLM_FP8, 4, { tp: 4 }, R(4000, 200), 500, 14979.9, 97.74, 'Conclusion table, optimized, Long Prompt'],
  ['', 'sglang', GLM_FP8, 4, { tp: 4 }, R(2000, 100), 500, 17363.22, 144.82, 'Conclusion table, optimized, Medium Prompt'],
  ['', 'sglang', GLM_FP8, 4, { tp: 4 }, R(128, 4), 1000, 21234.81, 800.25, 'Conclusion table, optimized, Short Prompt'],
];

/**
 * Not reproducible on the hardware the page states (model-lab/DIAGNOSIS.md section 9). The same
 * engines and releases (vLLM 0.11.0, SGLang 0.5.3) run this checkpoint at about twice the speed on
 * the same lab's 8 x H200 page, and the lab's own 8 x H100 Qwen3-235B page (a similar MoE at TP8)
 * decodes at median ITL 44-61 ms where these runs print 124-150 ms. Mean TTFT 17.6 / 19.0 s
 * (SGLang TP8 / TP8EP8) and 26.8 s (vLLM) against 5.1 s for the same SGLang command on H200.
 * No engine mechanism separates the two GPUs here: SGLang 0.5.3 gives H100 and H200 the same
 * chunked_prefill_size (8192) and cuda_graph_max_bs (512 at TP >= 4) (server_args.py at commit
 * a4a3d8239, the 0.5.3 version bump), its KV pool holds the whole burst on an 80 GB H100 (~547k
 * tokens by the model's accounting; the burst needs ~414k), and vLLM 0.11.0 runs a per-channel FP8
 * MoE (this checkpoint, as inferred from its tuned-file names) through CUTLASS on sm90, with no
 * per-GPU tuned file (compressed_tensors_moe.py at b8b302cde). What reproduces throughput AND
 * latencies is a TP link of PCIe class (`npx tsx model-lab/lab-links.ts`: 40-48 GB/s gives +0.7% /
 * -3.2% / +4.1% with mean TTFT 18.5 / 16.4 / 29.1 s), which contradicts the lab's "8 × NVIDIA H100 SXM GPUs on a single node"
 * (gpustack commit 1f37f1b8): the rows stay on the SXM part and count; the model is not bent.
 */
const GLM_H100_LINKS =
  "the page's own latencies (SGLang median ITL 130 ms, mean TTFT 17.6 s; 53 ms and 5.1 s on 8 x H200; 44 ms on the lab's 8 x H100 Qwen3-235B page) match a PCIe-class TP link, not the NVLink of the stated H100 SXM node (see GLM_H100_LINKS)";

// BF16 does not fit one 8 x H100 server (the page): FP8 only.
const GLM_H100_ROWS: GsRow[] = [
  [
    'glm-4.6 h100 sharegpt',
    'vllm',
    GLM_FP8,
    8,
    { tp: 8, memFraction: 0.85 },
    SG,
    1000,
    3167.63,
    508.88,
    '1. Choosing the Inference Engine, vLLM (--gpu-memory-utilization 0.85)',
    GLM_H100_LINKS,
  ],
  [
    'glm-4.6 h100 sharegpt',
    'sglang',
    GLM_FP8,
    8,
    { tp: 8 },
    SG,
    1000,
    3796.0,
    684.1,
    '1. Choosing the Inference Engine, SGLang',
    GLM_H100_LINKS,
  ],
  ['', 'sglang', GLM_FP8, 8, { tp: 8, ep: 8 }, SG, 1000, 3856.69, 677.3, '2. Parallelism in SGLang, TP8EP8', GLM_H100_LINKS],
];

function gsRows(rows: GsRow[], gpu: string, source: string, versions: Record<GpuEngineName, string> = GS_V): PublishedResult[] {
  return rows.map(([group, engine, model, gpus, knobs, workload, numPrompts, totalTokPerS, meanTpotMs, where, caveat]) => ({
    group,
    engine,
    engineVersion: versions[engine],
    model,
    gpu,
    gpus,
    knobs,
    workload,
    numPrompts,
    totalTokPerS,
    meanTpotMs,
    source,
    quote: `${where}: Total Token throughput (tok/s) ${totalTokPerS}, Mean TPOT (ms) ${meanTpotMs}`,
    ...(caveat ? { caveat } : {}),
    split: 'held-out' as const,
  }));
}

// --- 2 and 3. TensorRT-LLM perf-overview tables ------------------------------------------------

const TRT_CURRENT =
  'https://github.com/NVIDIA/TensorRT-LLM/blob/03e27c7d5ff0c6e89f8328838c0a8e64f1b34f9d/docs/source/developer-guide/perf-overview.md';
const TRT_V10 =
  'https://github.com/NVIDIA/TensorRT-LLM/blob/00f37686aa854010d68bcbd0f4ab000221541ca6/docs/source/performance/perf-overview.md';
/** The page names no release for its tables; this revision is the one rendered for 1.2.0 (nvidia.github.io/TensorRT-LLM/1.2.0/developer-guide/perf-overview.html). */
const TRT_CURRENT_VERSION = '1.2.0';
/** This revision names no release either; it announces its RTX 6000 data as "(NEW for v1.0)". */
const TRT_V10_VERSION = '1.0.0';
const OFFLINE =
  'trtllm-bench throughput: offline, in-process (no HTTP), all requests queued at once, EOS off (--eos_id -1); CUDA graphs padded up to batch 8192; "in many cases" --kv_cache_free_gpu_mem_fraction 0.95 (the page does not say which rows; the CLI default 0.90 is assumed, for the heuristic and the KV pool)';
/**
 * The ModelOpt checkpoints' KV dtype (the YAMLs set none). The rule is settled, the input is not.
 * Rule: trtllm-bench passes the checkpoint's KV quantization through. get_settings
 * (tensorrt_llm/bench/benchmark/utils/general.py, both stored revisions: @0171265e and the later
 * @c0b2ee6e that imports from _torch/pyexecutor/model_loader) starts from `kv_cache_dtype = "auto"`,
 * reads `kv_cache_config.get("dtype", "auto")` from the YAML, and maps FP8 weights to FP8 KV only
 * `if (kv_cache_dtype is None and ...kv_cache_quant_algo is None)`, which "auto" never is;
 * validate_and_set_kv_cache_quant then returns at `if pyt_kv_cache_dtype == "auto"` with the log
 * line "Using checkpoint KV quantization.". (perf-benchmarking.md@ac643b66 says the opposite for a
 * null kv_cache_quant_algo; no stored revision of the code does that.) Input: each checkpoint's
 * kv_cache_quant_algo.
 * nvidia/Llama-3.1-8B-Instruct-FP8: null in the only quote (perf-benchmarking.md@ac643b66, ModelOpt
 * 0.23.0rc1), though sgl-project/sglang PR #3223 (2025-01-30) says it "will be updated with FP8 kv
 * cache enabled". nvidia/Llama-3.3-70B-Instruct-FP8: TensorRT-LLM's accuracy tests register its
 * FP8 copies both without KV quantization (references/mmlu.yaml@000a01de: only `quant_algo: FP8`)
 * and, later, also with `kv_cache_quant_algo: FP8` (mmlu.yaml@b35ac1b6), so the copies differ and
 * which one the 1.2.0 runs downloaded is not known. nvidia/Qwen3-235B-A22B-FP8: not read
 * (model-configs.ts FP8_CHECKPOINTS). BF16 is kept on all three until a file says otherwise.
 */
const CKPT_KV =
  'KV cache dtype: the checkpoint\'s kv_cache_quant_algo (the YAML sets none; trtllm-bench general.py keeps "auto" = "Using checkpoint KV quantization."); that field of this checkpoint is not settled (model-configs.ts, published-wider.ts CKPT_KV): BF16 assumed (FP8 would about double the heuristic\'s max_batch_size and the KV pool)';
const ADP = 'enable_attention_dp (DEP: attention data-parallel + expert-parallel)';

/** Requests per ISL/OSL: the page's "Number of Requests" table (current revision). */
const TRT_PAGE_REQUESTS: Record<string, number> = { '1024/1024': 3000, '8192/1024': 1500, '32768/1024': 1000 };
/** Plus 1000/1000 (one H100 row), which this revision's table omits: the earlier revision's count (REQ_1000). */
const TRT_REQUESTS: Record<string, number> = { ...TRT_PAGE_REQUESTS, '1000/1000': 3000 };
/** The 1.0-era revision's "$num_requests" table. */
const TRT_V10_REQUESTS: Record<string, number> = { '1000/1000': 3000, '2048/128': 3000, '5000/500': 1500, '20000/2000': 1000 };

type TrtRow = [
  model: string,
  gpu: string,
  gpus: number,
  knobs: Knobs,
  isl: number,
  osl: number,
  perGpuOut: number,
  table: string,
  caveat?: string,
];

const DSR1 = 'deepseek-ai/DeepSeek-R1-0528';
// The served checkpoints, as the page's "FP8 Models" list names them (model-configs.ts FP8_CHECKPOINTS
// says which ones' weight scaling was read).
const L70 = 'nvidia/Llama-3.3-70B-Instruct-FP8';
const Q235_ORIG_FP8 = 'nvidia/Qwen3-235B-A22B-FP8';
/** What is known of a ModelOpt checkpoint's FP8 weights (model-configs.ts FP8_CHECKPOINTS says from which source). */
const MODELOPT = (ckpt: string) =>
  FP8_CHECKPOINTS[ckpt]?.scaling === 'tensor'
    ? `ModelOpt FP8 checkpoint ${ckpt}: per-tensor FP8 weights (${FP8_CHECKPOINTS[ckpt]!.source}), per-tensor GEMM rate`
    : `ModelOpt FP8 checkpoint ${ckpt}: its hf_quant_config.json was not read here, so the model keeps its block-scaled FP8 GEMM rate for it (model-configs.ts FP8_CHECKPOINTS)`;
/** 1000/1000 has no entry in this revision's request table: 3000 is the earlier revision's count for 1000/1000. */
const REQ_1000 = 'request count 3000 taken from the earlier revision of the page (this revision lists none for 1000/1000)';

const TRT_CURRENT_ROWS: TrtRow[] = [
  // "Deepseek R1 0528", column "H200 DEP8 (FP8)"; llm_options: attention DP (balanced), MoE backend CUTLASS, FP8 KV cache.
  [
    DSR1,
    'H200',
    8,
    { tp: 8, ep: 8, dpAttention: true, kvCacheDtype: 'fp8' },
    1024,
    1024,
    1620,
    'Deepseek R1 0528, H200 DEP8 (FP8)',
    `${ADP}, balanced; MoE backend CUTLASS`,
  ],
  // "LLaMA v3.3 70B", columns "H200 TP2 (FP8)" and "H100 TP2 (FP8)".
  [L70, 'H200', 2, { tp: 2 }, 1024, 1024, 2582, 'LLaMA v3.3 70B, H200 TP2 (FP8)', MODELOPT('nvidia/Llama-3.3-70B-Instruct-FP8')],
  [L70, 'H200', 2, { tp: 2 }, 8192, 1024, 537, 'LLaMA v3.3 70B, H200 TP2 (FP8)', MODELOPT('nvidia/Llama-3.3-70B-Instruct-FP8')],
  [L70, 'H200', 2, { tp: 2 }, 32768, 1024, 120, 'LLaMA v3.3 70B, H200 TP2 (FP8)', MODELOPT('nvidia/Llama-3.3-70B-Instruct-FP8')],
  [
    L70,
    'H100',
    2,
    { tp: 2 },
    1000,
    1000,
    2209,
    'LLaMA v3.3 70B, H100 TP2 (FP8)',
    `${MODELOPT('nvidia/Llama-3.3-70B-Instruct-FP8')}; ${REQ_1000}`,
  ],
  [L70, 'H100', 2, { tp: 2 }, 8192, 1024, 398, 'LLaMA v3.3 70B, H100 TP2 (FP8)', MODELOPT('nvidia/Llama-3.3-70B-Instruct-FP8')],
  // "Qwen3 235B A22B", columns "H200 DEP4 (FP8)" and "H100 DEP8 (FP8)"; llm_options: enable_attention_dp.
  [
    Q235_ORIG_FP8,
    'H200',
    4,
    { tp: 4, ep: 4, dpAttention: true },
    1024,
    1024,
    3268,
    'Qwen3 235B A22B, H200 DEP4 (FP8)',
    `${ADP}; ${MODELOPT('nvidia/Qwen3-235B-A22B-FP8')}`,
  ],
  [
    Q235_ORIG_FP8,
    'H200',
    4,
    { tp: 4, ep: 4, dpAttention: true },
    8192,
    1024,
    627,
    'Qwen3 235B A22B, H200 DEP4 (FP8)',
    `${ADP}; ${MODELOPT('nvidia/Qwen3-235B-A22B-FP8')}`,
  ],
  [
    Q235_ORIG_FP8,
    'H200',
    4,
    { tp: 4, ep: 4, dpAttention: true },
    32768,
    1024,
    134,
    'Qwen3 235B A22B, H200 DEP4 (FP8)',
    `${ADP}; ${MODELOPT('nvidia/Qwen3-235B-A22B-FP8')}`,
  ],
  [
    Q235_ORIG_FP8,
    'H100',
    8,
    { tp: 8, ep: 8, dpAttention: true },
    1024,
    1024,
    1935,
    'Qwen3 235B A22B, H100 DEP8 (FP8)',
    `${ADP}; ${MODELOPT('nvidia/Qwen3-235B-A22B-FP8')}`,
  ],
];

// The 1.0-era revision, "Llama 3.1 8B" table, columns "H200 TP1 (FP8)" and "H100 TP1 (FP8)"
// (checkpoint nvidia/Llama-3.1-8B-Instruct-FP8, per-tensor FP8: model-configs.ts FP8_CHECKPOINTS).
// Unit there: Total Output Throughput (TP1: = per GPU).
const L8 = 'nvidia/Llama-3.1-8B-Instruct-FP8';
const TRT_V10_ROWS: TrtRow[] = [
  [L8, 'H200', 1, {}, 1000, 1000, 17744, 'Llama 3.1 8B, H200 TP1 (FP8)'],
  [L8, 'H200', 1, {}, 2048, 128, 3538, 'Llama 3.1 8B, H200 TP1 (FP8)'],
  [L8, 'H200', 1, {}, 5000, 500, 3902, 'Llama 3.1 8B, H200 TP1 (FP8)'],
  [L8, 'H200', 1, {}, 20000, 2000, 1804, 'Llama 3.1 8B, H200 TP1 (FP8)'],
  [L8, 'H100', 1, {}, 1000, 1000, 15220, 'Llama 3.1 8B, H100 TP1 (FP8)'],
  [L8, 'H100', 1, {}, 2048, 128, 3450, 'Llama 3.1 8B, H100 TP1 (FP8)'],
  [L8, 'H100', 1, {}, 5000, 500, 3459, 'Llama 3.1 8B, H100 TP1 (FP8)'],
  [L8, 'H100', 1, {}, 20000, 2000, 1351, 'Llama 3.1 8B, H100 TP1 (FP8)'],
];

function trtRows(rows: TrtRow[], source: string, version: string, requests: Record<string, number>, unit: string): PublishedResult[] {
  return rows.map(([model, gpu, gpus, knobs, isl, osl, perGpuOut, table, caveat]) => {
    const numPrompts = requests[`${isl}/${osl}`];
    if (numPrompts === undefined) throw new Error(`published-wider: no request count for ${isl}/${osl}`);
    const total = (perGpuOut * gpus * (isl + osl)) / osl;
    const bench = benchKnobs(model, gpu, knobs, isl, osl);
    return {
      group: '',
      engine: 'trtllm' as const,
      engineVersion: version,
      model,
      gpu,
      gpus,
      knobs: bench.knobs,
      workload: R(isl, osl),
      numPrompts,
      totalTokPerS: Math.round(total * 100) / 100,
      source,
      quote: `${table}, ${isl}/${osl}: ${perGpuOut.toLocaleString('en-US')} ${unit}; total = ${perGpuOut} x ${gpus} GPU x (${isl} + ${osl}) / ${osl}`,
      caveat: [OFFLINE, bench.note, caveat].filter(Boolean).join('; '),
      split: 'held-out' as const,
    };
  });
}

/**
 * The batch limits trtllm-bench picked for the run (trtllm-bench-settings.ts; the page passes
 * neither --max_batch_size nor --max_num_tokens). Under enable_attention_dp they hold per rank,
 * and so do the simulator's for TRT-LLM with attention DP (src/sim/scheduler/rank-limits.ts): passed as is.
 */
function benchKnobs(model: string, gpu: string, knobs: Knobs, isl: number, osl: number): { knobs: Knobs; note: string } {
  const g = findGpu(gpu);
  if (!g) throw new Error(`published-wider: unknown GPU ${gpu}`);
  const tp = knobs.tp ?? 1;
  // Every checkpoint here is FP8 (BYTES_PER_ELEM 1); KV: FP8 only where the YAML says kv_cache_config.dtype fp8.
  const s = trtllmBenchSettings({
    model,
    gpu: g,
    tp,
    pp: knobs.pp ?? 1,
    isl,
    osl,
    weightBytesPerElem: 1,
    kvBytesPerElem: knobs.kvCacheDtype === 'fp8' ? 1 : 2,
  });
  const per = knobs.dpAttention ? ' per attention-DP rank' : '';
  const kv = knobs.kvCacheDtype === 'fp8' ? '' : `; ${CKPT_KV}`;
  return {
    knobs: { ...knobs, maxRunningSeqs: s.maxBatchSize, maxBatchedTokens: s.maxNumTokens },
    note: `trtllm-bench's own limits (trtllm-bench-settings.ts): max_batch_size ${s.maxBatchSize}, max_num_tokens ${s.maxNumTokens}${per}, chunked prefill off${kv}`,
  };
}

export const WIDER_HELD_OUT: PublishedResult[] = [
  ...gsRows(GS_A100, 'A100', Q235_A100),
  ...gsRows(GS_H100, 'H100', Q235_H100),
  ...gsRows(GLM_H200_ROWS, 'H200', GLM_H200, GLM_V),
  ...gsRows(GLM_H100_ROWS, 'H100', GLM_H100, GLM_V),
  ...trtRows(TRT_CURRENT_ROWS, TRT_CURRENT, TRT_CURRENT_VERSION, TRT_REQUESTS, 'output tok/s/GPU'),
  ...trtRows(TRT_V10_ROWS, TRT_V10, TRT_V10_VERSION, TRT_V10_REQUESTS, 'Total Output Throughput (tok/s)'),
];
