// A finished stage's decision, once, as data: the winner carried out, what the gains are measured
// against (the baseline in the engine stage, else the carried winner), each row's gain, the
// stage's recorded gain and the reason. Every view shows this verdict; none re-derives it.
import type { VariantResult } from '../../core/events.js';
import type { StageVerdict } from '../../core/stage-verdict.js';
import { decideStage, gainPct, score, type DecideOptions, type StageDecision } from './decide.js';
import type { TiedDecision } from './repeats.js';
import type { NoiseEstimate } from '../../core/noise-rule.js';
import { namedBaselineWarning, pickBaseline } from './validate.js';

export interface StageDecisionOut {
  winner: VariantResult | null;
  /** The session's baseline after this stage (chosen in the engine stage, then unchanged). */
  baseline: VariantResult | null;
  verdict: StageVerdict;
  warnings: string[];
}

function rowGains(results: readonly VariantResult[], reference: VariantResult | null, opts: DecideOptions): Record<string, number | null> {
  const ref = reference ? score(reference, opts).value : null;
  const out: Record<string, number | null> = {};
  for (const r of results) {
    const v = score(r, opts).value;
    out[r.variantId] = v !== null && ref !== null ? gainPct(v, ref) : null;
  }
  return out;
}

/** The rows score() refuses because too many of their requests failed, with the words each row shows. */
function notEligibleRows(results: readonly VariantResult[], opts: DecideOptions): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const r of results) {
    const words = score(r, opts).notEligible;
    if (words) out[r.variantId] = words;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * A decision with the runs' word on it: the tied set's choice (repeats.ts) is the stage's, the
 * carried winner included, so one declared order decides every tie. The greedy rule still holds
 * outside a tie: a challenger the runs tell apart from the carried winner is better by the margin.
 */
function withRepeats(
  d: StageDecision,
  carried: VariantResult | null,
  results: readonly VariantResult[],
  opts: DecideOptions,
  repeats?: TiedDecision,
): StageDecision {
  const top = repeats?.ranked[0];
  if (!repeats || !top || !d.winner) return d;
  const w = top.variantId === carried?.variantId ? carried : (results.find((r) => r.variantId === top.variantId) ?? d.winner);
  const changed = !carried || w.variantId !== carried.variantId;
  const c = carried ? score(carried, opts).value : null;
  const v = score(w, opts).value;
  const gain = !carried ? d.gainPct : changed ? (v !== null && c !== null ? gainPct(v, c) : null) : d.gainPct;
  // (decideStage's words for a kept winner name --margin alone: the runs' why names the margin used.)
  const kept = carried && !changed ? 'kept the carried winner; ' : '';
  return { winner: w, changed, gainPct: gain, why: `${kept}${repeats.why}` };
}

/** The engine stage: the best variant wins outright; its gain is against the baseline. */
function engineVerdict(
  stage: string,
  results: readonly VariantResult[],
  opts: DecideOptions,
  namedBaseline?: string,
  repeats?: TiedDecision,
): StageDecisionOut {
  const d = withRepeats(decideStage(null, results, opts, null), null, results, opts, repeats);
  const baseline = pickBaseline(results, namedBaseline);
  const warnings: string[] = [];
  const namedWarning = namedBaseline && baseline ? namedBaselineWarning(results, namedBaseline, baseline) : null;
  if (namedWarning) warnings.push(namedWarning);
  // The winner's gain over the baseline (the tie rule may have picked the second fastest).
  const gains = rowGains(results, baseline, opts);
  const measured = { gainPct: baseline && d.winner ? (gains[d.winner.variantId] ?? null) : d.gainPct };
  const verdict: StageVerdict = {
    stage,
    winnerId: d.winner?.variantId ?? null,
    carriedId: null,
    referenceId: baseline?.variantId ?? null,
    baselineId: baseline?.variantId ?? null,
    gainPct: measured.gainPct,
    gains,
    why: d.why,
  };
  return { winner: d.winner, baseline, verdict, warnings };
}

/** A later stage: a challenger replaces the carried winner only when it beats it by the margin. */
function laterVerdict(
  stage: string,
  carried: VariantResult,
  baseline: VariantResult | null,
  results: readonly VariantResult[],
  opts: DecideOptions,
  repeats?: TiedDecision,
): StageDecisionOut {
  const d = withRepeats(decideStage(carried, results, opts, null), carried, results, opts, repeats);
  // The profile records a kept stage's gain as at most zero: the stage did not improve the winner.
  const recorded = d.changed ? d.gainPct : d.gainPct !== null ? Math.min(d.gainPct, 0) : null;
  const verdict: StageVerdict = {
    stage,
    winnerId: d.winner?.variantId ?? null,
    carriedId: carried.variantId,
    referenceId: carried.variantId,
    baselineId: baseline?.variantId ?? null,
    gainPct: recorded,
    gains: rowGains(results, carried, opts),
    why: d.why,
  };
  return { winner: d.winner, baseline, verdict, warnings: [] };
}

/**
 * Whole-host layouts of a tuned replica (tune/plan/replica.ts): the best layout wins outright (with the
 * repeats' tie rule); gains are against the first layout, the tuned replica tiled over the host.
 */
function layoutVerdict(
  stage: string,
  carried: VariantResult,
  baseline: VariantResult | null,
  results: readonly VariantResult[],
  opts: DecideOptions,
  repeats?: TiedDecision,
): StageDecisionOut {
  const d = withRepeats(decideStage(null, results, opts, null), null, results, opts, repeats);
  const reference = results.find((r) => score(r, opts).value !== null) ?? null;
  const gains = rowGains(results, reference, opts);
  const verdict: StageVerdict = {
    stage,
    winnerId: d.winner?.variantId ?? carried.variantId,
    carriedId: carried.variantId,
    referenceId: reference?.variantId ?? null,
    baselineId: baseline?.variantId ?? null,
    gainPct: d.winner ? (gains[d.winner.variantId] ?? null) : null,
    gains,
    why: d.winner ? `whole-host layouts of the tuned replica: ${d.why}` : 'no whole-host layout succeeded: keeping the one-replica winner',
  };
  return { winner: d.winner ?? carried, baseline, verdict, warnings: [] };
}

/**
 * Decide a stage that ran. `carried` is null in the engine stage. A "no variant meets the SLOs"
 * decision is also a warning, so a headless run says it at once.
 */
export function decideStageVerdict(
  stage: string,
  carried: VariantResult | null,
  baseline: VariantResult | null,
  results: readonly VariantResult[],
  opts: DecideOptions & { baseline?: string; repeats?: TiedDecision; layouts?: boolean; noise?: NoiseEstimate },
): StageDecisionOut {
  const out =
    carried && opts.layouts
      ? layoutVerdict(stage, carried, baseline, results, opts, opts.repeats)
      : carried
        ? laterVerdict(stage, carried, baseline, results, opts, opts.repeats)
        : engineVerdict(stage, results, opts, opts.baseline, opts.repeats);
  if (/^no variant meets the SLOs/.test(out.verdict.why)) out.warnings.push(out.verdict.why);
  if (opts.repeats?.tied) out.verdict.tied = true;
  const notEligible = notEligibleRows(results, opts);
  if (notEligible) out.verdict.notEligible = notEligible;
  const r = opts.repeats;
  if (r && r.ranked.length) {
    out.verdict.tiedIds = r.tiedIds;
    out.verdict.intervals = r.intervals;
    out.verdict.marginPct = r.marginPct;
    if (r.tieBreak) out.verdict.tieBreak = r.tieBreak;
  }
  if (opts.noise) out.verdict.noise = opts.noise;
  return out;
}

/** A stage that did not run: the carried winner stays, with the reason. */
export function skippedVerdict(
  stage: string,
  carried: VariantResult | null,
  baseline: VariantResult | null,
  skipped: string,
): StageVerdict {
  return {
    stage,
    winnerId: carried?.variantId ?? null,
    carriedId: carried?.variantId ?? null,
    referenceId: null,
    baselineId: baseline?.variantId ?? null,
    gainPct: null,
    gains: {},
    why: `skipped: ${skipped}`,
    skipped,
  };
}
