// A llama.cpp variant on a Slurm partition without GPUs is a CPU job: it asks for no GPU and for
// the CPUs its threads use (the rule: src/host/slurm/cpu-job.ts).
import type { Variant } from '../../../core/variant.js';
import type { HostInfo } from '../../../host/gpus.js';
import { cpuTaskCpus } from '../../../host/slurm/index.js';

/** CPUs per task for a variant on a CPU-only cluster, or undefined on a GPU cluster. */
export function cpusPerTask(variant: Variant, host: Pick<HostInfo, 'gpus' | 'cpu'>): number | undefined {
  return host.gpus.length || !host.cpu ? undefined : cpuTaskCpus(variant.knobs, host.cpu.threads);
}
