// A workload as the tuner, sweeps and predict name it: dataset, lengths, prompts, seed and load.
import type { DatasetName } from './dataset-names.js';

export interface Scenario {
  /** Stable name: 'sharegpt', 'sharegpt-like', 'random-2000-100'. */
  name: string;
  /** Human label: 'ShareGPT', 'medium 2000/100'. */
  label: string;
  /** 'custom' = a JSONL of prompts with output_tokens (vLLM's custom dataset): the ShareGPT-like stand-in. */
  dataset: DatasetName;
  datasetPath?: string;
  inputLen?: number;
  outputLen?: number;
  /** vLLM's --random-range-ratio (lengths uniform in [len*(1-r), len*(1+r)]). */
  rangeRatio?: number;
  numPrompts: number;
  seed: number;
  /** null = all requests at once (request rate inf), as in the studies. */
  maxConcurrency: number | null;
  /** Requests per second (Poisson arrivals, vLLM's --request-rate); absent or null = all at once. */
  requestRate?: number | null;
  /** prefix_repetition: tokens of each shared prefix and how many prefixes (vLLM's flags); inputLen is the suffix. */
  prefixLen?: number;
  numPrefixes?: number;
  /** mooncake_trace (datasetPath): tokens per hash id (512) and the replay speed-up (1). */
  traceBlockSize?: number;
  traceSpeedup?: number;
  /** multi_turn: user turns per conversation and the shared system prompt's tokens (inputLen: each user message, outputLen: each reply; numPrompts counts conversations, maxConcurrency users). */
  turns?: number;
  systemPromptLen?: number;
}
