// Tune a replica, then the host: when the model fits on fewer GPUs than the host has, the stages
// before and after parallelism tune one replica on the smallest GPU count it fits at (its TP), the
// parallelism stage compares whole-host layouts (replicas x TP, with the data parallelism each
// engine offers), and validation runs the chosen whole-host layout. Pure: the planner calls
// replicaPlan and puts the GPU counts in the plan.
import type { EngineName, Knobs } from '../core/variant.js';
import { fits } from '../model/estimate.js';
import type { GpuSpec } from '../model/gpus.js';
import type { ModelInfo } from '../model/models.js';

/** TP sizes tried, smallest first (powers of two: the head counts of the supported models divide them). */
const TP_SIZES = [1, 2, 4, 8, 16];

export interface HostLayout {
  tp: number;
  replicas: number;
  gpus: number;
  /** Knobs for the layout (tp, dp); the engine adapter turns them into flags. */
  knobs: Pick<Knobs, 'tp' | 'dp'>;
  /** The engine's own flags for it, for the plan's text (the adapters own the real argv). */
  flags: string[];
  /** False when the engine has no data parallelism for this layout (then why says so). */
  available: boolean;
  why: string;
}

/**
 * The engine's data-parallel flags. Sources (docs/engines.md, the `dp` rows of each engine):
 * - vLLM: `--data-parallel-size`/`-dp` (vllm/engine/arg_utils.py); one API server in front of the replicas.
 * - SGLang: `--dp-size` (alias `--data-parallel-size`, python/sglang/srt/server_args.py); its docs
 *   (docs/advanced_features/server_arguments.md) recommend the router for DP:
 *   `python -m sglang_router.launch_server ... --dp 2 --tp 2`.
 * - TensorRT-LLM: no DP flag in trtllm-serve (only attention DP inside the TP group); whole-host
 *   replicas would be separate servers behind a router servelab does not run.
 */
export function layoutFlags(engine: EngineName, tp: number, replicas: number): { flags: string[]; available: boolean; why: string } {
  switch (engine) {
    case 'vllm':
      return { flags: ['--tensor-parallel-size', String(tp), ...(replicas > 1 ? ['--data-parallel-size', String(replicas)] : [])], available: true, why: 'vLLM data parallelism (--data-parallel-size)' };
    case 'sglang':
      return { flags: ['--tp-size', String(tp), ...(replicas > 1 ? ['--dp-size', String(replicas)] : [])], available: true, why: 'SGLang data parallelism (--dp-size)' };
    case 'trtllm':
      return replicas > 1
        ? { flags: ['--tp_size', String(tp)], available: false, why: 'trtllm-serve has no data-parallel flag: replicas would need separate servers and a router' }
        : { flags: ['--tp_size', String(tp)], available: true, why: 'one TensorRT-LLM server' };
  }
}

/** Smallest TP (GPUs of one replica) at which the model fits, or null when it does not fit the host. */
export function smallestFit(engine: EngineName, gpu: GpuSpec, hostGpus: number, model: ModelInfo, knobs: Knobs): { tp: number; why: string } | null {
  let last = '';
  for (const tp of TP_SIZES) {
    if (tp > hostGpus) break;
    const f = fits(engine, gpu, tp, model, { ...knobs, tp, dp: 1 });
    if (f.fits) return { tp, why: `fits at TP${tp}${last ? ` (${last})` : ''}` };
    last = `TP${tp}: ${f.reason ?? f.kind ?? 'does not fit'}`;
  }
  return null;
}

export interface ReplicaPlan {
  /** GPUs of one replica: the stages before and after parallelism use this many (GPU ids 0..n-1). */
  replicaGpus: number;
  hostGpus: number;
  /** Whole-host layouts for the parallelism stage, fewest replicas last (largest TP). */
  layouts: HostLayout[];
  /** GPU count per stage kind, for the plan. */
  stageGpus: { tuning: number; parallelism: number; validation: number };
  why: string;
}

export function replicaPlan(engine: EngineName, gpu: GpuSpec, hostGpus: number, model: ModelInfo, knobs: Knobs): ReplicaPlan | null {
  const fit = smallestFit(engine, gpu, hostGpus, model, knobs);
  if (!fit) return null;
  const layouts: HostLayout[] = [];
  for (const tp of TP_SIZES) {
    if (tp < fit.tp || tp > hostGpus || hostGpus % tp !== 0) continue;
    const replicas = hostGpus / tp;
    const f = layoutFlags(engine, tp, replicas);
    layouts.push({ tp, replicas, gpus: hostGpus, knobs: { tp, dp: replicas }, ...f });
  }
  const whole = fit.tp < hostGpus;
  return {
    replicaGpus: fit.tp,
    hostGpus,
    layouts,
    stageGpus: { tuning: fit.tp, parallelism: hostGpus, validation: hostGpus },
    why: whole
      ? `${model.id} ${fit.why}: stages tune one replica on ${fit.tp} of ${hostGpus} GPUs; the parallelism stage compares ${layouts.map((l) => `${l.replicas}x TP${l.tp}`).join(', ')}`
      : `${model.id} needs the whole host (TP${fit.tp}): every stage uses all ${hostGpus} GPUs`,
  };
}
