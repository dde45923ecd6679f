// The noise rule's part of the profile: each stage's tied set beside its results, and the
// session's decision block (measured noise, the final tied set), which scripts and replay read.
import type { StageVerdict } from '../../core/stage-verdict.js';
import type { DecisionRecord } from '../../profiles/schema/noise.js';
import type { StageRecord } from '../../profiles/schema/profile.js';
import type { SessionContext } from '../context/session-context.js';

export function stageTie(v: StageVerdict): Pick<StageRecord, 'tiedIds' | 'marginPct' | 'intervals' | 'tieBreak'> {
  return {
    ...(v.tiedIds ? { tiedIds: v.tiedIds } : {}),
    ...(v.marginPct !== undefined ? { marginPct: v.marginPct } : {}),
    ...(v.intervals ? { intervals: v.intervals } : {}),
    ...(v.tieBreak ? { tieBreak: v.tieBreak } : {}),
  };
}

/** The decision block: the last stage that decided among measured runs names the final tied set. */
export function decisionRecord(ctx: SessionContext, stages: readonly StageRecord[], winnerId: string): DecisionRecord {
  const last = [...stages].reverse().find((s) => s.tiedIds?.length && s.tiedIds.includes(winnerId));
  const n = ctx.noise;
  const runs = ctx.noiseRuns?.get(winnerId)?.values.length;
  return {
    ...(n ? { noisePct: n.pct, noiseRuns: n.runs, noiseSource: n.source } : {}),
    marginPct: ctx.config.marginPct,
    tiedIds: last?.tiedIds ?? [winnerId],
    ...(runs ? { winnerRuns: runs } : {}),
    ...(last?.tieBreak && last.winnerId === winnerId ? { tieBreak: last.tieBreak } : {}),
    ...(ctx.noisePrior ? { noisePriorSessions: ctx.noisePrior.sessions, ...(ctx.ownNoise ? { noiseOwnPct: ctx.ownNoise.pct } : {}) } : {}),
  };
}
