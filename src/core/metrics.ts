// The metric shapes the event stream carries, keyed as `vllm bench serve` names them: the
// benchmark client (src/bench) fills them, the core's events, SLO rules and views read them.

/** Aggregate metrics, keyed exactly as `vllm bench serve --save-result` names them. */
export interface BenchMetrics {
  duration: number;
  completed: number;
  failed: number;
  total_input_tokens: number;
  total_output_tokens: number;
  request_throughput: number;
  request_goodput: number | null;
  output_throughput: number;
  total_token_throughput: number;
  max_output_tokens_per_s: number;
  max_concurrent_requests: number;
  /** mean_ttft_ms, median_ttft_ms, std_ttft_ms, p99_ttft_ms, ... for each selected metric. */
  [percentileKey: `${string}_${'ttft' | 'tpot' | 'itl' | 'e2el'}_ms`]: number;
}

/** Rolling view of a benchmark in flight, emitted about once a second. */
export interface LiveSnapshot {
  elapsedS: number;
  total: number;
  completed: number;
  failed: number;
  running: number;
  outputTokPerS: number;
  totalTokPerS: number;
  meanTtftMs: number;
  p99TtftMs: number;
  meanTpotMs: number;
  p99TpotMs: number;
  meanItlMs: number;
  p99ItlMs: number;
  /** True when the client itself is the bottleneck (event-loop lag or CPU over threshold). */
  clientBound: boolean;
  /** Prompt tokens the server served from its prefix cache over the finished requests' prompt tokens (0..1); absent until a response reports it. */
  cacheHitRate?: number;
}

/** The latency metrics vLLM can report percentiles for. */
export type LatencyMetric = 'ttft' | 'tpot' | 'itl' | 'e2el';

export interface GoodputSlo {
  ttft?: number;
  tpot?: number;
  e2el?: number;
}

export interface ServerMetricsSample {
  running: number;
  waiting: number;
  kvUsage?: number; // 0..1; absent when the engine exports no KV-cache gauge (llama.cpp 80fb11a has none)
  preemptions: number;
  /** The engine's own rate gauges (llama.cpp: tokens per decode-second of a slot, i.e. per sequence, since the last scrape; server-common.h n_per_second). */
  promptTokPerS?: number;
  genTokPerS?: number;
}

export interface GpuSample {
  index: number;
  name: string;
  utilPct: number;
  memUsedMiB: number;
  memTotalMiB: number;
  /** Board power, W, where the vendor's tool reports it (amd-smi, rocm-smi). */
  powerW?: number;
}
