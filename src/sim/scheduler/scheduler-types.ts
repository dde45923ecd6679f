// The scheduler's data: requests as the simulator sees them, its per-sequence state, a planned
// step and the tokens a step hands out.
import type { StepBatch } from '../../model/step-time.js';

export interface SimRequest {
  id: number;
  promptLen: number;
  /** The client's max_tokens: what the scheduler may reserve for. */
  maxTokens: number;
  /** Tokens this request will actually produce (EOS point, or maxTokens with ignore_eos). */
  outputTarget: number;
  /** Simulated arrival time, seconds. */
  arrival: number;
  /** Hashes of the request's full token blocks, each covering every token before it (prompt, then output): what a prefix cache matches. Absent: never a hit. */
  blocks?: readonly number[];
  /** Prompt tokens served from the prefix cache when the request was first scheduled. */
  cachedTokens?: number;
}

export interface Seq {
  req: SimRequest;
  /** Prompt to (re)compute: the prompt, plus generated tokens after a recompute preemption. */
  promptEff: number;
  computed: number;
  generated: number;
  blocks: number;
  preempted: number;
  state: 'waiting' | 'running' | 'done';
  /** vLLM prefix cache after a preemption: what the freed blocks held, and when they were freed. */
  cached?: { blocks: number; tokens: number; freeBefore: number; allocMark: number };
  /** The request's block keys in this server's prefix cache (block-pool.ts keysOf); absent: no cache or no blocks. */
  keys?: readonly number[];
  /** Leading blocks of `keys` this sequence holds as cache entries (the rest of its blocks are its own). */
  hashed: number;
}

export interface TokenEvent {
  req: SimRequest;
  /** Output tokens produced by this step for the request. */
  tokens: number;
  first: boolean;
  done: boolean;
}

export interface PlannedStep {
  batch: StepBatch;
  seconds: number;
  /** Per sequence: prompt tokens computed and whether it decodes this step. */
  work: { seq: Seq; prefill: number; decode: boolean }[];
}

export interface SchedulerStats {
  running: number;
  waiting: number;
  kvUsage: number;
  preemptions: number;
  promptTokens: number;
  generationTokens: number;
  steps: number;
}
