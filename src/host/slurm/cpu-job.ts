// The CPUs one llama.cpp task asks Slurm for on a node without GPUs (--cpus-per-task): the
// larger of its -t and -tb. llama-server's -t defaults to -1, which becomes
// common_cpu_get_num_math() (the machine's cores), and -tb defaults to -t (common/common.cpp
// postprocess_cpu_params at 80fb11a), so without -t the task asks for the node's CPUs.
// The runner (src/tune/run/slurm/cpu.ts) and `export --format slurm` both use it.
import type { Knobs } from '../../core/variant.js';

export function cpuTaskCpus(knobs: Pick<Knobs, 'threads' | 'threadsBatch'>, nodeCpus: number): number {
  const t = knobs.threads ?? nodeCpus;
  return Math.max(t, knobs.threadsBatch ?? t);
}
