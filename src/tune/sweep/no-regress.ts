// --no-regress: the guard across workloads acts. Validation judges the winner against the baseline
// on every workload by the noise rule (decide/validate.ts); when the winner regresses somewhere,
// the session validates the other finalists in turn (each stage's best other variant that can
// win, closest to its stage's winner first) and keeps the first that regresses on none, or says
// that none does and keeps the winner with its regressions named.
import type { TuneEvent, ValidationRow, VariantResult } from '../../core/events.js';
import { AbortedError } from '../../core/aborted.js';
import { regressionLine } from '../../core/validation-table.js';
import { stageSlo } from '../config/config.js';
import type { SessionContext } from '../context/session-context.js';
import { score } from '../decide/decide.js';
import { regressesNowhere } from '../decide/validate.js';
import type { StageLoopState } from '../stage/loop.js';
import { validateWinner } from '../stage/validation-run.js';
import type { SweepLoad } from '../../sweep/spec.js';
import { pickFinalists, type StageRows } from './finalists.js';

export interface GuardedValidation {
  winner: VariantResult;
  validation: ValidationRow[];
}

type NoRegressEvent = Extract<TuneEvent, { type: 'no-regress' }>;

/** The finalists --no-regress may fall back on, best first: every stage's runner-up that can win, whatever its gap. */
function fallbacks(ctx: SessionContext, state: StageLoopState, winner: VariantResult): VariantResult[] {
  const opts = { objective: ctx.config.objective, slo: stageSlo(ctx.config), maxFailedPct: ctx.config.maxFailedPct };
  return pickFinalists(state.stages as unknown as StageRows[], state.baseline, winner, opts, Infinity)
    .map((f) => f.result)
    .filter((r) => r.variantId !== winner.variantId && r.variantId !== state.baseline?.variantId && score(r, opts).eligible);
}

/** Validate the winner; under --no-regress, fall back on the best finalist that regresses on none. */
export async function validateGuarded(
  ctx: SessionContext,
  state: StageLoopState,
  winner: VariantResult,
  load?: SweepLoad,
): Promise<GuardedValidation> {
  const validation = await validateWinner(ctx, state.baseline, winner, load);
  if (!ctx.config.noRegress || !validation.length || regressesNowhere(validation)) return { winner, validation };
  const tried: NoRegressEvent['tried'] = [{ variantId: winner.variantId, regression: regressionLine(validation)! }];
  for (const f of fallbacks(ctx, state, winner)) {
    const rows = await validateWinner(ctx, state.baseline, f, load);
    if (ctx.signal?.aborted) throw new AbortedError();
    if (regressesNowhere(rows)) {
      const why = `--no-regress: ${winner.variantId} regresses (${tried[0]!.regression}); kept ${f.variantId}, the best finalist that regresses on no workload`;
      ctx.emit({ type: 'no-regress', winnerId: winner.variantId, chosenId: f.variantId, tried, why });
      state.notes.push(why);
      return { winner: f, validation: rows };
    }
    tried.push({ variantId: f.variantId, regression: regressionLine(rows)! });
  }
  // None holds: the winner stays, its own table shown again (its rows are in the journal: nothing is measured twice).
  const again = tried.length > 1 ? await validateWinner(ctx, state.baseline, winner, load) : validation;
  const why = `--no-regress: no finalist regresses on no workload (${tried.map((t) => `${t.variantId}: ${t.regression}`).join('; ')}); keeping ${winner.variantId}`;
  ctx.emit({ type: 'no-regress', winnerId: winner.variantId, chosenId: null, tried, why });
  state.notes.push(why);
  ctx.emit({ type: 'warning', message: why });
  return { winner, validation: again };
}
