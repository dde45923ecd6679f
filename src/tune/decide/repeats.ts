// Tied sets and confirmation runs: a stage compares each candidate's runs by their interval under
// the noise measured on this host (noise.ts). The best is the highest mean; every candidate whose
// interval overlaps the best's is in the tied set, and the declared order of properties no
// measurement moves (tie-break.ts) chooses among them. While the best two cannot be told apart
// (or the host's noise is still unknown, or the lead is under twice the margin), both run once
// more in the reverse order of their last runs (A B then B A: drift between runs then favours
// neither), up to --repeats-max runs each.
// Reruns stop early when even --repeats-max runs could not separate them (the gap is under half
// the margin those runs would give), or when the carried winner leads and would win the tie-break
// as well (the outcome is the same either way). Where the leader already has its --repeats-max
// runs, the one to confirm runs alone. A variant that early stop cut short, whose bound lies
// within twice the margin and which the tie-break would keep over every measured one near the
// best, runs once in full first: the tie-break decides on the set's edge, and one noisy first
// window must not decide who is on it. Pure: the stage loop runs what nextRepeatStep asks for and
// calls it again.
import type { VariantResult } from '../../core/events.js';
import { candidates, cutShort, label, tiedWith, type Candidate, type CandidateOptions, type CutShort } from './repeat-candidates.js';
import { effectiveMarginPct, gapPct, MIN_NOISE_DF, noiseText, type RunInterval } from '../../core/noise-rule.js';
import { breakTieByOrder } from './tie-break.js';
import type { Variant } from '../../core/variant.js';

export const DEFAULT_REPEATS_MAX = 3;

/** What a stage decided on its runs, as the events carry it. */
export interface TiedDecision {
  /** One (median) result per variant with a value: the chosen first, then by mean. */
  ranked: VariantResult[];
  /** More than one candidate could not be told from the best. */
  tied: boolean;
  why: string;
  /** The tied set, in the plan's order (the best alone when nothing ties with it). */
  tiedIds: string[];
  /** Each candidate's mean and interval, by variant id. */
  intervals: Record<string, RunInterval>;
  /** The margin the best and its runner-up were compared with, %. */
  marginPct: number;
  /** The tie-break's property that chose the winner, when the set was tied. */
  tieBreak?: string;
}

export type RepeatStep = { action: 'rerun'; variantIds: string[]; why: string } | ({ action: 'decide' } & TiedDecision);

export interface RepeatOptions extends CandidateOptions {
  repeatsMax?: number;
  /** The noise comes from earlier sessions only (the host's prior): the session still measures its own. */
  noiseFromPriorOnly?: boolean;
  /** The carried winner (later stages): when it leads and wins the tie-break too, no confirmation runs. */
  keptId?: string;
}

/**
 * The tie-break's choice among the measured candidates near the leader and the cut ones whose
 * bound lies within twice the margin (and that may still run): a measured one (`c`) or a cut one (`s`).
 */
function tieBreakPick(near: readonly Candidate[], cuts: readonly CutShort[], a: Candidate, max: number, opts: RepeatOptions) {
  const cut = cuts.filter(
    (s) => s.here < max && gapPct(a.iv.mean, s.bound) <= 2 * effectiveMarginPct(opts.marginPct, opts.noise, a.iv.runs, 1),
  );
  const pool: { order: number; variant: Variant; c?: Candidate; s?: CutShort }[] = [
    ...near.map((c) => ({ order: c.order, variant: c.r.variant, c })),
    ...cut.map((s) => ({ order: s.order, variant: s.variant, s })),
  ];
  const choice = breakTieByOrder(
    pool.sort((x, y) => x.order - y.order),
    (x) => x.variant,
  );
  return { kept: choice.winner, property: choice.property };
}

/**
 * A pick at its --repeats-max runs and outside the tied set can change nothing, yet it would stand
 * in for a member that stays in the set on fewer runs (a wide interval), which the tie-break then
 * keeps unconfirmed (a session here kept Q8_0 on one run, 21% below Q4_0, behind F16 at its three
 * runs and out of the set). Then the one to confirm is the tied set's own pick, when it may run.
 */
