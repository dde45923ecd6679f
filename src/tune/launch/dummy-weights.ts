// --dummy-weights, for one launch: whether it loads dummy weights (or why it keeps the real ones),
// the engine flags that ask for them, whether its benchmark client sends ignore_eos, and the
// serving command without them. One decision, read by the plan, the runner and the profile, so
// the dry-run line, the launched argv and the record cannot disagree.
import type { VariantResult } from '../../core/events.js';
import type { EngineName, Variant } from '../../core/variant.js';
import { getModel } from '../../model/models.js';
import type { SessionConfig } from '../config/config.js';
import { DUMMY_CLIENT, DUMMY_WEIGHTS, dummyWeightsVerdict } from '../../engines/startup-cache.js';

export type WeightsUsed = NonNullable<VariantResult['weights']>;

/** The final validation (and its per-scenario launches) always measures the real model. */
export function isValidationStage(stage: string): boolean {
  // The capacity search on the winner (--capacity) is a final measurement too: the answer is for the real weights.
  return stage.startsWith('validation') || stage === 'capacity';
}

/**
 * The weights a launch of `variant` in `stage` loads under --dummy-weights, with why; undefined
 * when the flag is off (real weights, as always). A model whose config servelab cannot read may be
 * MoE, so it keeps its real weights (the verdict's MoE rule, applied conservatively).
 */
export function launchWeights(config: Pick<SessionConfig, 'dummyWeights'>, variant: Variant, stage: string): WeightsUsed | undefined {
  if (!config.dummyWeights) return undefined;
  const model = getModel(variant.model);
  const v = dummyWeightsVerdict({
    engine: variant.engine,
    speculative: !!variant.knobs.speculative,
    moe: !!model?.moe,
    finalValidation: isValidationStage(stage),
  });
  if (v.use && !model) return { kind: 'real', why: `no config.json known for ${variant.model}: it may be MoE, so real weights are used` };
  return { kind: v.use ? 'dummy' : 'real', why: v.why };
}

/** The engine flags that load dummy weights (vLLM and SGLang `--load-format dummy`); none for TensorRT-LLM (its YAML) and other engines. */
export function dummyFlags(engine: EngineName): readonly string[] {
  return DUMMY_WEIGHTS[engine]?.flags ?? [];
}

/** Whether servelab can start the engine on dummy weights at all (flags or, for TensorRT-LLM, its YAML). */
export function offersDummyWeights(engine: EngineName): boolean {
  return !!DUMMY_WEIGHTS[engine];
}

/** How the engines of these launches spell dummy weights, for notes and plan lines ('--load-format dummy'; TensorRT-LLM's YAML key). */
export function dummySpelling(engines: Iterable<EngineName>): string {
  return (
    [...new Set([...engines].map((e) => DUMMY_WEIGHTS[e]?.spelling).filter((s): s is string => !!s))].join('; ') || '--load-format dummy'
  );
}

/**
 * What --dummy-weights does for a session, decided once from its plan: `used` when any planned
 * tuning launch loads dummy weights, else why none does (MoE, unknown config). Only a session
 * that uses them changes its benchmarks (ignore_eos) and its validation (no tuning row reused):
 * for a model no launch can load dummy weights for, the flag changes nothing. Later stages are
 * rebuilt from the real winner at run time, but what decides dummy weights (the model, the
 * speculative knob, the engine's load format) is the same along every path.
 */
export function sessionDummyWeights(
  config: Pick<SessionConfig, 'dummyWeights'>,
  planned: readonly { status: string; stage: string; weights?: WeightsUsed }[],
): { used: boolean; why?: string } | undefined {
  if (!config.dummyWeights) return undefined;
  const run = planned.filter((v) => v.status === 'planned' && v.weights);
  if (run.some((v) => v.weights!.kind === 'dummy')) return { used: true };
  // The engine stage's reason is the model's (engines on defaults); later ones add their own (speculative).
  const first = run.filter((v) => v.stage === 'engine');
  const whys = [...new Set((first.length ? first : run).map((v) => v.weights!.why))];
  return { used: false, why: whys.join('; ') || 'no tuning launch is planned' };
}

/** The one line the plan and the summary give a session whose --dummy-weights changes nothing. */
export function dummyNoEffectLine(why: string): string {
  return `--dummy-weights has no effect for this model: no tuning launch can load dummy weights (${why}), so benchmarks do not send ignore_eos and validation reuses the tuning measurements.`;
}

/**
 * Whether the benchmark client sends `ignore_eos: true`. When the session's tuning uses dummy
 * weights (sessionDummyWeights), every tuning launch does, dummy or real: random weights meet EOS
 * at random, so outputs must have the asked lengths (DUMMY_CLIENT), and the stage's real-weight
 * variants (speculative decoding) must be measured on the same output lengths as the carried
 * winner they are compared with. Validation runs as without the flag: real weights, outputs end
 * where the model ends them; so does every launch of a session no launch of which loads dummy weights.
 */
export function clientIgnoresEos(tuningDummyWeights: boolean, stage: string): boolean {
  return tuningDummyWeights && DUMMY_CLIENT.ignoreEos && !isValidationStage(stage);
}

/**
 * The command that serves the variant: the launched one without the dummy-weight flags (the
 * profile's engineArgv, the summary's winner command). The flags are appended last by
 * prepareLaunch, so the last occurrence is the one removed.
 */
export function servingArgv(argv: readonly string[], engine: EngineName, weights: VariantResult['weights']): string[] {
  const flags = dummyFlags(engine);
  if (weights?.kind !== 'dummy' || !flags.length) return [...argv];
  for (let i = argv.length - flags.length; i >= 0; i--) {
    if (flags.every((f, j) => argv[i + j] === f)) return [...argv.slice(0, i), ...argv.slice(i + flags.length)];
  }
  return [...argv];
}

/**
 * Which measurements used dummy weights, and why the others did not: one sentence for notes and
 * reports; null without --dummy-weights. `session` is the plan's decision: when no tuning launch
 * could use them, the sentence says the flag had no effect.
 */
export function dummyWeightsNote(
  results: readonly (Pick<VariantResult, 'variantId' | 'weights'> & { variant?: Pick<Variant, 'engine'> })[],
  validated: boolean,
  session?: { used: boolean; why?: string },
): string | null {
  if (session && !session.used) return dummyNoEffectLine(session.why ?? 'none planned');
  const marked = results.filter((r) => r.weights);
  if (!marked.length) return null;
  const dummyRows = marked.filter((r) => r.weights!.kind === 'dummy');
  const dummy = [...new Set(dummyRows.map((r) => r.variantId))];
  const spelling = dummySpelling(dummyRows.flatMap((r) => (r.variant ? [r.variant.engine] : [])));
  const real = new Map<string, Set<string>>();
  for (const r of marked)
    if (r.weights!.kind === 'real') real.set(r.weights!.why, (real.get(r.weights!.why) ?? new Set()).add(r.variantId));
  const parts = [
    `Dummy weights (--dummy-weights, ${spelling}; every tuning benchmark sent ignore_eos): ${dummy.length ? dummy.join(', ') : 'no measurement'}.`,
  ];
  for (const [why, ids] of real) parts.push(`Real weights for ${[...ids].join(', ')}: ${why}.`);
  if (validated) parts.push('The before/after validation ran the real weights.');
  return parts.join(' ');
}
