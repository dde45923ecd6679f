// Under --budget, each engine's predicted path in one launch. A budget of a few launches
// cannot walk every stage one knob at a time: after the engine stage's defaults it is spent, and
// the full protocol's winners gain in the later stages (an FP8 checkpoint, compile, speculation).
// So the engine stage under a budget also holds, for each engine, the variant the plan's greedy walk
// predicts at the end of its stages (every later stage's predicted winner applied in turn, with the
// margin, as buildPlan walks the predicted path). One launch then tests several stages'
// predictions at once, and the calibration learns from it; the later stages still run from the
// real winner, and their variants the budget rule keeps from a launch say why. Not with a replica
// plan: its later stages compare whole-host layouts, another workload than the engine stage's.
import type { StageName } from '../config/config.js';
import type { ExpandContext, PlannedVariant, ReplicaInfo } from './types.js';

/** One step of the greedy walk: the stage's predicted winner from `carried`, or `carried` when none beats it. */
export type WalkStep = (stage: StageName, carried: PlannedVariant) => PlannedVariant;

/** The end of each engine's predicted path, as an engine-stage variant; none where the walk changes fewer than two stages. */
export function predictedPathVariants(
  engineVariants: readonly PlannedVariant[],
  laterStages: readonly StageName[],
  step: WalkStep,
): PlannedVariant[] {
  const out: PlannedVariant[] = [];
  const have = new Set(engineVariants.map((v) => v.variant.id));
  const later = laterStages.filter((s) => s !== 'engine');
  for (const start of engineVariants) {
    if (start.status !== 'planned') continue;
    let at = start;
    const changes: string[] = [];
    for (const stage of later) {
      const next = step(stage, at);
      if (next === at || next.status !== 'planned') continue;
      changes.push(next.change);
      at = next;
    }
    // One change is that stage's own candidate: the budget's stage order reaches it without a jump.
    if (changes.length < 2 || have.has(at.variant.id)) continue;
    have.add(at.variant.id);
    out.push({
      ...at,
      stage: 'engine',
      change: `${start.variant.engine} predicted path: ${changes.join(', ')}`,
      predictedPath: changes,
    });
  }
  return out;
}

/** Whether the budget adds predicted paths to this plan: a budget, the engine stage, no replica plan. */
export function wantsPredictedPaths(
  ctx: Pick<ExpandContext, 'config'> & { replica?: ReplicaInfo | null },
  runEngineStage: boolean,
): boolean {
  return !!ctx.config.budget && runEngineStage && !ctx.replica;
}

export const PREDICTED_PATH_NOTE =
  "--budget: the engine stage also launches each engine's predicted path (every later stage's predicted winner in one variant), so that a few launches test the whole plan; the later stages then run from the measured winner.";
