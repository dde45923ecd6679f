// Replay judges a regression by the session's rule: the larger of --tolerance and the noise the
// profile recorded on its host (core/noise-rule.ts), comparing the recorded winner's runs with one
// run now. The tolerance used and why go into the replay record.
import type { Profile } from '../../profiles/schema/profile.js';
import { effectiveMarginPct } from '../../core/noise-rule.js';

export interface ReplayTolerance {
  pct: number;
  /** Why it is larger than --tolerance, when it is. */
  note?: string;
}

export function replayTolerance(profile: Pick<Profile, 'decision'>, tolerancePct: number): ReplayTolerance {
  const d = profile.decision;
  if (d?.noisePct === undefined) return { pct: tolerancePct };
  const noise = { pct: d.noisePct, runs: d.noiseRuns ?? 0, source: d.noiseSource ?? 'the profile' };
  const pct = effectiveMarginPct(tolerancePct, noise, d.winnerRuns ?? 1, 1);
  if (pct <= tolerancePct) return { pct };
  return {
    pct,
    note: `tolerance ${pct.toFixed(1)}%: the profile's host noise ±${d.noisePct.toFixed(1)}% (${noise.source}) over ${d.winnerRuns ?? 1} recorded run(s) and one run now exceeds --tolerance ${tolerancePct}%`,
  };
}
