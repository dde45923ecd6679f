// The ShareGPT shape, one everywhere: the calibration, the tuning scenario 'sharegpt-like',
// `servelab predict` and the JSONL handed to `vllm bench serve --dataset-name custom` all draw
// prompt and output lengths from the table in src/model/data/sharegpt-lengths.ts (its header says
// how it was derived: from published statistics, not from the dataset itself).
import { Rng } from '../scheduler/rng.js';
import { reuseRequests, type ReuseShape } from './reuse-requests.js';
import { SHAREGPT_FILTER, SHAREGPT_OUTPUT_LENGTHS, SHAREGPT_PROMPT_LENGTHS, type LengthTable } from '../../model/data/sharegpt-lengths.js';

export interface LengthPair {
  promptLen: number;
  outputLen: number;
  /** The request's token blocks (block-hash.ts), for a workload with prefix reuse (reuse-requests.ts). */
  blocks?: readonly number[];
}

/** A sampler for one length table: a bin by weight, then a length uniform inside it. */
function sampler(t: LengthTable): (rng: Rng) => number {
  const total = t.weights.reduce((a, b) => a + b, 0);
  const cum: number[] = [];
  let acc = 0;
  for (const w of t.weights) cum.push((acc += w) / total);
  return (rng) => {
    const u = rng.next();
    let i = cum.findIndex((c) => u < c);
    if (i < 0) i = cum.length - 1;
    return rng.int(t.edges[i]!, t.edges[i + 1]! - 1);
  };
}

const drawPrompt = sampler(SHAREGPT_PROMPT_LENGTHS);
const drawOutput = sampler(SHAREGPT_OUTPUT_LENGTHS);

/**
 * `n` ShareGPT-shaped (prompt, output) lengths, deterministic for a seed. Pairs over vLLM's total
 * bound are drawn again, as the filter would drop them. The means are the table's (~226 / ~199 at
 * large n; 1000 prompts land within a few percent of that).
 */
export function sharegptLike(n: number, seed = 0): LengthPair[] {
  const rng = new Rng(seed + 1);
  const out: LengthPair[] = [];
  while (out.length < n) {
    const p = drawPrompt(rng);
    const o = drawOutput(rng);
    if (p + o > SHAREGPT_FILTER.maxTotal) continue;
    out.push({ promptLen: p, outputLen: o });
  }
  return out;
}

/** Words of a prompt with exactly `len` whitespace-separated tokens (the shared token convention). */
export function promptOfLength(len: number, seed = 0): string {
  const words: string[] = [];
  for (let i = 0; i < len; i++) words.push(`w${(i * 7 + seed) % 1000}`);
  return words.join(' ');
}

/**
 * Lengths of a tuning scenario for the virtual clock: ShareGPT-shaped, or random IN/OUT spread by
 * the range ratio; a workload with prefix reuse comes with its token blocks (reuse-requests.ts).
 */
export function scenarioRequests(s: ReuseShape, seed: number): LengthPair[] {
  const reuse = reuseRequests(s);
  if (reuse) return reuse;
  if (s.dataset !== 'random') return sharegptLike(s.numPrompts, seed);
  const n = s.numPrompts;
  const r = s.rangeRatio ?? 0;
  const spread = (len: number, i: number) => Math.max(1, Math.round(len * (1 - r) + 2 * len * r * ((i + 0.5) / n)));
  return Array.from({ length: n }, (_, i) => ({
    promptLen: spread(s.inputLen ?? 1024, i),
    outputLen: spread(s.outputLen ?? 128, n - 1 - i),
  }));
}
