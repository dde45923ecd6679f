// A toy host for the calibration tests: each variant is seconds of GEMM, weight reads, host work
// and prefill per token, so the truth is known and the fit's answers can be checked exactly.
import { NEUTRAL, type Corrections } from '../../../src/model/calibration/corrections.js';
import type { Figures, Observation } from '../../../src/model/calibration/observation.js';

/** A variant of the toy host: seconds of GEMM, weight reads, host work and prefill per token. */
export interface Toy extends Observation {
  work: { gemm: number; bw: number; host: number; prefill: number };
}

/** Throughput = 1 / time; TPOT the decode part; TTFT the prefill part (all in toy units). */
export function toyPredict(o: Toy, k: Corrections): Figures {
  const w = o.work;
  const decode = w.bw / k.bandwidth + w.host * k.hostOverhead;
  const prefill = (w.gemm / k.gemm) * k.prefill;
  return { totalTokPerS: 1000 / (decode + prefill), meanTpotMs: decode * 10, meanTtftMs: prefill * 100 };
}

export function toyObs(n: number, truth: Corrections, engine = 'vllm', seed = 1): Toy[] {
  let s = seed;
  const r = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 0.9 + 0.1;
  return Array.from({ length: n }, (_, i) => {
    const o: Toy = {
      id: `${engine}-${i}`,
      engine,
      work: { gemm: r(), bw: r(), host: r() * 0.5, prefill: 0 },
      measured: { totalTokPerS: 0, meanTpotMs: 0, meanTtftMs: 0 },
    };
    o.measured = toyPredict(o, truth);
    return o;
  });
}

export const TRUTH: Corrections = { ...NEUTRAL, gemm: 0.75, bandwidth: 0.9, hostOverhead: 1.8 };
