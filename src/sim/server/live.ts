// What a running simulated server knows about itself, shared by its life cycle (server.ts, which
// changes it) and its HTTP routes (routes.ts, which read it): the sized variant, whether it has
// finished "loading", and the wall-clock runner once it has.
import type { GpuSpec } from '../../model/gpu-spec.js';
import type { resolveServer } from '../../model/estimate.js';
import type { SimArgs } from './sim-args.js';
import type { WallRunner } from '../scheduler/wall.js';
import type { StartupBreakdown } from '../imitation/startup.js';

export interface SimLive {
  readonly args: SimArgs;
  readonly gpu: GpuSpec;
  readonly cfg: ReturnType<typeof resolveServer>;
  /** The name /v1/models answers with (--served-model-name, else the model). */
  readonly served: string;
  /** The modelled start-up (simulated seconds) and which caches it found (imitation/startup.ts). */
  readonly startup: StartupBreakdown & { compileCached: boolean; weightsPageCached: boolean };
  /** Wall seconds the simulated load takes (simulated seconds / speed). */
  readonly loadWallS: number;
  /** The context length served; TRT-LLM and SGLang may shrink it at the end of the load. */
  maxModelLen: number;
  ready: boolean;
  /** performance.now() when the load began. */
  loadStart: number;
  runner: WallRunner | undefined;
}

const MiB = 1024 * 1024;

/** /sim/gpus: nvidia-smi-like rows; memory grows with the load, utilisation follows the batch. */
export function gpusReport(s: SimLive) {
  const { args, cfg, gpu } = s;
  const used = Math.min(cfg.par.gpusUsed, args.gpus);
  const frac = s.ready ? 1 : Math.min(1, (performance.now() - s.loadStart) / 1000 / Math.max(1e-3, s.loadWallS));
  const memUsed = s.ready ? cfg.memUsedPerGpu : cfg.weights.perGpu * frac;
  const util = s.runner ? Math.round(s.runner.utilisation() * 100) : 0;
  return Array.from({ length: args.gpus }, (_, index) => ({
    index,
    name: gpu.smiName,
    utilPct: index < used ? util : 0,
    memUsedMiB: index < used ? Math.round(Math.min(memUsed, gpu.memMiB * MiB) / MiB) : 0,
    memTotalMiB: gpu.memMiB,
  }));
}
