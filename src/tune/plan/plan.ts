// The plan: the studies' stages in their order, each a list of variants that differ from the
// carried winner in one kind of knob. Later stages depend on who wins earlier ones, so a stage is
// expanded from the carried winner when it runs (expandStage); buildPlan expands every stage
// ahead of time along the predicted path, so the user can see, edit and dry-run the whole plan.
import { planningOf } from '../../engines/index.js';
import type { EngineName, Knobs, Variant } from '../../core/variant.js';
import { resolveVersion } from '../../engines/data/versions.js';
import { stageCandidates } from './candidates.js';
import { engineStageTp } from './tp.js';
import { clusterEngineTp } from './cross-node.js';
import { STAGE_TITLES, stageTitle, type SessionConfig, type StageName } from '../config/config.js';
import type { ExpandContext, Plan, PlanDeps, PlannedVariant, PlanStage } from './types.js';
import type { EnginePlanning, PlanHost } from '../../engines/kit/plan-types.js';
import { makeVariant } from './variant-ids.js';
import { matchesDrop, sameCommand, tryCommand } from './variant-checks.js';
import { sameServerAs } from '../decide/same-server.js';
import { dummyNoEffectLine, sessionDummyWeights } from '../launch/dummy-weights.js';
import { fullRunBaselineId, fullRunNote } from './baseline-in-full.js';
import { chooseCheckpoint, findFp8Checkpoint } from './checkpoint.js';
import { hostLayoutCandidates, replicaFor, replicaShareNote, replicaStageOrder, stageGpusText, stageScenario } from './replica.js';
import type { ReplicaInfo } from './types.js';
import { PREDICTED_PATH_NOTE, predictedPathVariants, wantsPredictedPaths, type WalkStep } from './predicted-path.js';
import { parallelismCacheNotes } from './cache-stage.js';
import { withRocmStage } from './rocm-stage.js';
import { engineStageEnv } from '../config/engine-env.js';

/** An engine's own engine-stage knobs: the user's extra argv and env (--engine-env) plus what every launch needs on this host (its planning's hostKnobs), carried by every later variant. */
const ownEngineKnobs = (own: EnginePlanning, config: SessionConfig, host: PlanHost, engine: EngineName): Knobs => ({
  extraArgs: extraFor(config, engine),
  env: engineStageEnv(config, engine),
  ...own.hostKnobs?.(config, host).knobs,
});

export const CAVEATS = [
  'The search is greedy, stage by stage: it finds a local optimum, not necessarily the global one.',
  'Other knobs (batch size, scheduling, KV-cache size, CUDA graphs, torch.compile) depend on the use case; treat the result as a starting point.',
  'Results hold for this hardware and these engine versions; engines change.',
  // No accuracy figure: servelab never measures accuracy (vLLM's FP8 docs say only "minimal impact"; report.ts STUDY_CAVEATS).
  "FP8 quantization's accuracy cost depends on the model and is not measured by servelab; check it on your own evaluation before serving.",
];

/**
 * Turn candidates into planned variants: preflight, user drops, no-ops, commands, predictions.
 * A prediction is for the workload the launch runs: on a replica plan's tuning stages, one
 * replica's share of the prompts (stageScenario), not the whole host's.
 */
function finish(
  stage: StageName,
  items: { variant: Variant; change: string }[],
  ctx: ExpandContext & { replica?: ReplicaInfo | null },
  carried?: Variant,
): PlannedVariant[] {
  const scenario = stageScenario(ctx.config.scenario, ctx.replica, stage);
  const carriedSpec = carried ? tryCommand(ctx.deps, carried).spec : undefined;
  const seen = new Set<string>();
  const out: PlannedVariant[] = [];
  for (const { variant, change } of items) {
    if (seen.has(variant.id)) continue;
    seen.add(variant.id);
    const pv: PlannedVariant = { variant, stage, change, status: 'planned', warnings: [] };
    let same: string | undefined;
    const cmd = tryCommand(ctx.deps, variant);
    const weights = ctx.deps.weights?.(variant);
    if (weights) pv.weights = weights;
    if (cmd.spec) {
      pv.engineArgv = cmd.spec.engineArgv;
      pv.argv = cmd.spec.argv;
      pv.env = cmd.spec.env;
    }
    if (ctx.config.drop.some((p) => matchesDrop(p, variant, change))) {
      pv.status = 'dropped';
      pv.reason = { kind: 'skipped', reason: 'dropped by the user (--drop)' };
    } else if (cmd.error) {
      pv.status = 'pruned';
      pv.reason = { kind: 'bad-flag', reason: cmd.error };
    } else if (carried && (variant.id === carried.id || sameCommand(cmd.spec, carriedSpec))) {
      pv.status = 'dropped';
      pv.reason = { kind: 'skipped', reason: `same command as the carried winner (${carried.id})` };
    } else if (carried && (same = sameServerAs(variant, carried, { host: ctx.host, model: ctx.deps.model(variant.model) }))) {
      // The engine's defaults make it the carried winner's server: its measurement stands for it.
      pv.status = 'dropped';
      pv.reason = { kind: 'skipped', reason: same };
    } else {
      const pf = ctx.deps.preflight(variant);
      pv.warnings.push(...pf.warnings);
      if (pf.failure) {
        pv.status = 'pruned';
        pv.reason = pf.failure;
      }
    }
    if (pv.status !== 'dropped') pv.predicted = ctx.deps.predict(variant, scenario);
    out.push(pv);
  }
  return out;
}

