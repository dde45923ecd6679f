// Contract of the benchmark library (src/bench): requests, workloads, outputs and results. The
// metric shapes the event stream carries live in src/core/metrics.ts.
import type { BenchMetrics, GoodputSlo, LatencyMetric, LiveSnapshot } from '../core/metrics.js';

/** One sampled request of a workload. */
export interface SampledRequest {
  prompt: string;
  /** Prompt length in tokens (exact with a tokenizer; word count when approximate). */
  promptLen: number;
  /** Output tokens to ask for (max_completion_tokens / max_tokens). */
  expectedOutputLen: number;
  /** Leading prompt tokens that an earlier request of the workload already sent (the reuse a prefix cache could serve). */
  reusableLen?: number;
  /** Leading prompt tokens it shares with any other request of the workload, earlier or later (reuse.ts). */
  sharedLen?: number;
  /** Seconds after the run's start at which a trace sends this request (replaces the --request-rate schedule). */
  arrivalS?: number;
  /** Index of the earlier request of the same session that must finish before this one leaves (trace sessions). */
  after?: number;
  /** Seconds to wait after `after` finished (a trace's think time). */
  afterDelayS?: number;
}

/** How token counts were obtained: a real tokenizer, or the one-word-one-token approximation. */
export type TokenCountMode = 'exact' | 'approximate';

export interface Workload {
  requests: SampledRequest[];
  tokenCounts: TokenCountMode;
  /** What was loaded, for result files and logs (e.g. "sharegpt", "random"). */
  datasetName: string;
  /** Tokenizer file used, when exact. */
  tokenizerPath?: string;
}

/** What happened to one request (times in seconds, as vLLM stores them). */
export interface RequestOutput {
  success: boolean;
  /** Prompt tokens: the server's usage.prompt_tokens when reported, else the dataset count. */
  promptLen: number;
  /** Output tokens: usage.completion_tokens, else a client-side recount. 0 when failed. */
  outputLen: number;
  ttft: number;
  /** Gaps between successive choice events after the first. */
  itl: number[];
  /** Last choice event minus start. */
  latency: number;
  /** Start time relative to the benchmark start (after the concurrency slot was acquired). */
  startTime: number;
  /**
   * When the request's bytes were handed to the OS, relative to the benchmark start (a
   * diagnostic, not a vLLM field; not in the saved JSON): sentTime - startTime is the client's
   * own send delay, which TTFT includes.
   */
  sentTime?: number;
  generatedText: string;
  error: string;
  /** Both lengths are the server's own usage report (not in the saved JSON). */
  serverCounted?: boolean;
  /** Prompt tokens the server says it served from its prefix cache (engine adapters say where each engine reports it). */
  cachedTokens?: number;
  /** The request's SampledRequest.reusableLen in promptLen's count (scaled when the server counted), so hits sit beside the reuse that was possible. */
  reusableLen?: number;
  /**
   * The most leading tokens of this prompt the run's own requests could have left in a cache:
   * what any other request in flight shares with it, and in a conversation the reply this turn
   * carries (the server caches what it generated). reusableLen when unset; a hit beyond it was
   * cached before the run (bench/metrics/cache-warm.ts).
   */
  ownCacheLen?: number;
  /** Which conversation and turn of a multi-turn run this request was (multiturn/driver.ts). */
  turn?: TurnTag;
}

/** A multi-turn request's place: its conversation, its 1-based turn, and the conversation's turns. */
export interface TurnTag {
  conversation: number;
  index: number;
  of: number;
}

/** Client-side health while measuring: is the load generator itself the bottleneck? */
export interface ClientStats {
  /** Event-loop delay percentiles over the measurement window, ms. */
  eventLoopLagP99Ms: number;
  eventLoopLagMaxMs: number;
  eventLoopLagMeanMs: number;
  /** Process CPU over the window, % of one core (user + system). */
  cpuPct: number;
  /** Highest CPU over any ~1 s window, % of one core. */
  peakCpuPct: number;
  /** Why the result is client-bound, empty when it is not. */
  reasons: string[];
}

/** Live events for listeners (the TUI, progress bars). Times in seconds since benchmark start. */
export type BenchEvent =
  | { type: 'request-started'; index: number; t: number }
  | { type: 'first-token'; index: number; t: number; ttft: number }
  | { type: 'token'; index: number; t: number; gap: number }
  | { type: 'request-finished'; index: number; t: number; output: RequestOutput }
  | { type: 'request-failed'; index: number; t: number; error: string }
  | { type: 'snapshot'; snapshot: LiveSnapshot };

/** What was run, kept with the result so it can be saved the way vLLM saves it. */
export interface BenchConfig {
  backend: 'openai-chat' | 'openai';
  endpointType: string;
  label?: string;
  modelId: string;
  tokenizerId?: string;
  numPrompts: number;
  requestRate: number;
  burstiness: number;
  maxConcurrency: number | null;
  percentileMetrics: LatencyMetric[];
  metricPercentiles: number[];
  goodput?: GoodputSlo;
}

export interface BenchResult {
  metrics: BenchMetrics;
  outputs: RequestOutput[];
  config: BenchConfig;
  clientBound: boolean;
  client: ClientStats;
  tokenCounts: TokenCountMode;
  /** True when the run was stopped by its AbortSignal; metrics cover what finished. */
  aborted: boolean;
  /** Set by toSimulated(): figures are in simulated-GPU time, `speed`x the wall clock. */
  simulated?: { speed: number };
  /** Human notes (approximate counts, client-bound reasons...). */
  notes: string[];
  /** ISO date the run started. */
  startedAt: string;
  /** Epoch ms (performance.timeOrigin based) of startTime 0, to line events up with server logs. */
  clockOriginMs?: number;
  /** A multi-turn run's conversations: planned, and how many ran every turn successfully. */
  conversations?: { total: number; completed: number; users: number };
}
