// The quality check's part of one launch: after the launch's benchmarks, on the same
// server, the same greedy prompts (temperature 0, fixed max tokens) through the benchmark client
// (src/quality/greedy.ts). Their cost rides on the result in GPU-seconds; the agreement with the
// reference is worked out by the session (stage/quality-check.ts), which knows the reference.
import { readGgufHeader } from '../../gguf/read.js';
import type { Variant } from '../../core/variant.js';
import type { Scenario } from '../../core/scenario.js';
import type { VariantQuality } from '../../core/quality-schema.js';
import { greedyOutputs } from '../../quality/greedy.js';
import { gpusHeld } from '../../model/layout.js';
import { loadScenario } from '../launch/workloads.js';
import type { QualityRequest, RunVariantContext } from './contract/types.js';

/** A llama.cpp GGUF written by `servelab random-gguf` (its general.name says so, gguf/random.ts). */
function randomGguf(model: string): boolean {
  if (!model.endsWith('.gguf')) return false;
  try {
    const name = readGgufHeader(model).metadata.get('general.name');
    return name?.type === 8 && /servelab random weights/.test(name.value);
  } catch {
    return false;
  }
}

/** The model of this launch has random weights: dummy weights loaded, or a random GGUF. */
export function launchedRandomWeights(variant: Variant, dummy: boolean): boolean {
  return dummy || randomGguf(variant.model);
}

/**
 * Greedy outputs of the running server. `served` gains the wall seconds the server worked for
 * them (the launch's GPU time counts them like a benchmark); null when the requests could not run.
 */
export async function greedyForLaunch(
  variant: Variant,
  scenario: Scenario,
  q: QualityRequest,
  server: { baseUrl: string; speed: number; dummy: boolean },
  ctx: RunVariantContext,
  served: { wallS: number },
): Promise<VariantQuality | null> {
  const prompts = q.prompts
    ? q.prompts.slice(0, q.count)
    : (await loadScenario(scenario, ctx.config.model, ctx.workloads)).requests.slice(0, q.count).map((r) => r.prompt);
  const t0 = performance.now();
  try {
    const out = await greedyOutputs(
      {
        baseUrl: server.baseUrl,
        model: variant.model,
        ...(ctx.skipSignal || ctx.signal
          ? { signal: AbortSignal.any([ctx.signal, ctx.skipSignal].filter((s): s is AbortSignal => !!s)) }
          : {}),
      },
      prompts,
    );
    const wallS = (performance.now() - t0) / 1000;
    served.wallS += wallS;
    const gpuS = wallS * (ctx.config.sim ? server.speed : 1) * gpusHeld(variant.engine, variant.knobs);
    return {
      prompts: prompts.length,
      failed: out.failed,
      gpuS,
      texts: out.texts,
      ...(launchedRandomWeights(variant, server.dummy) ? { randomWeights: true } : {}),
    };
  } catch (e) {
    served.wallS += (performance.now() - t0) / 1000;
    ctx.emit({ type: 'warning', message: `${variant.id}: the quality check's greedy requests failed: ${(e as Error).message}` });
    return null;
  }
}