function unshadowed(
  p: ReturnType<typeof tieBreakPick>,
  a: Candidate,
  all: readonly Candidate[],
  max: number,
  opts: RepeatOptions,
): ReturnType<typeof tieBreakPick> {
  const c = p.kept.c;
  if (!c || c === a || c.here < max) return p;
  const tied = tiedWith(a, all, opts);
  if (tied.includes(c)) return p;
  const w = breakTieByOrder(tied, (t) => t.r.variant);
  return w.winner !== a && w.winner.here < max
    ? { kept: { order: w.winner.order, variant: w.winner.r.variant, c: w.winner }, property: w.property }
    : p;
}

/**
 * What to do next with a stage's runs (variant id -> its runs so far, in the plan's order, the
 * carried winner first). Reruns the best two in reverse order while they cannot be told apart.
 */
export function nextRepeatStep(runs: ReadonlyMap<string, readonly VariantResult[]>, opts: RepeatOptions): RepeatStep {
  const max = opts.repeatsMax ?? DEFAULT_REPEATS_MAX;
  const all = candidates(runs, opts);
  const intervals = Object.fromEntries(all.map((c) => [c.r.variantId, c.iv]));
  const byMean = [...all].sort((x, y) => y.iv.mean - x.iv.mean || x.order - y.order);
  const base = { intervals, marginPct: opts.marginPct };
  if (byMean.length < 2) {
    const only = byMean[0];
    return {
      action: 'decide',
      ranked: byMean.map((c) => c.r),
      tied: false,
      tiedIds: only ? [only.r.variantId] : [],
      ...base,
      why: only ? `${label(only.r)} is the only eligible result` : 'no eligible result',
    };
  }
  const [a, second] = [byMean[0]!, byMean[1]!];
  // The runner-up to confirm against is the one that could take the stage from the leader: in a
  // later stage, whoever the tie-break would choose over it among those near it (the carried
  // winner, often); when that is the leader itself, no run can change the outcome. In the first
  // stage, the second best: its tie is what the session reports.
  const near = all.filter(
    (c) =>
      c === a || c === second || gapPct(a.iv.mean, c.iv.mean) <= 2 * effectiveMarginPct(opts.marginPct, opts.noise, a.iv.runs, c.iv.runs),
  );
  const { kept, property } = unshadowed(tieBreakPick(near, cutShort(runs), a, max, opts), a, all, max, opts);
  // The noise still being measured: none yet, or only earlier sessions'.
  const measuring = !opts.noise || opts.noiseFromPriorOnly;
  if (!measuring && kept.s) {
    return {
      action: 'rerun',
      variantIds: [kept.s.id],
      why: `confirming: ${kept.variant.label ?? kept.s.id} was ${kept.s.status}, within twice the margin of ${label(a.r)}, and the tie-break would keep it (${property}): one run in full`,
    };
  }
  const pick = kept.c ?? a;
  const b = pick !== a ? pick : second;
  const settled = opts.keptId !== undefined && pick === a;
  const g = gapPct(a.iv.mean, b.iv.mean);
  const margin = effectiveMarginPct(opts.marginPct, opts.noise, a.iv.runs, b.iv.runs);
  // The leader at its --repeats-max runs does not hold back the one to confirm: that one runs alone.
  const canRerun = b.here < max;
  // Reverse order: the one that ran last runs first now.
  const reversed: string[] =
    a.here >= max ? [b.r.variantId] : a.lastAt > b.lastAt ? [a.r.variantId, b.r.variantId] : [b.r.variantId, a.r.variantId];
  const names = (ids: readonly string[]) => ids.map((id) => label(all.find((c) => c.r.variantId === id)!.r)).join(' then ');
  // A noise on too few degrees of freedom is measured further where it is what ties the two: its t
  // quantile alone can make them tie; where they stand apart even so, more runs change nothing.
  const thin = !measuring && (opts.noise!.df ?? Infinity) < MIN_NOISE_DF && g <= margin;
  if (canRerun && (measuring || thin)) {
    const order = reversed.length > 1 ? 'in reverse order of their last runs' : `beside ${label(a.r)}'s ${a.here} runs`;
    return {
      action: 'rerun',
      variantIds: reversed,
      why: `measuring this host's noise: ${names(reversed)} again, ${order}${thin ? ` (${noiseText(opts.noise!)} rests on ${opts.noise!.df} degrees of freedom: too few to decide on)` : ''}`,
    };
  }
  const atMax = effectiveMarginPct(opts.marginPct, opts.noise, max, max);
  // A lead under twice the margin is confirmed too: a noise pooled from few runs can come out
  // small by chance, and one more run of each in reverse order costs less than a winner by noise.
  if (canRerun && !settled && g <= 2 * margin && g >= atMax / 2) {
    return {
      action: 'rerun',
      variantIds: reversed,
      why: `confirming: ${label(a.r)} and ${label(b.r)} are ${g.toFixed(1)}% apart, ${g <= margin ? 'within' : 'under twice'} the ±${margin.toFixed(1)}% margin; ${reversed.length > 1 ? `${names(reversed)} in reverse order` : `${names(reversed)} once more, beside ${label(a.r)}'s ${a.here} runs`} (run ${(reversed.length > 1 ? Math.min(a.here, b.here) : b.here) + 1} of ${max})`,
    };
  }
  return decision(a, second, byMean, all, opts, base);
}

