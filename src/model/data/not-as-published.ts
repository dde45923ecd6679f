// Held-out rows whose published command cannot start as stated, by the engine's own accounting:
// the model refuses them, and bench/validate.ts reports the median with and without them. A row's
// caveat starts with NOT_AS_PUBLISHED_PREFIX (it may go on with the row's other caveats).

export const NOT_AS_PUBLISHED_PREFIX = 'not reproducible as published';

/**
 * vLLM 0.11's own accounting cannot start `vllm serve Qwen/Qwen3-32B` on an 80 GB H100: 0.9 x 79.18
 * GiB minus 61.0 GiB of weights leaves 10.2 GiB before any activation, one 40,960-token sequence
 * needs 10.0 GiB, and the profile run's peak (sampler on 1,024 rows) is ~5.6 GiB; vLLM logs
 * collected by llm-d (config_explorer/empirical-vllm-memory-results.md) show exactly this model on
 * an H100 with 4.45 GiB left and failing even at --max-model-len 32000. The run started, so its GPU
 * memory or flags differ from what the page says: not reproducible as published.
 */
export const NOT_AS_PUBLISHED = `${NOT_AS_PUBLISHED_PREFIX}: by vLLM 0.11 accounting this command cannot start on an 80 GB H100 (see NOT_AS_PUBLISHED)`;

/**
 * The same lab's `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8` (and the FP8 checkpoint at
 * TP4) on 8 x H100: vLLM 0.11 gives the KV cache 0.9 x 79.18 GiB - weights (54.7 / 55.6 GiB per
 * GPU) - the profile peak (sampler: 1,024 rows x 151,936 x 38.5 B = 5.58 GiB, every TP rank
 * samples on all-gathered logits: Platform.use_all_gather is true under V1) - 0.55 GiB non-torch
 * = 10.4 / 9.6 GiB, while one 262,144-token sequence needs 11.75 GiB (one replicated KV head per
 * rank: get_num_kv_heads = max(1, 4 // tp)). llm-d's TP2 log (same source as above) shows the
 * sampler peak is not divided by TP.
 *
 * Which H100 (docs/model-diagnosis.md section 7, bench/lab-gpu-hypotheses.ts): the pages as read say
 * "NVIDIA H100 GPUs"; the lab's later edit (gpustack/gpustack commit 1f37f1b8, 2026-01-06, "docs:
 * clarify GPU number in performance lab") makes them "A single NVIDIA H100 SXM GPU." (Qwen3-32B,
 * Qwen3-14B) and "8 × NVIDIA H100 SXM GPUs on a single node." (Qwen3-235B, GLM-4.x), and the lab's
 * 2026 H100 pages name "NVIDIA H100 80GB HBM3" (nvidia-smi's name for the 80 GB SXM part). No page
 * prints nvidia-smi or an engine's memory log. So the rows stay on the 80 GB SXM part: more
 * memory (an H100 NVL, 94 GB) would let all 17 rows start, but contradicts the lab's statement and
 * the pages' own latencies (the 32K vLLM run decoded one request at a time: TPOT 43.4 ms, P99
 * 44.3; with 94 GB two such requests fit and the model puts its TPOT at 135 ms). The flags or
 * memory that let these runs start are not on the pages.
 */
export const NOT_AS_PUBLISHED_235B = `${NOT_AS_PUBLISHED_PREFIX}: by vLLM 0.11 accounting a 262,144-token Qwen3-235B sequence does not fit the KV cache on 80 GB H100s (see NOT_AS_PUBLISHED_235B)`;

export function isNotAsPublished(caveat: string | undefined): boolean {
  return !!caveat?.startsWith(NOT_AS_PUBLISHED_PREFIX);
}
