// Validate: the winner against the baseline on the scenario set, as the studies' before/after
// table (total tok/s and mean TPOT per side, gain in total throughput).
import type { VariantResult } from '../../core/events.js';
import { isGpuEngine } from '../../core/variant.js';
import { getAdapter } from '../../engines/index.js';
import type { ValidationRow } from '../../profiles/schema/profile.js';
import type { Scenario } from '../../core/scenario.js';
import { isSameServer } from './same-server.js';
import { USER_SKIP } from '../../core/aborted.js';
import { isStoppedEarly } from '../../core/result-status.js';
import { combineRepeats } from './decide.js';

function point(r: VariantResult | undefined): ValidationRow['baseline'] {
  if (!r || r.status !== 'ok' || !r.metrics) return null;
  return { totalTokPerS: r.metrics.total_token_throughput, meanTpotMs: r.metrics.mean_tpot_ms ?? 0 };
}

/**
 * One row per scenario; a side that failed is null and the gain is null. With `marginPct` (the
 * noise rule's margin, noise.ts effectiveMarginPct) each row is judged: a loss beyond it, or a
 * failure where the baseline ran, is a regression.
 */
export function validationTable(
  scenarios: readonly Scenario[],
  baseline: ReadonlyMap<string, VariantResult>,
  optimized: ReadonlyMap<string, VariantResult>,
  marginPct?: number,
): ValidationRow[] {
  return scenarios.map((s) => {
    const b = point(baseline.get(s.name));
    const o = point(optimized.get(s.name));
    const gainPct = b && o && b.totalTokPerS > 0 ? ((o.totalTokPerS - b.totalTokPerS) / b.totalTokPerS) * 100 : null;
    const row: ValidationRow = { scenario: s.name, baseline: b, optimized: o, gainPct };
    if (marginPct === undefined) return row;
    const regression = b !== null && (o === null || (gainPct !== null && gainPct < -marginPct));
    return { ...row, marginPct, ...(regression ? { regression } : {}) };
  });
}

/** True when the winner regresses on no row. */
export function regressesNowhere(rows: readonly ValidationRow[]): boolean {
  return !rows.some((r) => r.regression);
}

/**
 * Whether an engine-stage result can be the baseline: its server can serve. One that finished,
 * was stopped early (early stop only saves cost: it must not change what validation compares),
 * was skipped by the user while it ran, or was not launched because it is the same server as
 * one measured. Not one that failed, was pruned before launch (it cannot run here) or was dropped
 * from the plan (--drop). Validation measures the baseline in full anyway (validation-run.ts).
 */
export function canBeBaseline(r: Pick<VariantResult, 'status' | 'failure'>): boolean {
  return r.status === 'ok' || isStoppedEarly(r) || isSameServer(r) || (r.status === 'skipped' && r.failure?.reason === USER_SKIP);
}

/**
 * Which result is the baseline: the user's named one (variant id or engine), else vLLM's
 * defaults, else the first in plan order that can serve (canBeBaseline): never decided by which
 * variants early stop cut short.
 */
export function pickBaseline(engineResults: readonly VariantResult[], named?: string): VariantResult | null {
  if (named) {
    // A named one that failed stays (validation shows its failure); one pruned before launch or
    // dropped (--drop) never had a server here, so launching it in validation would be wasted or
    // unwanted: the default rule picks instead, and the engine stage warns (namedBaselineWarning).
    const hit = engineResults.find((r) => r.variantId === named) ?? engineResults.find((r) => r.variant.engine === named);
    if (hit && (hit.status === 'failed' || canBeBaseline(hit))) return hit;
  }
  const usable = engineResults.filter(canBeBaseline);
  return usable.find((r) => getAdapter(r.variant.engine).baselineFirst) ?? usable[0] ?? null;
}

