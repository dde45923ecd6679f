// Which scheduling limits the simulator's one server-wide scheduler enforces. The knobs
// maxRunningSeqs / maxBatchedTokens are the engine's own flags (src/engines/<engine>/knobs.ts); what
// they bound differs under attention data parallelism:
// - TensorRT-LLM (PyTorch backend, --max_batch_size / --max_num_tokens): every attention-DP rank
//   runs its own executor with its own limits; the request queue admits up to
//   `total_max_num_active_requests = self.dist.tp_size * self.max_num_active_requests` and
//   `_schedule_attention_dp_requests` places them "until the max_num_active_requests is reached"
//   on each rank (tensorrt_llm/_torch/pyexecutor/executor_request_queue.py, NVIDIA/TensorRT-LLM
//   @a98a9061, `_fetch_new_requests_attention_dp`; the 1.0-era py_executor.py `_fetch_new_requests`
//   has the same `tp_size * max_num_active_requests` line). So the server holds ranks x the flag.
// - SGLang keeps its flags server-wide and splits them over the DP ranks (server_args.py
//   _handle_data_parallelism: `self.chunked_prefill_size = self.chunked_prefill_size // self.dp_size`
//   "DP attention is enabled. The chunked prefill size is adjusted to ..."), so no scaling here.
// - vLLM has no attention DP in the model (estimate.ts resolveParallel turns it off).
// The scheduler stays one queue over one KV pool (balanced ranks); a request is not pinned to a rank.
import { ENGINE_BEHAVIOUR } from '../../model/engine-behaviour.js';
import type { ServerConfig } from '../../model/estimate.js';

export interface SchedulerLimits {
  /** Sequences running at once, server-wide. */
  maxRunningSeqs: number;
  /** Tokens scheduled per step, server-wide. */
  maxBatchedTokens: number;
  /** Attention-DP ranks the engine's flags hold for each (1 = the flags are server-wide). */
  ranksPerFlag: number;
}

export function schedulerLimits(cfg: Pick<ServerConfig, 'engine' | 'par' | 'maxRunningSeqs' | 'maxBatchedTokens'>): SchedulerLimits {
  const ranks = ENGINE_BEHAVIOUR[cfg.engine].limitsPerAttentionRank && cfg.par.dpAttention ? cfg.par.dp : 1;
  return { maxRunningSeqs: cfg.maxRunningSeqs * ranks, maxBatchedTokens: cfg.maxBatchedTokens * ranks, ranksPerFlag: ranks };
}
