// The session's record of every run's objective, by variant: what the host's noise is pooled from
// (core/noise-rule.ts), updated by every stage's runs, confirmations and repeats, and said on the
// event stream each time it changes.
import type { VariantResult } from '../../core/events.js';
import { pooledNoise } from '../../core/noise-rule.js';
import { runValues } from '../decide/repeat-candidates.js';
import type { SessionContext } from '../context/session-context.js';

function store(ctx: SessionContext): Map<string, { label: string; values: number[] }> {
  ctx.noiseRuns ??= new Map();
  return ctx.noiseRuns;
}

/** A variant's runs in a stage, replacing what an earlier stage recorded under its id. */
export function recordRuns(ctx: SessionContext, id: string, runs: readonly VariantResult[]): void {
  if (!runs.length) return;
  store(ctx).set(id, { label: runs[0]!.variant.label ?? id, values: runValues(runs, ctx.config.objective) });
}

/** More runs of a variant (a confirmation, a repeat of the carried winner). */
export function addRuns(ctx: SessionContext, id: string, runs: readonly VariantResult[]): void {
  const s = store(ctx);
  const had = s.get(id);
  const values = runValues(runs, ctx.config.objective);
  if (had) had.values.push(...values);
  else if (runs.length) s.set(id, { label: runs[0]!.variant.label ?? id, values });
}

/** Runs of a variant this session so far (the next repeat's number, so that none is read twice from the journal). */
export function runCount(ctx: SessionContext, id: string): number {
  return ctx.noiseRuns?.get(id)?.values.length ?? 0;
}

/** The session's runs of these variants, for their intervals. */
export function sessionValues(ctx: SessionContext, ids: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const id of ids) {
    const v = ctx.noiseRuns?.get(id)?.values;
    if (v?.length) out.set(id, v);
  }
  return out;
}

/** Pool the noise again, with the host's prior; say so when it changed. */
export function updateNoise(ctx: SessionContext): void {
  const groups = [...store(ctx).values()];
  ctx.ownNoise = pooledNoise(groups) ?? ctx.ownNoise;
  const next = pooledNoise(groups, ctx.noisePrior);
  if (!next) return;
  const before = ctx.noise;
  ctx.noise = next;
  if (!before || before.runs !== next.runs || Math.abs(before.pct - next.pct) > 1e-9) ctx.emit({ type: 'noise-measured', noise: next });
}