function extraFor(config: SessionConfig, engine: EngineName): string[] | undefined {
  const x = [...(config.extraArgs['*'] ?? []), ...(config.extraArgs[engine] ?? [])];
  return x.length ? x : undefined;
}

/** The engine stage: each engine on its defaults, on the checkpoint that fits, at the TP the host needs. */
export function engineStage(
  ctx: ExpandContext & { checkpoint: string; onlyFirst: boolean; replica?: ReplicaInfo | null },
): PlannedVariant[] {
  const { config, host, deps } = ctx;
  const tp =
    ctx.replica?.tp ??
    (host.gpusPerNode
      ? clusterEngineTp(ctx, ctx.checkpoint)
      : engineStageTp(deps.model(ctx.checkpoint) ?? deps.model(config.model), host.gpuCount));
  const engines = ctx.onlyFirst ? config.engines.slice(0, 1) : config.engines;
  // An engine with its own planning serves its own model file (llama.cpp: the first GGUF) on its
  // own layout (no TP: llama.cpp's -ngl and -sm place the layers).
  const items = engines.map((engine) => {
    const own = planningOf(engine);
    const variant = own
      ? makeVariant(
          engine,
          own.engineModel?.(config) ?? ctx.checkpoint,
          ownEngineKnobs(own, config, host, engine),
          config,
          ctx.fp8Checkpoint,
          deps.engineVersion?.(engine),
        )
      : makeVariant(
          engine,
          ctx.checkpoint,
          { tp: tp > 1 ? tp : undefined, extraArgs: extraFor(config, engine), env: engineStageEnv(config, engine) },
          config,
          ctx.fp8Checkpoint,
          deps.engineVersion?.(engine),
        );
    return { variant, change: 'defaults' };
  });
  return finish('engine', items, ctx);
}

/** The parallelism stage of a replica plan: whole-host layouts, with what replicas do to a prefix cache. */
function replicaLayouts(carried: Variant, replica: ReplicaInfo, ctx: ExpandContext) {
  const candidates = hostLayoutCandidates(carried, replica);
  return { candidates, notes: parallelismCacheNotes(candidates, ctx), skipped: undefined };
}

/** The variants of one later stage, built from the carried winner. */
export function expandStage(
  stage: StageName,
  carried: Variant,
  ctx: ExpandContext & { replica?: ReplicaInfo | null },
): { variants: PlannedVariant[]; skipped?: string; notes: string[] } {
  const { candidates, skipped, notes } =
    stage === 'parallelism' && ctx.replica ? replicaLayouts(carried, ctx.replica, ctx) : stageCandidates(stage, carried, ctx);
  if (skipped) return { variants: [], skipped, notes };
  const info = ctx.deps.engineInfo(carried.engine);
  const usable = candidates.filter((c) => c.needs.every((n) => info.supports.has(n)));
  if (!usable.length) {
    return { variants: [], skipped: `${carried.engine} exposes none of this stage's knobs`, notes };
  }
  const items = usable.map((c) => {
    const knobs: Knobs = { ...carried.knobs, ...c.knobs };
    const version = carried.engineVersion ?? ctx.deps.engineVersion?.(carried.engine);
    return {
      variant: makeVariant(carried.engine, c.model ?? carried.model, knobs, ctx.config, ctx.fp8Checkpoint, version),
      change: c.change,
    };
  });
  return { variants: finish(stage, items, ctx, carried), notes };
}

function predictedValue(pv: PlannedVariant): number | null {
  return pv.status === 'planned' && pv.predicted ? pv.predicted.totalTokPerS : null;
}

/** Predicted stage winner (greedy with the margin), for planning only. */
export function predictedWinner(
  carried: PlannedVariant | undefined,
  variants: PlannedVariant[],
  marginPct: number,
): PlannedVariant | undefined {
  const best = variants.filter((v) => predictedValue(v) !== null).sort((a, b) => predictedValue(b)! - predictedValue(a)!)[0];
  if (!carried) return best ?? variants.find((v) => v.status === 'planned');
  const c = predictedValue(carried);
  if (best && (c === null || predictedValue(best)! > c * (1 + marginPct / 100))) return best;
  return carried;
}

/** What each engine's commands are spelled for, when no installed version says. */
function versionNotes(config: SessionConfig, deps: PlanDeps): string[] {
  const notes: string[] = [];
  for (const engine of config.engines) {
    const r = resolveVersion(engine, deps.engineVersion?.(engine));
    if (r.note) notes.push(r.note);
    else if (!r.asked) notes.push(`${engine}: no installed version known; commands are spelled for ${engine} ${r.table}.`);
  }
  return notes;
}

