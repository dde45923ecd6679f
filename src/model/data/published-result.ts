// One published benchmark row as the model's error check reads it. Its own file so that the two
// row lists (published.ts, published-wider.ts) both import it without importing each other.
import type { EngineName, Knobs } from '../../core/variant.js';

export interface PublishedResult {
  /** Group for the ranking check: the engines compared on the same model, GPU and workload. */
  group: string;
  engine: EngineName;
  engineVersion: string;
  model: string;
  gpu: string;
  gpus: number;
  knobs: Knobs;
  /** 'sharegpt' (1000 prompts) or random IN/OUT. */
  workload: { kind: 'sharegpt' } | { kind: 'random'; input: number; output: number };
  numPrompts: number;
  totalTokPerS: number;
  /** Absent when the source publishes none (TensorRT-LLM's perf-overview tables give throughput only). */
  meanTpotMs?: number;
  source: string;
  /** The figure exactly as the source prints it, and how totalTokPerS was derived when it differs. */
  quote?: string;
  /** Why a row is less faithful to reproduce (a flag the model does not have, ...). */
  caveat?: string;
  /** 'train': model-lab/fit.ts fits on it; 'held-out': only ever compared (model-lab/training.ts). */
  split: 'train' | 'held-out';
}
