// The model's measured error where users meet it: the median |error| of `servelab predict` against
// NVIDIA AIConfigurator's measured aiperf runs on H200 (model-lab/data/silicon, rows never fitted),
// per engine and client concurrency band, for throughput per GPU, mean TPOT and mean TTFT. The
// figures are copied from model-lab/silicon-check.txt ("H200 (held out): by engine and concurrency
// band"); rerun `npx tsx model-lab/silicon-check.ts` after a model change and copy them again.
// Rows: fixed ISL/OSL (128-8192 / 100-8192), Llama-3.1-8B/70B, DeepSeek-R1/V3 and Qwen3-235B-A22B-FP8
// on 1-8 H200 GPUs; other models, GPUs and traffic can be further off.
import type { GpuEngineName } from '../../core/variant.js';

export interface MeasuredError {
  /** The band's upper concurrency (Infinity for the last). */
  upTo: number;
  label: string;
  rows: number;
  /** Median |predicted / measured - 1|. */
  tputPerGpu: number;
  tpot: number;
  ttft: number;
}

const BANDS: Record<GpuEngineName, MeasuredError[]> = {
  vllm: [
    { upTo: 8, label: 'concurrency 1-8', rows: 31, tputPerGpu: 0.172, tpot: 0.177, ttft: 2.396 },
    { upTo: 32, label: 'concurrency 9-32', rows: 50, tputPerGpu: 0.149, tpot: 0.159, ttft: 1.012 },
    { upTo: 128, label: 'concurrency 33-128', rows: 32, tputPerGpu: 0.473, tpot: 0.784, ttft: 0.809 },
  ],
  sglang: [
    { upTo: 8, label: 'concurrency 1-8', rows: 35, tputPerGpu: 0.318, tpot: 0.467, ttft: 0.349 },
    { upTo: 32, label: 'concurrency 9-32', rows: 27, tputPerGpu: 0.394, tpot: 0.534, ttft: 2.09 },
    { upTo: 128, label: 'concurrency 33-128', rows: 25, tputPerGpu: 0.318, tpot: 0.177, ttft: 4.881 },
    { upTo: Infinity, label: 'concurrency above 128', rows: 28, tputPerGpu: 0.167, tpot: 0.057, ttft: 1.598 },
  ],
  trtllm: [
    { upTo: 8, label: 'concurrency 1-8', rows: 42, tputPerGpu: 0.249, tpot: 0.237, ttft: 0.684 },
    { upTo: 32, label: 'concurrency 9-32', rows: 42, tputPerGpu: 0.388, tpot: 0.446, ttft: 0.563 },
    { upTo: 128, label: 'concurrency 33-128', rows: 37, tputPerGpu: 0.491, tpot: 0.465, ttft: 0.56 },
    { upTo: Infinity, label: 'concurrency above 128', rows: 3, tputPerGpu: 0.602, tpot: 1.679, ttft: 0.556 },
  ],
};

/**
 * A median |error| read as one standard deviation, %: for a normal error the median |x| is 0.6745
 * s.d., so a prior whose rows missed by a median 25% has a 1 s.d. band of 37%.
 */
export const sdOfMedianAbsPct = (medianAbsPct: number) => medianAbsPct / 0.6745;

/** The measured error band for an engine at a client concurrency (undefined when no held-out row covers it). */
export function measuredError(engine: GpuEngineName, concurrency: number): MeasuredError | undefined {
  return BANDS[engine].find((b) => concurrency <= b.upTo && b.rows > 0);
}
