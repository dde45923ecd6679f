// --dummy-weights, for one launch: whether it loads dummy weights (or why it keeps the real ones),
// the engine flags that ask for them, whether its benchmark client sends ignore_eos, and the
// serving command without them. One decision, read by the plan, the runner and the profile, so
// the dry-run line, the launched argv and the record cannot disagree.
import type { VariantResult } from '../core/events.js';
import type { EngineName, Variant } from '../core/variant.js';
import { getModel } from '../model/models.js';
import type { SessionConfig } from './config.js';
import { DUMMY_CLIENT, DUMMY_WEIGHTS, dummyWeightsVerdict } from './startup-cache.js';

export type WeightsUsed = NonNullable<VariantResult['weights']>;

/** The final validation (and its per-scenario launches) always measures the real model. */
export function isValidationStage(stage: string): boolean {
  return stage.startsWith('validation');
}

/**
 * The weights a launch of `variant` in `stage` loads under --dummy-weights, with why; undefined
 * when the flag is off (real weights, as always). A model whose config servelab cannot read may be
 * MoE, so it keeps its real weights (the verdict's MoE rule, applied conservatively).
 */
export function launchWeights(config: Pick<SessionConfig, 'dummyWeights'>, variant: Variant, stage: string): WeightsUsed | undefined {
  if (!config.dummyWeights) return undefined;
  const model = getModel(variant.model);
  const v = dummyWeightsVerdict({ engine: variant.engine, speculative: !!variant.knobs.speculative, moe: !!model?.moe, finalValidation: isValidationStage(stage) });
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
  return [...new Set([...engines].map((e) => DUMMY_WEIGHTS[e]?.spelling).filter((s): s is string => !!s))].join('; ') || '--load-format dummy';
}

/**
 * Whether the benchmark client sends `ignore_eos: true`. Under --dummy-weights every tuning
 * launch does, dummy or real: random weights meet EOS at random, so outputs must have the asked
 * lengths (DUMMY_CLIENT), and the stage's real-weight variants (speculative decoding) must be
 * measured on the same output lengths as the carried winner they are compared with. Validation
 * runs as without the flag: real weights, outputs end where the model ends them.
 */
export function clientIgnoresEos(config: Pick<SessionConfig, 'dummyWeights'>, stage: string): boolean {
  return !!config.dummyWeights && DUMMY_CLIENT.ignoreEos && !isValidationStage(stage);
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
 * The journal key of a validation measurement. Under --dummy-weights the tuning measurements of
 * the same variant and scenario used dummy weights or ignore_eos: validation must not take them
 * from the journal, nor overwrite them there, so its entries have their own key.
 */
export function validationKey(config: Pick<SessionConfig, 'dummyWeights'>, scenarioKey: string): string {
  return config.dummyWeights ? `${scenarioKey}|real-weights` : scenarioKey;
}

/** Which measurements used dummy weights, and why the others did not: one sentence for notes and reports; null without --dummy-weights. */
export function dummyWeightsNote(results: readonly (Pick<VariantResult, 'variantId' | 'weights'> & { variant?: Pick<Variant, 'engine'> })[], validated: boolean): string | null {
  const marked = results.filter((r) => r.weights);
  if (!marked.length) return null;
  const dummyRows = marked.filter((r) => r.weights!.kind === 'dummy');
  const dummy = [...new Set(dummyRows.map((r) => r.variantId))];
  const spelling = dummySpelling(dummyRows.flatMap((r) => (r.variant ? [r.variant.engine] : [])));
  const real = new Map<string, Set<string>>();
  for (const r of marked) if (r.weights!.kind === 'real') real.set(r.weights!.why, (real.get(r.weights!.why) ?? new Set()).add(r.variantId));
  const parts = [`Dummy weights (--dummy-weights, ${spelling}; every tuning benchmark sent ignore_eos): ${dummy.length ? dummy.join(', ') : 'no measurement'}.`];
  for (const [why, ids] of real) parts.push(`Real weights for ${[...ids].join(', ')}: ${why}.`);
  if (validated) parts.push('The before/after validation ran the real weights.');
  return parts.join(' ');
}
