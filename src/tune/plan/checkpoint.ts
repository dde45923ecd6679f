// Which checkpoint a session serves: the BF16 one the user named, or an FP8 one when BF16 does not
// fit the host (named by --fp8-model or known to servelab). Apart from plan.ts: its own concept.
import type { ExpandContext } from './types.js';
import { engineStageTp } from './tp.js';
import type { SessionConfig } from '../config/config.js';
import type { PlanDeps } from './types.js';

/** The FP8 checkpoint to try: named by the user, or one servelab knows for this model. */
export function findFp8Checkpoint(config: Pick<SessionConfig, 'model' | 'fp8Model'>, deps: Pick<PlanDeps, 'model'>): string | undefined {
  if (config.fp8Model) return config.fp8Model;
  const base = deps.model(config.model);
  if (!base || base.weightDtype !== 'bf16') return undefined;
  const candidate = `${config.model.replace(/\/+$/, '')}-FP8`;
  return deps.model(candidate)?.weightDtype === 'fp8' ? candidate : undefined;
}

/** Which checkpoint the engine stage serves: BF16 unless it does not fit and an FP8 one does. */
export function chooseCheckpoint(ctx: ExpandContext): { checkpoint: string; note?: string } {
  const { config, host, deps, fp8Checkpoint } = ctx;
  const tp = engineStageTp(deps.model(config.model), host.gpuCount);
  const probe = (model: string) =>
    deps.fits({ id: 'probe', engine: config.engines[0] ?? 'vllm', model, knobs: { tp: tp > 1 ? tp : undefined } });
  if (probe(config.model) === false && fp8Checkpoint && probe(fp8Checkpoint) !== false) {
    return {
      checkpoint: fp8Checkpoint,
      note: `${config.model} in BF16 does not fit ${host.gpuCount} x ${host.gpuName}: every variant serves the FP8 checkpoint ${fp8Checkpoint}`,
    };
  }
  return { checkpoint: config.model };
}
