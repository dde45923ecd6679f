// Adaptive repeats: when a stage's best two results are within the noise margin of each other,
// one run each cannot say which is faster. Rerun both (up to --repeats-max runs each, default 3)
// and decide on the medians (decide.ts combineRepeats). Reruns stop early once the medians are
// further apart than the run-to-run spread measured so far: the largest relative range (max - min
// over the median, %) of any variant's repeated runs in this stage or an earlier stage of the
// session (a rerun measures the noise of this host; before any rerun it is unknown, so the first
// pair within the margin is always rerun once). Within that spread after --repeats-max runs, the
// stage says "tied within noise" and breaks the tie by a stated rule: lower p99 TPOT, then lower
// startup time, then the stage's own order (the variant listed first). Pure: the stage loop runs
// what nextRepeatStep asks for and calls it again.
import type { VariantResult } from '../../core/events.js';
import { combineRepeats, gainPct, objectiveValue, score, type DecideOptions } from './decide.js';

export const DEFAULT_REPEATS_MAX = 3;

export type RepeatStep =
  | { action: 'rerun'; variantIds: [string, string]; why: string }
  | {
      action: 'decide';
      /** One (median) result per variant with a value, best first; the tie-break applied at the top. */
      ranked: VariantResult[];
      tied: boolean;
      why: string;
      /** A tie broken by the rule: the why without its "X wins on RULE" clause (for a stage that keeps its carried winner instead). */
      tieWhy?: string;
    };

const label = (r: VariantResult) => r.variant.label ?? r.variantId;

/** p99 TPOT of a result (ms), Infinity when unknown (never wins a tie on it). */
function p99Tpot(r: VariantResult): number {
  const v = r.metrics?.p99_tpot_ms;
  return typeof v === 'number' && Number.isFinite(v) ? v : Infinity;
}

/** The tie-break: lower p99 TPOT, then lower startup, then a (listed first). Returns [winner, loser, why]. */
export function breakTie(a: VariantResult, b: VariantResult): [VariantResult, VariantResult, string] {
  const ta = p99Tpot(a);
  const tb = p99Tpot(b);
  if (ta !== tb) {
    const [w, l] = ta < tb ? [a, b] : [b, a];
    return [w, l, `lower p99 TPOT (${p99Tpot(w).toFixed(2)} vs ${p99Tpot(l).toFixed(2)} ms)`];
  }
  const sa = a.startupS ?? Infinity;
  const sb = b.startupS ?? Infinity;
  if (sa !== sb) {
    const [w, l] = sa < sb ? [a, b] : [b, a];
    return [
      w,
      l,
      `same p99 TPOT, faster startup (${(w.startupS ?? 0).toFixed(0)} vs ${l.startupS === undefined ? '?' : l.startupS.toFixed(0)} s)`,
    ];
  }
  return [a, b, 'same p99 TPOT and startup: the one listed first'];
}

/**
 * The run-to-run spread these runs show, %: the largest (max - min) / median of the objective over
 * any variant's successful runs, where it has two or more; `before` (the session's so far) counts
 * too. Undefined while nothing ran twice.
 */
export function runSpreadPct(
  runs: ReadonlyMap<string, readonly VariantResult[]>,
  objective: DecideOptions['objective'],
  before?: number,
): number | undefined {
  let spread = before;
  for (const rs of runs.values()) {
    const vs = rs
      .filter((r) => r.status === 'ok' && r.metrics)
      .map((r) => objectiveValue(r.metrics!, objective))
      .filter((v): v is number => v !== null && v > 0);
    if (vs.length < 2) continue;
    const sorted = [...vs].sort((a, b) => a - b);
    const mid = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
    const pct = ((sorted.at(-1)! - sorted[0]!) / mid) * 100;
    spread = Math.max(spread ?? 0, pct);
  }
  return spread;
}

export interface RepeatOptions extends DecideOptions {
  repeatsMax?: number;
  /** The run-to-run spread measured earlier in the session, % (runSpreadPct); none yet: undefined. */
  spreadPct?: number;
  /** The carried winner, kept unless a challenger beats it by the margin (later stages; not the engine or layout stage). */
  keptId?: string;
}

/**
 * What to do next with a stage's runs (variant id -> its runs so far, in stage order). Reruns the
 * best two while they are within the margin and within the measured spread, and both have fewer
 * than repeatsMax runs.
 */