/** The engine stage's warning when --baseline NAME is not the baseline it got, and why. */
export function namedBaselineWarning(engineResults: readonly VariantResult[], named: string, got: VariantResult): string | null {
  if (got.variantId === named || got.variant.engine === named) return null;
  const hit = engineResults.find((r) => r.variantId === named) ?? engineResults.find((r) => r.variant.engine === named);
  const why = hit
    ? `cannot serve here (${hit.status}${hit.failure?.reason ? `: ${hit.failure.reason}` : ''})`
    : 'is not an engine-stage variant';
  return `baseline '${named}' ${why}; using ${got.variantId}`;
}

/**
 * How the baseline was chosen and what it did in the engine stage: one phrase for the summary.
 * `rowReused`: validation takes its tuning row back (a failed one is, reusableForValidation),
 * so the phrase must not say it was measured again.
 */
export function baselineWhy(
  b: Pick<VariantResult, 'variantId' | 'status' | 'failure' | 'variant'>,
  named?: string,
  rowReused = false,
): string {
  const how =
    named && (b.variantId === named || b.variant.engine === named)
      ? `named by --baseline ${named}`
      : getAdapter(b.variant.engine).baselineFirst
        ? `${getAdapter(b.variant.engine).label}'s defaults from the engine stage`
        : !isGpuEngine(b.variant.engine) && b.variantId === b.variant.engine
          ? "llama-server's defaults from the engine stage"
          : "the first engine-stage variant that can serve (vLLM's defaults did not run or failed)";
  const there = isStoppedEarly(b)
    ? 'stopped early there'
    : isSameServer(b)
      ? 'not launched there (same server as another)'
      : b.status === 'skipped'
        ? 'skipped there'
        : b.status !== 'ok'
          ? `${b.status} there`
          : null;
  return there ? `${how}; ${there}, ${rowReused ? 'its tuning row reused here' : 'measured in full here'}` : how;
}

/** Validation's own journal key for a scenario: its rows never replace a tuning row (a resumed stage reads those). */
export function validationKey(scenarioKey: string): string {
  return `${scenarioKey}|validation`;
}

/**
 * The key a --dummy-weights session journaled validation under before validationKey existed
 * (`<scenario>|real-weights`): real weights, no ignore_eos, as validation measures now. A
 * resumed older run reads it so it measures nothing twice.
 */
function legacyValidationKey(scenarioKey: string): string {
  return `${scenarioKey}|real-weights`;
}

/**
 * The journaled row validation can take for a variant and scenario, or undefined: its own (under
 * validationKey, or the older key), else the tuning row when reusableForValidation allows it.
 */
export function journaledForValidation(
  find: (variantId: string, key: string, repeat: number) => { result: VariantResult } | undefined,
  variantId: string,
  scenarioKey: string,
  tuningDummyWeights: boolean,
): VariantResult | undefined {
  for (const key of [validationKey(scenarioKey), legacyValidationKey(scenarioKey)]) {
    const own = find(variantId, key, 0);
    if (own && reusableForValidation(own.result, false)) return own.result;
  }
  // Every tuning run of the variant on this scenario (repeats and confirmations too), combined as
  // the stage combined them, so validation's baseline is the stage's own median row.
  const runs: VariantResult[] = [];
  for (let rep = 0; ; rep++) {
    const tuning = find(variantId, scenarioKey, rep);
    if (!tuning) break;
    if (reusableForValidation(tuning.result, tuningDummyWeights)) runs.push(tuning.result);
  }
  return runs.length ? combineRepeats(runs) : undefined;
}

/**
 * Whether a tuning row of the journal can stand for validation's measurement of the same variant
 * and scenario: a full measurement (or a failure), not one stopped early or skipped, and only
 * when the session's tuning benchmarks ran as validation's do (no dummy weights, no ignore_eos).
 */
export function reusableForValidation(r: Pick<VariantResult, 'status'>, tuningDummyWeights: boolean): boolean {
  return !tuningDummyWeights && (r.status === 'ok' || r.status === 'failed');
}
