// The adapter registry. Callers pick an adapter by engine name, or let `adapterFor` choose the
// sim adapter on the simulated host. Not a front door: the adapters, their contract (types.ts)
// and the engine rules are imported from their own files.
import { UserError } from '../core/errors.js';
import { ENGINES, isEngineName, type EngineName, type Variant } from '../core/variant.js';
import { llamacpp } from './llamacpp/adapter.js';
import { sglang } from './sglang/adapter.js';
import { sim } from './sim/adapter.js';
import { trtllm } from './trtllm/adapter.js';
import type { EngineAdapter, LaunchContext } from './kit/types.js';
import type { EnginePlanning } from './kit/plan-types.js';
import { vllm } from './vllm/adapter.js';
import type { LaunchSpec } from '../host/launch-spec.js';

export const ADAPTERS: Readonly<Record<EngineName | 'sim', EngineAdapter>> = { vllm, sglang, trtllm, llamacpp, sim };

/** The adapter of a real engine; unknown names are bad input (one-line UserError). */
export function getAdapter(name: string): EngineAdapter {
  if ((ENGINES as readonly string[]).includes(name) || name === 'sim') return ADAPTERS[name as EngineName | 'sim'];
  throw new UserError(`unknown engine '${name}' (choose from ${ENGINES.join(', ')})`);
}

/** Does this engine serve a GGUF file (planned, checked, predicted and quantized by servelab's GGUF code)? */
export function servesGguf(engine: string): boolean {
  return (isEngineName(engine) || engine === 'sim') && ADAPTERS[engine].modelFiles === 'gguf';
}

/** On the simulated host every variant runs through the sim adapter; otherwise its own engine's. */
export function adapterFor(variant: Variant, ctx: Pick<LaunchContext, 'sim'>): EngineAdapter {
  const own = getAdapter(variant.engine);
  return ctx.sim ? sim : own;
}

/** variant -> LaunchSpec, choosing the adapter as `adapterFor` does. */
export function buildLaunchSpec(variant: Variant, ctx: LaunchContext): LaunchSpec {
  return adapterFor(variant, ctx).command(variant, ctx);
}

/** An engine's own planning (its stages, preflight, model files), when it has one; undefined for the GPU engines and unknown names. */
export function planningOf(engine: string): EnginePlanning | undefined {
  return isEngineName(engine) || engine === 'sim' ? ADAPTERS[engine].planning : undefined;
}

/** The engine whose own stages include `stage` (another engine's winner skips them), or undefined. */
export function stageOwner(stage: string): EngineAdapter | undefined {
  return Object.values(ADAPTERS).find((a) => a.planning?.ownStages.includes(stage));
}

/** What a variant's server loads, as the comparison tables name it: the engine's own name for its model file (a GGUF's name and weight type), else the model id. */
export function servedName(v: { engine: string; model: string }): string {
  return planningOf(v.engine)?.servedName?.(v.model) ?? v.model;
}
