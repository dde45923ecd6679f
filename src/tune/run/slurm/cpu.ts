// A llama.cpp variant on a Slurm partition without GPUs is a CPU job: it asks for no GPU and for
// the CPUs its threads use. llama-server's -t defaults to -1, which becomes
// common_cpu_get_num_math() (the machine's cores) and -tb defaults to -t
// (common/common.cpp postprocess_cpu_params at 80fb11a), so a variant without -t asks for a
// whole node's CPUs, and one with -t/-tb for the larger of the two.
import type { Variant } from '../../../core/variant.js';
import type { HostInfo } from '../../../host/gpus.js';

/** CPUs per task for a variant on a CPU-only cluster, or undefined on a GPU cluster. */
export function cpusPerTask(variant: Variant, host: Pick<HostInfo, 'gpus' | 'cpu'>): number | undefined {
  if (host.gpus.length || !host.cpu) return undefined;
  const t = variant.knobs.threads ?? host.cpu.threads;
  return Math.max(t, variant.knobs.threadsBatch ?? t);
}
