// Held-out rows whose published command cannot start as stated, by the engine's own accounting:
// the model refuses them, and model-lab/validate.ts reports the median with and without them. A row's
// caveat starts with NOT_AS_PUBLISHED_PREFIX (it may go on with the row's other caveats).

export const NOT_AS_PUBLISHED_PREFIX = 'not reproducible as published';

/**
 * vLLM 0.11.0's own accounting cannot start `vllm serve Qwen/Qwen3-32B` on an 80 GB H100, whichever
 * sampler it uses (read at the v0.11.0 tag, commit b8b302cde; model-lab/DIAGNOSIS.md section 7):
 * requested = 0.9 x 79.18 GiB = 71.26 GiB (gpu_worker.py init_device), minus 61.03 GiB of weights
 * and 0.14 GiB non-torch leaves 10.09 GiB before the profile run's peak, and one 40,960-token
 * sequence needs 10.00 GiB (kv_cache_utils.py check_enough_kv_cache_memory: "To serve at least
 * one request with the models's max seq len (40960), (10.00 GiB KV cache is needed, ..."). The peak
 * is the sampler on 1,024 rows (arg_utils.py _set_default_args: max_num_seqs 1024 on >= 70 GiB
 * non-A100 GPUs): ~2.0 GiB with FlashInfer's sampler (the v0.11.0 image's default), ~5.6 GiB on
 * PyTorch's sort path, so 8.1 or 4.5 GiB is left. vLLM logs collected by llm-d
 * (config_explorer/empirical-vllm-memory-results.md, a later release on the sort path) show this
 * model on an H100 with 4.45 GiB left and failing at --max-model-len 32000. The run started, so
 * its GPU memory or flags differ from what the page says: not reproducible as published.
 *
 * Which H100 (model-lab/DIAGNOSIS.md section 7, model-lab/lab-gpu-hypotheses.ts): the pages as read say
 * "NVIDIA H100 GPUs"; the lab's later edit (gpustack/gpustack commit 1f37f1b8, 2026-01-06, "docs:
 * clarify GPU number in performance lab") makes them "A single NVIDIA H100 SXM GPU." (Qwen3-32B,
 * Qwen3-14B) and "8 × NVIDIA H100 SXM GPUs on a single node." (Qwen3-235B, GLM-4.x), and the lab's
 * 2026 H100 pages name "NVIDIA H100 80GB HBM3" (nvidia-smi's name for the 80 GB SXM part). No page
 * prints nvidia-smi or an engine's memory log. So the rows stay on the 80 GB SXM part: more
 * memory (an H100 NVL, 94 GB) would let them start, but contradicts the lab's statement and the
 * pages' own latencies (the 32K vLLM run decoded one request at a time: TPOT 43.4 ms, P99 44.3;
 * with 94 GB two such requests fit and the model puts its TPOT at 135 ms). The flags or memory
 * that let these runs start are not on the pages.
 */
export const NOT_AS_PUBLISHED = `${NOT_AS_PUBLISHED_PREFIX}: by vLLM 0.11 accounting this command cannot start on an 80 GB H100 (see NOT_AS_PUBLISHED)`;

/**
 * The same lab's `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8` (and the FP8 checkpoint at
 * TP4) on 8 x H100 start by vLLM 0.11.0's accounting only because its sampler is FlashInfer's: the
 * KV cache gets 0.9 x 79.18 GiB - weights (54.7 / 55.6 GiB per GPU) - the profile peak - 0.55 GiB
 * non-torch, and one 262,144-token sequence needs 11.75 GiB (one replicated KV head per rank:
 * get_num_kv_heads = max(1, 4 // tp)). Every TP rank samples the all-gathered logits
 * (Platform.use_all_gather under V1), so the sampler peak is not divided by TP. With FlashInfer's
 * sampler (1,024 rows x 151,936 x 14 B = 2.0 GiB; the default at v0.11.0 when FlashInfer is
 * installed, as in vLLM's image and GPUStack's v0.11.0 runner) 14.0 / 13.1 GiB is left and the
 * command starts; on PyTorch's sort path (a `pip install vllm==0.11.0` without FlashInfer, or any
 * release from 0.11.1, vllm#26859) the peak is 5.6 GiB, 10.4 / 9.6 GiB is left and it cannot.
 * The page does not say how vLLM was installed; the model takes the image's path (kv-budget.ts
 * vllmSamplerBytesPerLogit), so the rows run and count.
 */
export const SAMPLER_DEPENDENT_235B =
  "starts by vLLM 0.11.0 accounting only with FlashInfer's sampler (its image default); without FlashInfer a 262,144-token sequence does not fit 80 GB H100s (see SAMPLER_DEPENDENT_235B)";

export function isNotAsPublished(caveat: string | undefined): boolean {
  return !!caveat?.startsWith(NOT_AS_PUBLISHED_PREFIX);
}
