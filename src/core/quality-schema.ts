// The quality check's record on a variant's result, validated with the profile: what
// the greedy prompts cost, and, for a variant that changes numerics, its agreement with the
// reference (the same engine's engine-stage run) and, with --quality-eval, its accuracy.
// Optional everywhere: profiles written before the check stay valid.
import { z } from 'zod';

export const QualitySchema = z.object({
  /** Greedy prompts sent, and how many of them failed (a failed one reads as ''). */
  prompts: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** GPU-seconds the greedy requests held (simulated seconds on the simulated host). */
  gpuS: z.number().nonnegative(),
  /** The greedy outputs, kept on reference runs only (the engine stage): what later variants are compared with. */
  texts: z.array(z.string()).optional(),
  /** What changes numerics against the reference (FP8 weights, KV dtype, speculative, attention backend). */
  changes: z.array(z.string()).optional(),
  /** The reference variant compared with. */
  referenceId: z.string().optional(),
  agreement: z
    .object({
      prompts: z.number().int().nonnegative(),
      exactMatch: z.number().min(0).max(1),
      meanSharedPrefix: z.number().nonnegative(),
      meanBaselineTokens: z.number().nonnegative(),
    })
    .optional(),
  /** --quality-eval FILE: share of outputs equal to the expected answers, 0..1. */
  accuracy: z.number().min(0).max(1).optional(),
  /** The --quality-floor its exact-match rate fell below: it cannot win (decide.ts score). */
  belowFloor: z.number().min(0).max(1).optional(),
  /** Speculative decoding under greedy sampling did not agree exactly (it should). */
  speculativeMismatch: z.boolean().optional(),
  /** The model has random weights: agreement measures numerical drift, not quality. */
  randomWeights: z.boolean().optional(),
});

export type VariantQuality = z.infer<typeof QualitySchema>;

/** The profile's record of the session's quality check: what was asked and what it cost. */
export const QualityCheckSchema = z.object({
  prompts: z.number().int().positive(),
  maxTokens: z.number().int().positive(),
  floor: z.number().min(0).max(1).optional(),
  /** The --quality-eval file's name (not its path: the profile travels). */
  eval: z.string().optional(),
  /** GPU-seconds the greedy requests held, over every checked launch. */
  gpuS: z.number().nonnegative(),
  randomWeights: z.boolean().optional(),
});

export type QualityCheckRecord = z.infer<typeof QualityCheckSchema>;