export function nextRepeatStep(runs: ReadonlyMap<string, readonly VariantResult[]>, opts: RepeatOptions): RepeatStep {
  const max = opts.repeatsMax ?? DEFAULT_REPEATS_MAX;
  const combined = [...runs.values()].filter((rs) => rs.length > 0).map((rs) => combineRepeats(rs));
  const scored = combined.map((r, order) => ({ r, order, s: score(r, opts) })).filter((x) => x.s.eligible);
  scored.sort((x, y) => y.s.value! - x.s.value! || x.order - y.order);
  const ranked = scored.map((x) => x.r);
  if (scored.length < 2)
    return {
      action: 'decide',
      ranked,
      tied: false,
      why: scored.length ? `${label(ranked[0]!)} is the only eligible result` : 'no eligible result',
    };
  const [a, b] = [scored[0]!, scored[1]!];
  const g = gainPct(a.s.value!, b.s.value!) ?? Infinity;
  const nA = runs.get(a.r.variantId)?.length ?? 1;
  const nB = runs.get(b.r.variantId)?.length ?? 1;
  if (g > opts.marginPct) {
    const on = nA > 1 || nB > 1 ? ` (medians of ${nA} and ${nB} runs)` : '';
    return {
      action: 'decide',
      ranked,
      tied: false,
      why: `${label(a.r)} leads ${label(b.r)} by ${g.toFixed(1)}%${on}, beyond the ${opts.marginPct}% noise margin`,
    };
  }
  const spread = runSpreadPct(runs, opts.objective, opts.spreadPct);
  if (spread !== undefined && g > spread) {
    return {
      action: 'decide',
      ranked,
      tied: false,
      why: `${label(a.r)} leads ${label(b.r)} by ${g.toFixed(1)}% (medians of ${nA} and ${nB} runs), within the ${opts.marginPct}% margin but beyond the ${spread.toFixed(1)}% run-to-run spread measured`,
    };
  }
  // Futility: when the carried winner is one of the two, only a gap beyond the margin changes the
  // stage's outcome. Another run moves each median by at most about the spread measured (a new
  // run inside the observed range), so the gap moves by at most the spread: if even that cannot
  // carry it past the margin, rerunning spends GPU-hours on a decision already made.
  const kept = opts.keptId !== undefined && (a.r.variantId === opts.keptId || b.r.variantId === opts.keptId);
  if (kept && spread !== undefined && g + spread < opts.marginPct) {
    return {
      action: 'decide',
      ranked,
      tied: true,
      why: `${label(a.r)} and ${label(b.r)} tied within noise (${g.toFixed(1)}% apart after ${nA} and ${nB} runs, margin ${opts.marginPct}%, run-to-run spread ${spread.toFixed(1)}%: another run cannot carry the gap past the margin, so no further run)`,
    };
  }
  const keptOut = keptOutOfReach(combined, a, spread, opts);
  if (keptOut) return { action: 'decide', ranked, tied: false, why: keptOut };
  if (nA < max && nB < max) {
    return {
      action: 'rerun',
      variantIds: [a.r.variantId, b.r.variantId],
      why: `${label(a.r)} and ${label(b.r)} are ${g.toFixed(1)}% apart, within the ${opts.marginPct}% noise margin: run ${Math.min(nA, nB) + 1} of ${max}`,
    };
  }
  // (By order, a is the first listed among equals, so breakTie's last rule keeps the stage order.)
  const first = a.order < b.order ? a.r : b.r;
  const second = first === a.r ? b.r : a.r;
  const [w, l, rule] = breakTie(first, second);
  const rest = ranked.slice(2);
  const tieWhy = `${label(a.r)} and ${label(b.r)} tied within noise (${g.toFixed(1)}% apart after ${nA} and ${nB} runs, margin ${opts.marginPct}%${spread !== undefined ? `, run-to-run spread ${spread.toFixed(1)}%` : ''})`;
  return { action: 'decide', ranked: [w, l, ...rest], tied: true, why: `${tieWhy}: ${label(w)} wins on ${rule}`, tieWhy };
}

/**
 * Futility when the carried winner is not one of the best two: the stage keeps it unless the best
 * challenger beats it by the margin, and a rerun moves the challenger's median by at most about the
 * spread measured, so when even that cannot reach the margin, which of the two challengers is
 * faster decides nothing. Returns the line that says so, or undefined.
 */
function keptOutOfReach(
  combined: readonly VariantResult[],
  a: { r: VariantResult; s: { value?: number | null } },
  spread: number | undefined,
  opts: RepeatOptions,
): string | undefined {
  if (opts.keptId === undefined || spread === undefined || a.r.variantId === opts.keptId) return undefined;
  const kept = combined.find((r) => r.variantId === opts.keptId);
  const keptValue = kept ? score(kept, opts) : undefined;
  if (!kept || !keptValue?.eligible || keptValue.value === null || keptValue.value === undefined) return undefined;
  const g = gainPct(a.s.value!, keptValue.value) ?? Infinity;
  if (g + spread >= opts.marginPct) return undefined;
  return `the best challenger ${label(a.r)} leads the carried ${label(kept)} by ${g.toFixed(1)}%, and with the ${spread.toFixed(1)}% run-to-run spread measured another run cannot carry it past the ${opts.marginPct}% margin: the carried winner stays, no further run`;
}
