// A ShareGPT-like synthetic workload for calibration and planning when no dataset file is at
// hand: log-normal prompt and output lengths averaging about 217 in / 201 out tokens, shaped by
// vLLM's ShareGPT filter (4 <= prompt <= 1024, output >= 4, prompt + output <= 2048).
import { Rng } from './rng.js';

export interface LengthPair {
  promptLen: number;
  outputLen: number;
}

/** Standard normal draw (Box-Muller) from a seeded generator. */
function gauss(rng: Rng): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const SHAPE = { inMedian: 0.675, inSigma: 1.0, outMedian: 0.75, outSigma: 0.75 };

export function sharegptLike(n: number, seed = 0, meanIn = 217, meanOut = 201): LengthPair[] {
  const rng = new Rng(seed + 1);
  // Log-normal spreads (prompts wider than outputs, as in ShareGPT); the medians are set so the
  // clipped means land on target.
  const draw = (median: number, sigma: number, lo: number, hi: number) => Math.round(Math.min(hi, Math.max(lo, median * Math.exp(sigma * gauss(rng)))));
  const out: LengthPair[] = [];
  while (out.length < n) {
    const p = draw(meanIn * SHAPE.inMedian, SHAPE.inSigma, 4, 1024);
    const o = draw(meanOut * SHAPE.outMedian, SHAPE.outSigma, 4, 2048 - p);
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

/** Lengths of a tuning scenario for the virtual clock: ShareGPT-shaped, or random IN/OUT spread by the range ratio. */
export function scenarioRequests(s: { name: string; dataset: string; numPrompts: number; inputLen?: number; outputLen?: number; rangeRatio?: number }, seed: number): LengthPair[] {
  if (s.dataset !== 'random' || s.name.startsWith('sharegpt')) return sharegptLike(s.numPrompts, seed);
  const n = s.numPrompts;
  const r = s.rangeRatio ?? 0;
  const spread = (len: number, i: number) => Math.max(1, Math.round(len * (1 - r) + 2 * len * r * ((i + 0.5) / n)));
  return Array.from({ length: n }, (_, i) => ({ promptLen: spread(s.inputLen ?? 1024, i), outputLen: spread(s.outputLen ?? 128, n - 1 - i) }));
}
