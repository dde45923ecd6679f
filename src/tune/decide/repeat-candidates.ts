// What a stage has measured, as the repeat rule reads it: each variant's runs as one candidate
// (its mean and interval under the host's noise), the variants early stop cut short (only the
// bound on what they could have reached), and the tied set around the best.
import type { VariantResult } from '../../core/events.js';
import type { Variant } from '../../core/variant.js';
import { effectiveMarginPct, gapPct, runInterval, type NoiseEstimate, type RunInterval } from '../../core/noise-rule.js';
import { combineRepeats, objectiveValue, score, type DecideOptions } from './decide.js';

/** What reading the runs needs: the decision's options, the host's noise, and any runs recorded before this stage. */
export interface CandidateOptions extends DecideOptions {
  /** The host's noise measured so far in the session, these runs included (noise.ts pooledNoise). */
  noise?: NoiseEstimate;
  /** Every run's objective this session by variant id, where it holds more than `runs` (the carried winner's earlier runs). */
  values?: ReadonlyMap<string, readonly number[]>;
}

export const label = (r: VariantResult) => r.variant.label ?? r.variantId;

/** The objective of each successful run. */
export function runValues(runs: readonly VariantResult[], objective: DecideOptions['objective']): number[] {
  return runs
    .filter((r) => r.status === 'ok' && r.metrics)
    .map((r) => objectiveValue(r.metrics!, objective))
    .filter((v): v is number => v !== null && Number.isFinite(v) && v > 0);
}

export interface Candidate {
  r: VariantResult;
  order: number;
  values: number[];
  iv: RunInterval;
  lastAt: string;
  /** Runs in this stage (the carried winner's earlier runs count toward its interval, not toward --repeats-max here). */
  here: number;
}

export function candidates(runs: ReadonlyMap<string, readonly VariantResult[]>, opts: CandidateOptions): Candidate[] {
  const out: Candidate[] = [];
  let order = 0;
  for (const rs of runs.values()) {
    if (rs.length === 0) continue;
    const r = combineRepeats(rs);
    const own = runValues(rs, opts.objective);
    const recorded = opts.values?.get(r.variantId);
    const values = recorded && recorded.length >= own.length ? [...recorded] : own;
    const s = score(r, opts);
    if (s.eligible && values.length)
      out.push({ r, order, values, iv: runInterval(values, opts.noise), lastAt: rs.at(-1)!.startedAt ?? '', here: rs.length });
    order++;
  }
  return out;
}

/** A variant whose only runs early stop cut short: no value of its own, only the bound on what it could have reached. */
export interface CutShort {
  id: string;
  order: number;
  variant: Variant;
  bound: number;
  here: number;
  status: string;
}

/** A run early stop ended: it carries the bound on what it could still have reached. */
export function isCutShort(r: VariantResult): r is VariantResult & { stopBound: number } {
  return r.status === 'pruned' && typeof r.stopBound === 'number';
}

export function cutShort(runs: ReadonlyMap<string, readonly VariantResult[]>): CutShort[] {
  const out: CutShort[] = [];
  let order = 0;
  for (const [id, rs] of runs) {
    if (rs.length === 0) continue;
    const last = rs.at(-1)!;
    if (rs.every(isCutShort) && isCutShort(last))
      out.push({
        id,
        order,
        variant: last.variant,
        bound: last.stopBound,
        here: rs.length,
        status: last.failure?.reason ?? 'stopped early',
      });
    order++;
  }
  return out;
}

/** The tied set of these candidates: every one whose interval overlaps the best's, in plan order. */
export function tiedWith(best: Candidate, all: readonly Candidate[], opts: CandidateOptions): Candidate[] {
  return all.filter(
    (c) => c === best || gapPct(best.iv.mean, c.iv.mean) <= effectiveMarginPct(opts.marginPct, opts.noise, best.iv.runs, c.iv.runs),
  );
}
