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

/**
 * The final tied set: the last stage that decided among measured runs, joined by each earlier
 * stage's set while that stage kept this same variant (later stages only confirmed it). Those
 * members were measured against this very configuration and could not be told from it, so a user
 * may serve any of them; an earlier stage that kept another configuration ends the walk, since its
 * members were never compared with the winner.
 */
function finalTiedSet(stages: readonly StageRecord[], winnerId: string): { ids: string[]; last: StageRecord | undefined } {
  const back = [...stages].reverse();
  const at = back.findIndex((s) => s.tiedIds?.length && s.tiedIds.includes(winnerId));
  if (at < 0) return { ids: [winnerId], last: undefined };
  const ids = new Set(back[at]!.tiedIds);
  for (const s of back.slice(at + 1)) {
    if (s.winnerId !== winnerId) break;
    for (const id of s.tiedIds ?? []) ids.add(id);
  }
  return { ids: [...ids], last: back[at] };
}

/** The decision block: the measured noise, the margin and the final tied set. */
export function decisionRecord(ctx: SessionContext, stages: readonly StageRecord[], winnerId: string): DecisionRecord {
  const { ids, last } = finalTiedSet(stages, winnerId);
  const n = ctx.noise;
  const runs = ctx.noiseRuns?.get(winnerId)?.values.length;
  return {
    ...(n ? { noisePct: n.pct, noiseRuns: n.runs, noiseSource: n.source } : {}),
    marginPct: ctx.config.marginPct,
    tiedIds: ids,
    ...(runs ? { winnerRuns: runs } : {}),
    ...(last?.tieBreak && last.winnerId === winnerId ? { tieBreak: last.tieBreak } : {}),
    ...(ctx.noisePrior ? { noisePriorSessions: ctx.noisePrior.sessions, ...(ctx.ownNoise ? { noiseOwnPct: ctx.ownNoise.pct } : {}) } : {}),
  };
}
