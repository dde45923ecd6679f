// What a session's decisions stood on, as a profile records it: the host's measured run-to-run
// noise, the margin the decisions used, and the final tied set (src/core/noise-rule.ts,
// repeats.ts). Scripts read `decision.noisePct` and `decision.tiedIds`; replay judges against
// `noisePct`.
import { z } from 'zod';

const IntervalSchema = z.object({ mean: z.number(), halfPct: z.number().nonnegative().optional(), runs: z.number().int().nonnegative() });

export const DecisionRecordSchema = z.object({
  /** The 95% half-width of one run on this host, % of the objective (absent while never measured). */
  noisePct: z.number().nonnegative().optional(),
  /** Runs the noise was pooled from, and which. */
  noiseRuns: z.number().int().nonnegative().optional(),
  noiseSource: z.string().optional(),
  /** The user's --margin, %; each stage's effective margin is in its stage record. */
  marginPct: z.number().nonnegative(),
  /** The final tied set: every variant the last deciding stage could not tell from the winner, and each earlier stage's while it kept the winner (src/tune/stage/noise-record.ts). */
  tiedIds: z.array(z.string()),
  /** Runs behind the winner's recorded figures. */
  winnerRuns: z.number().int().nonnegative().optional(),
  /** The property of the declared tie-break order that chose the winner, when the final set was tied. */
  tieBreak: z.string().optional(),
  /** With a prior: this session's own noise, before it was pooled with the host's earlier sessions, %. */
  noiseOwnPct: z.number().nonnegative().optional(),
  /** Earlier sessions of the same kind on this host that `noisePct` was pooled with. */
  noisePriorSessions: z.number().int().positive().optional(),
});

/** A stage's tied set as recorded beside its results. */
export const StageTieSchema = {
  tiedIds: z.array(z.string()).optional(),
  /** The effective margin the stage decided with, %. */
  marginPct: z.number().nonnegative().optional(),
  intervals: z.record(z.string(), IntervalSchema).optional(),
  tieBreak: z.string().optional(),
};

export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;
