// Which GPUs Slurm gave a variant's job. On `--runtime slurm` parallel variants are each their own
// job asking for `--gres=gpu:N` per node; Slurm's GRES allocation picks the GPUs, keeps them
// disjoint between jobs and sets CUDA_VISIBLE_DEVICES for the job and its srun steps, so servelab
// never pins a job itself (a CUDA_VISIBLE_DEVICES of its own plan would point at GPUs the job was
// not given). What it records is Slurm's answer, read with `scontrol -d -o show job ID`
// ("-d, --details: Causes the show command to provide additional details where available",
// scontrol(1) of Slurm 22.05.8): each node group reads `Nodes=sl1 CPU_IDs=1 Mem=0
// GRES=gpu:h100:2(IDX:2-3)`. sbatch(1) `--gres`: "The specified resources will be allocated to the
// job on each node"; SLURM_JOB_GPUS: "The global GPU IDs of the GPUs allocated to this job".
// Seen on Slurm 22.05.8 (the test cluster, test/helpers/slurm/cluster.ts): three jobs of --gres=gpu:2
// held IDX 0-1 and 2-3 on sl1 and 0-1 on sl2, and each job's CUDA_VISIBLE_DEVICES (and its srun
// step's) was the same list ("0,1", "2,3", "0,1").
import { expandHostlist, runSlurm, type SlurmCli } from '../../../host/slurm/index.js';

/** The GPUs of one node group of a job: the nodes (expanded) and the GPU indices on each. */
export interface NodeGpus {
  nodes: string[];
  ids: number[];
}

/** "0-1,4,6-7" -> [0, 1, 4, 6, 7]; anything else -> []. */
export function expandIndexList(list: string): number[] {
  const out: number[] = [];
  for (const part of list.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return [];
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
}

/** The GPU node groups of `scontrol -d -o show job ID` output; [] when it names none (no GRES, or pending). */
export function parseJobGpus(text: string): NodeGpus[] {
  const out: NodeGpus[] = [];
  for (const m of text.matchAll(/\bNodes=(\S+) CPU_IDs=\S* Mem=\S* GRES=(\S*)/g)) {
    const idx = /\bgpu[^(,]*\(IDX:([^)]*)\)/.exec(m[2]!);
    const ids = idx ? expandIndexList(idx[1]!) : [];
    if (ids.length) out.push({ nodes: expandHostlist(m[1]!), ids });
  }
  return out;
}

/** One line for the live log and the job-state event: "sl1 GPU 2,3; sl2 GPU 0,1". */
export function describeJobGpus(groups: readonly NodeGpus[]): string {
  return groups.map((g) => `${g.nodes.join(',')} GPU ${g.ids.join(',')}`).join('; ');
}

/**
 * The GPU indices a one-node job holds on its node, for the result's gpuIds (what a pinned local
 * launch records); undefined for a job over several nodes (the indices repeat from node to node:
 * the job-state text names them per node) or when Slurm did not say.
 */
export function singleNodeGpuIds(groups: readonly NodeGpus[]): number[] | undefined {
  return groups.length === 1 && groups[0]!.nodes.length === 1 ? [...groups[0]!.ids] : undefined;
}

/** Slurm's GPU allocation of a running job; [] when scontrol cannot say (the caller records nothing then). */
export async function jobGpus(cli: SlurmCli, jobId: string): Promise<NodeGpus[]> {
  try {
    return parseJobGpus(await runSlurm(cli, 'scontrol', ['-d', '-o', 'show', 'job', jobId]));
  } catch {
    return [];
  }
}
