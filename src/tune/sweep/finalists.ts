// Which variants a session sweeps after its staged search (pure). The finalists are the
// baseline, the winner, and each stage's runner-up when it came within FINALIST_WITHIN_PCT of
// that stage's winner on the stage objective: a variant the greedy search dropped by a hair may
// hold up better at the loads an SLO allows, which is what the sweep is there to find out.
import type { VariantResult } from '../../core/events.js';
import { score, type DecideOptions } from '../decide/decide.js';

/** How close a stage's runner-up must come to the stage's winner to be swept, in percent. */
export const FINALIST_WITHIN_PCT = 5;
/** At most this many variants are swept (each is one launch and up to one benchmark per level). */
export const MAX_FINALISTS = 5;

export const FINALIST_RULE = `baseline, winner, and each stage's best other variant within ${FINALIST_WITHIN_PCT}% of that stage's winner (at most ${MAX_FINALISTS} variants, closest first)`;

/** What a stage contributes: its name, winner and measured rows (a StageRecord as the session holds it). */
export interface StageRows {
  name: string;
  winnerId: string | null;
  skipped?: string;
  results: readonly VariantResult[];
}

export interface Finalist {
  result: VariantResult;
  /** "baseline", "winner", "runner-up of quantization (-1.8%)". */
  why: string;
}

/** The finalists in sweep order: baseline, winner, then the near misses, closest first. */
export function pickFinalists(
  stages: readonly StageRows[],
  baseline: VariantResult | null,
  winner: VariantResult,
  opts: Pick<DecideOptions, 'objective' | 'slo' | 'maxFailedPct'>,
  withinPct = FINALIST_WITHIN_PCT,
): Finalist[] {
  const out: Finalist[] = [];
  const add = (result: VariantResult, why: string) => {
    const same = out.find((f) => f.result.variantId === result.variantId);
    if (same) same.why = `${same.why} and ${why}`;
    else out.push({ result, why });
  };
  if (baseline) add(baseline, 'baseline');
  add(winner, 'winner');
  const near: { result: VariantResult; why: string; gap: number }[] = [];
  for (const s of stages) {
    if (s.skipped || !s.winnerId) continue;
    const value = (r: VariantResult) => score(r, opts).value;
    // A stage that kept the carried winner has no row of it: its result is an earlier stage's.
    const stageWinner = stages.flatMap((x) => x.results).find((r) => r.variantId === s.winnerId && r.status === 'ok');
    const top = stageWinner ? value(stageWinner) : null;
    if (top === null || !(top > 0)) continue;
    const others = s.results
      // One that dropped too many requests (--max-failed) is never a finalist: it cannot win.
      .filter((r) => r.variantId !== s.winnerId && r.status === 'ok' && value(r) !== null && !score(r, opts).notEligible)
      .sort((a, b) => value(b)! - value(a)!);
    const best = others[0];
    if (!best) continue;
    const gap = ((value(best)! - top) / top) * 100;
    if (gap >= -withinPct) near.push({ result: best, why: `runner-up of ${s.name} (${gap >= 0 ? '+' : ''}${gap.toFixed(1)}%)`, gap });
  }
  near.sort((a, b) => b.gap - a.gap);
  for (const n of near) {
    if (out.length >= MAX_FINALISTS && !out.some((f) => f.result.variantId === n.result.variantId)) continue;
    add(n.result, n.why);
  }
  return out;
}