/** One step of the predicted walk: the stage expanded from `at`, its predicted winner (greedy, with the margin). */
const walkStep =
  (base: ExpandContext & { replica?: ReplicaInfo | null }): WalkStep =>
  (name, at) => {
    const x = expandStage(name, at.variant, base);
    return x.skipped ? at : (predictedWinner(at, x.variants, base.config.marginPct) ?? at);
  };

/** Under --budget: each engine's predicted path joins the engine stage (predicted-path.ts), said in its notes and the plan's. */
function addPredictedPaths(
  stages: PlanStage[],
  engineVariants: PlannedVariant[],
  base: ExpandContext & { replica?: ReplicaInfo | null },
  notes: string[],
): void {
  const paths = predictedPathVariants(engineVariants, base.config.stages, walkStep(base));
  if (!paths.length) return;
  const title = `${stages[0]!.title}, and each engine's predicted path (--budget)`;
  stages[0] = { ...stages[0]!, title, variants: [...engineVariants, ...paths], notes: [...stages[0]!.notes, PREDICTED_PATH_NOTE] };
  notes.push(PREDICTED_PATH_NOTE);
}

export function buildPlan(config: SessionConfig, host: PlanHost, deps: PlanDeps): Plan {
  const fp8Checkpoint = findFp8Checkpoint(config, deps);
  const { checkpoint, note } = chooseCheckpoint({ config, host, deps, fp8Checkpoint });
  const replica = replicaFor({ config, host, deps, fp8Checkpoint }, checkpoint);
  const base = { config, host, deps, fp8Checkpoint, replica };
  const notes: string[] = [];
  if (note) notes.push(note);
  if (replica) notes.push(replica.why);
  else if (config.replica === 'auto' && config.sweep)
    notes.push('--sweep: the replica plan is off (the sweep compares whole-host finalists); every stage uses the whole host.');
  const share = replicaShareNote(config.scenario, replica);
  if (share) notes.push(share);
  for (const e of config.engines) {
    const hostNote = planningOf(e)?.hostKnobs?.(config, host).note;
    if (hostNote && !notes.includes(hostNote)) notes.push(hostNote);
  }
  if (host.simulated)
    notes.push(`Simulated host: ${host.gpuCount} x ${host.gpuName}; figures are simulated-GPU figures, not measurements of real hardware.`);
  notes.push(...versionNotes(config, deps));

  const stages: PlanStage[] = [];
  const runEngineStage = config.stages.includes('engine');
  const engineVariants = engineStage({ ...base, checkpoint, onlyFirst: !runEngineStage });
  stages.push({
    name: 'engine',
    title: runEngineStage ? STAGE_TITLES.engine : 'baseline (engine stage not selected: the first engine on defaults)',
    notes: [],
    variants: engineVariants,
    gpus: stageGpusText('engine', replica, host.gpuCount),
  });
  let carried = predictedWinner(undefined, engineVariants, config.marginPct);
  for (const name of withRocmStage(replica ? replicaStageOrder(config.stages) : config.stages, host)) {
    if (name === 'engine') continue;
    if (!carried) {
      stages.push({ name, title: stageTitle(name, config.engines), skipped: 'no engine variant can run', notes: [], variants: [] });
      continue;
    }
    const { variants, skipped, notes: stageNotes } = expandStage(name, carried.variant, base);
    stages.push({
      name,
      title: stageTitle(name, config.engines),
      skipped,
      notes: stageNotes,
      variants,
      gpus: stageGpusText(name, replica, host.gpuCount),
    });
    if (!skipped) carried = predictedWinner(carried, variants, config.marginPct);
  }
  if (wantsPredictedPaths(base, runEngineStage)) addPredictedPaths(stages, engineVariants, base, notes);
  // One decision per session: whether --dummy-weights changes its benchmarks and validation.
  const dummyWeights = sessionDummyWeights(
    config,
    stages.flatMap((s) => s.variants),
  );
  if (dummyWeights && !dummyWeights.used) notes.push(dummyNoEffectLine(dummyWeights.why ?? ''));
  const inFull = runEngineStage
    ? fullRunBaselineId({ config, replica, tuningDummyWeights: dummyWeights?.used === true }, engineVariants, new Map())
    : null;
  if (inFull && runnable(stages[0]!).length > 1) notes.push(fullRunNote(inFull, config.scenario.name));
  return {
    model: config.model,
    checkpoint,
    fp8Checkpoint,
    host,
    engines: config.engines,
    scenario: config.scenario,
    validation: config.validation,
    stages,
    caveats: CAVEATS,
    notes,
    predictedWinnerId: carried?.variant.id,
    ...(replica ? { replica } : {}),
    ...(dummyWeights ? { dummyWeights } : {}),
  };
}

/** The variants a plan will launch (not pruned, not dropped). */
export function runnable(stage: PlanStage): PlannedVariant[] {
  return stage.variants.filter((v) => v.status === 'planned');
}
