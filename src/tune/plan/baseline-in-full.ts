// The engine stage's baseline runs in full when validation would take its tuning row: early stop
// on it saves nothing then. Validation measures the baseline in full on every validation scenario
// (validation-run.ts) and reuses a tuning row only when it is complete (reusableForValidation), so
// a baseline cut short in the engine stage is paid twice on the tuning scenario (the partial run,
// then the full one in a second launch), and its engine-stage gains cannot be shown.
import type { VariantResult } from '../../core/events.js';
import type { SessionConfig } from '../config/config.js';
import type { PlannedVariant } from './types.js';
import type { ReplicaInfo } from './types.js';
import { pickBaseline } from '../decide/validate.js';
import { scenarioKey } from '../launch/workloads.js';

/** What decides whether validation can take the engine stage's tuning row of the baseline. */
export interface FullRunContext {
  config: Pick<SessionConfig, 'earlyStop' | 'scenario' | 'validation' | 'sweep' | 'baseline'>;
  /** The replica plan: validation then runs the baseline on the whole host, another server. */
  replica?: ReplicaInfo | null;
  /** Whether tuning launches load dummy weights (then validation measures every row itself). */
  tuningDummyWeights: boolean;
}

/**
 * Whether validation will reuse the baseline's full tuning row: early stop is on, the validation
 * set holds the tuning scenario as tuned (same name and size: scenarioKey), validation runs the
 * same server at the same load (no replica plan, no --objective frontier load), and the tuning
 * benchmarks ran as validation's do (no dummy weights, no ignore_eos).
 */
export function validationTakesTuningRow(c: FullRunContext): boolean {
  if (c.config.earlyStop === false || c.replica || c.tuningDummyWeights || c.config.sweep?.frontier) return false;
  const key = scenarioKey(c.config.scenario);
  return c.config.validation.some((s) => scenarioKey(s) === key);
}

/**
 * The engine-stage variant that must run in full, or null: the one pickBaseline would choose
 * (--baseline NAME respected) from the results known so far, a variant still to run counted as
 * one that can serve. When that one then fails, the next in line may already have been stopped
 * early; validation measures it in full as before.
 */
export function fullRunBaselineId(
  c: FullRunContext,
  variants: readonly PlannedVariant[],
  known: ReadonlyMap<string, VariantResult>,
): string | null {
  if (!validationTakesTuningRow(c) || !variants.some((v) => v.stage === 'engine')) return null;
  const list = variants.map((v) => known.get(v.variant.id) ?? pending(v));
  return pickBaseline(list, c.config.baseline)?.variantId ?? null;
}

/** A planned variant not measured yet, as a result that can serve (pickBaseline reads it so); a pruned or dropped one as it is. */
export function pending(v: PlannedVariant): VariantResult {
  const status = v.status === 'planned' ? 'ok' : v.status === 'pruned' ? 'pruned' : 'skipped';
  return {
    variantId: v.variant.id,
    stage: v.stage,
    scenario: '',
    status,
    variant: v.variant,
    argv: [],
    ...(v.reason ? { failure: v.reason } : {}),
    startedAt: '',
    finishedAt: '',
  };
}

/** The plan's note: why this variant is never stopped early. */
export function fullRunNote(id: string, scenario: string): string {
  return `Early stop never cuts ${id} short in the engine stage: it is the baseline, and validation reuses its full ${scenario} measurement (a partial one would be measured again there).`;
}
