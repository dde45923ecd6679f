// Scheduler limits the engines pick from the GPU when the user leaves them unset: one copy of the
// rule for the performance model (src/model/efficiency.ts) and the same-server check
// (src/engines/data/engine-defaults.ts, which also says when a host is too close to a threshold to tell).

/**
 * vLLM 0.11.0's `vllm serve` defaults (v0.11.0 tag, b8b302cde, vllm/engine/arg_utils.py
 * _set_default_args, UsageContext.OPENAI_API_SERVER): `if device_memory >= 70 * GiB_bytes and
 * "a100" not in device_name:` max_num_batched_tokens 8192 and max_num_seqs 1024, else 2048 and
 * 256; then `self.max_num_seqs = min(default_max_num_seqs[usage_context], self.max_num_batched_tokens
 * or sys.maxsize)` (the caller applies that cap to its own max_num_batched_tokens). Rule from
 * vllm#16158, #17073, #17885. The same rule and figures hold in the 2026-05 arg_utils.py
 * (docs.vllm.ai/en/latest/api/vllm/, get_batch_defaults), where `--performance-mode throughput`
 * then doubles whichever of the two was left unset (src/model/estimate.ts).
 */
export function vllmServeDefaults(gpuName: string, memMiB: number): { maxBatchedTokens: number; maxNumSeqs: number; bigNonA100: boolean } {
  const bigNonA100 = memMiB >= 70 * 1024 && !gpuName.toLowerCase().includes('a100');
  return { maxBatchedTokens: bigNonA100 ? 8192 : 2048, maxNumSeqs: bigNonA100 ? 1024 : 256, bigNonA100 };
}

/**
 * SGLang 0.5.5's chunked_prefill_size from nvidia-smi's memory.total in MiB (server_args.py
 * _handle_gpu_memory_settings at 0c006b8809cd, the 0.5.5 version bump): 2048 under 35 * 1024,
 * 4096 under 60 * 1024, 8192 under 160 * 1024 ("H100, A100", "H20, H200"), else 16384.
 */
export function sglangChunkedPrefillSize(memMiB: number): number {
  return memMiB < 35 * 1024 ? 2048 : memMiB < 60 * 1024 ? 4096 : memMiB < 160 * 1024 ? 8192 : 16384;
}