/** The stage's word once no more runs are asked for: a clear leader, or the tied set and its tie-break. */
function decision(
  a: Candidate,
  second: Candidate,
  byMean: readonly Candidate[],
  all: readonly Candidate[],
  opts: RepeatOptions,
  base: Pick<TiedDecision, 'intervals' | 'marginPct'>,
): RepeatStep {
  const tied = tiedWith(a, all, opts);
  const noise = opts.noise ? `noise ${noiseText(opts.noise)}` : 'noise not measured';
  if (tied.length === 1) {
    return {
      action: 'decide',
      ranked: byMean.map((c) => c.r),
      tied: false,
      tiedIds: [a.r.variantId],
      ...base,
      marginPct: effectiveMarginPct(opts.marginPct, opts.noise, a.iv.runs, second.iv.runs),
      why: `${label(a.r)} leads ${label(second.r)} by ${gapPct(a.iv.mean, second.iv.mean).toFixed(1)}% (means of ${a.iv.runs} and ${second.iv.runs} runs), beyond the ±${effectiveMarginPct(opts.marginPct, opts.noise, a.iv.runs, second.iv.runs).toFixed(1)}% effective margin (${noise}, --margin ${opts.marginPct}%)`,
    };
  }
  const choice = breakTieByOrder(tied, (c) => c.r.variant);
  const w = choice.winner;
  const others = tied.filter((c) => c !== w).map((c) => label(c.r));
  const runsText = `after ${tied.map((c) => c.iv.runs).join(', ')} runs`;
  // The widest margin any member was judged with against the best. The hint stays inside the tie
  // clause (no '; '): the views show that clause alone (core/stage-text.ts tieClause).
  const margin = Math.max(...tied.filter((c) => c !== a).map((c) => effectiveMarginPct(opts.marginPct, opts.noise, a.iv.runs, c.iv.runs)));
  return {
    action: 'decide',
    ranked: [w.r, ...byMean.filter((c) => c !== w).map((c) => c.r)],
    tied: true,
    tiedIds: tied.map((c) => c.r.variantId),
    ...base,
    marginPct: margin,
    tieBreak: choice.property,
    why: `tied within noise: ±${margin.toFixed(1)}% with ${others.join(' and ')} (${runsText}, ${noise}): ${label(w.r)} ${choice.property}${w === a ? '' : lostLead(a, w, opts)}`,
  };
}

/** The most runs of each a hint suggests: beyond it the gap is as good as the noise's. */
const MAX_SUGGESTED_RUNS = 20;

/**
 * When the tie-break keeps another member than the best by mean, what runs would tell the lead
 * apart: the fewest runs of each at which the gap would exceed the margin at today's noise (its
 * t quantile left as it is: more runs would only lower it). Nothing when the gap is within
 * --margin (no number of runs makes it count) or needs more than MAX_SUGGESTED_RUNS.
 */
function lostLead(a: Candidate, w: Candidate, opts: RepeatOptions): string {
  const g = gapPct(a.iv.mean, w.iv.mean);
  if (!opts.noise || g <= opts.marginPct) return '';
  const from = Math.max(a.iv.runs, w.iv.runs) + 1;
  for (let n = from; n <= MAX_SUGGESTED_RUNS; n++)
    if (effectiveMarginPct(opts.marginPct, opts.noise, n, n) < g)
      return ` (--repeats-max ${n} would tell ${label(a.r)}'s ${g.toFixed(1)}% lead from this noise)`;
  return '';
}
