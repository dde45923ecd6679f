// The calibration parts of a profile: beside each result's prior prediction, the
// calibrated prediction the session made before measuring it (with its band and how many of
// this host's variants it was calibrated on); and the session's calibration as a whole (its
// corrections and leave-one-out error). Optional: profiles written before host calibration have neither.
import { z } from 'zod';
import { CorrectionSetSchema } from '../../model/calibration/corrections.js';

export const CalibratedPredictionSchema = z.object({
  totalTokPerS: z.number(),
  meanTtftMs: z.number(),
  meanTpotMs: z.number(),
  /** 1 s.d. of the calibrated throughput, % (fit.ts bandLogSd as a percentage). */
  bandPct: z.number().nonnegative(),
  /** Measured variants of this host the calibration had when the prediction was made. */
  observations: z.number().int().nonnegative(),
});

export const SessionCalibrationSchema = z.object({
  observations: z.number().int().nonnegative(),
  priorMedianAbsPct: z.number().nullable(),
  looMedianAbsPct: z.number().nullable(),
  bandPct: z.number().nonnegative(),
  corrections: CorrectionSetSchema,
  /** A host calibration file the session started from (--calibration FILE). */
  startedFrom: z.string().optional(),
});

export type SessionCalibration = z.infer<typeof SessionCalibrationSchema>;
