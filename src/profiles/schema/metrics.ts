// The measured parts of a profile (profile.ts): the benchmark's metrics as `vllm bench serve`
// names them, a failure, and what a launch and the session cost in GPU time.
import { z } from 'zod';
import type { BenchMetrics } from '../../core/metrics.js';

const metricsObject = z.looseObject({
  duration: z.number().nonnegative(),
  completed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  total_input_tokens: z.number().nonnegative(),
  total_output_tokens: z.number().nonnegative(),
  request_throughput: z.number().nonnegative(),
  request_goodput: z.number().nullable(),
  output_throughput: z.number().nonnegative(),
  total_token_throughput: z.number().nonnegative(),
  // Optional in a profile: a transcribed study may not publish them.
  max_output_tokens_per_s: z.number().nonnegative().optional(),
  max_concurrent_requests: z.number().nonnegative().optional(),
});

const percentileKey = /_(ttft|tpot|itl|e2el)_ms$/;

/**
 * Recorded metrics: BenchMetrics, except that the peak figures may be missing (published
 * studies do not give them). Every BenchMetrics is a RecordedMetrics.
 */
export type RecordedMetrics = Omit<BenchMetrics, 'max_output_tokens_per_s' | 'max_concurrent_requests'> &
  Partial<Pick<BenchMetrics, 'max_output_tokens_per_s' | 'max_concurrent_requests'>>;

// Typed by hand (an interface has no string index signature, so the inferred loose-object type
// would not accept a BenchMetrics); the refinement keeps the percentile keys honest.
export const MetricsSchema = metricsObject.superRefine((m, ctx) => {
  for (const [key, value] of Object.entries(m)) {
    if (percentileKey.test(key) && typeof value !== 'number') {
      ctx.addIssue({ code: 'custom', path: [key], message: `expected number, received ${value === null ? 'null' : typeof value}` });
    }
  }
}) as unknown as z.ZodType<RecordedMetrics, RecordedMetrics>;

export const FailureSchema = z.object({
  kind: z.enum([
    'oom',
    'unsupported',
    'model-not-found',
    'port-in-use',
    'bad-flag',
    'tp-mismatch',
    'startup-timeout',
    'crash',
    'spec-failed',
    'pruned',
    'bench-failed',
    'aborted',
    'skipped',
    'bad-model',
  ]),
  reason: z.string().min(1),
  hint: z.string().optional(),
  evidence: z.array(z.string()).optional(),
});

/** GPU time one launch held: seconds, simulated seconds on the simulated host. */
export const GpuTimeSchema = z.object({
  gpus: z.number().nonnegative(),
  startupS: z.number().nonnegative(),
  benchmarkS: z.number().nonnegative(),
  startupGpuS: z.number().nonnegative(),
  benchmarkGpuS: z.number().nonnegative(),
  gpuS: z.number().nonnegative(),
  simulated: z.boolean(),
});

/** What the tuning session cost: host GPU-hours (all GPUs x wall) and what variants held. */
export const SessionCostSchema = z.object({
  hostGpus: z.number().nonnegative(),
  wallS: z.number().nonnegative(),
  hostGpuHours: z.number().nonnegative(),
  variantGpuHours: z.number().nonnegative(),
  startupGpuHours: z.number().nonnegative(),
  benchmarkGpuHours: z.number().nonnegative(),
  busyPct: z.number().nonnegative(),
  simulated: z.boolean(),
  cpu: z.object({ threads: z.number().nonnegative(), cpuS: z.number().nonnegative() }).optional(),
  summary: z.string(),
});
