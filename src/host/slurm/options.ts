// What a variant asks of Slurm, as sbatch options. One list serves both paths: the launcher
// passes it to sbatch as argv (no shell), and `export --format slurm` writes it as #SBATCH lines.
import { UserError } from '../../core/errors.js';

export interface SlurmRequest {
  /** Nodes in the allocation (--nodes). */
  nodes: number;
  /** GPUs on each node (--gres=gpu:N, a per-node count in Slurm). 0 = ask for none. */
  gpusPerNode: number;
  /** Tasks (srun ranks) on each node: 1 for SGLang and vLLM, one per GPU for TRT-LLM's MPI. */
  tasksPerNode: number;
  /** CPUs for each task (--cpus-per-task): a CPU engine's threads (llama.cpp's -t/-tb). */
  cpusPerTask?: number;
  /** --exclusive: no other job shares the nodes. */
  exclusive?: boolean;
  partition?: string;
  account?: string;
  /** --time, Slurm's own syntax (minutes, HH:MM:SS, D-HH:MM). */
  time?: string;
  jobName?: string;
  /** --output file; `%j` is the job ID. stderr goes to the same file (no --error). */
  output?: string;
  /** Submit held (--hold): the job stays PENDING with reason JobHeldUser until released. */
  hold?: boolean;
  /** Verbatim sbatch options from --slurm-arg, e.g. ['--qos=high', '--constraint=h100']. */
  extra?: string[];
}

/** Slurm's --time: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED. */
const TIME = /^(\d+|\d+:\d{2}|\d+:\d{2}:\d{2}|\d+-\d+|\d+-\d+:\d{2}|\d+-\d+:\d{2}:\d{2}|UNLIMITED|INFINITE)$/i;
/** Partition and account names: no spaces, quotes or shell characters reach sbatch. */
const NAME = /^[A-Za-z0-9_.+-]+$/;

function positive(name: string, v: number, min: number): void {
  if (!Number.isInteger(v) || v < min) throw new UserError(`slurm: ${name} must be an integer >= ${min}, got ${v}`);
}

/** Check a request; throws UserError naming the bad field. */
export function validateRequest(r: SlurmRequest): void {
  positive('--nodes', r.nodes, 1);
  positive('GPUs per node', r.gpusPerNode, 0);
  positive('tasks per node', r.tasksPerNode, 1);
  if (r.cpusPerTask !== undefined) positive('CPUs per task', r.cpusPerTask, 1);
  if (r.partition !== undefined && !NAME.test(r.partition))
    throw new UserError(`slurm: bad --partition '${r.partition}' (letters, digits, _ . + - only)`);
  if (r.account !== undefined && !NAME.test(r.account))
    throw new UserError(`slurm: bad --account '${r.account}' (letters, digits, _ . + - only)`);
  if (r.jobName !== undefined && !NAME.test(r.jobName))
    throw new UserError(`slurm: bad job name '${r.jobName}' (letters, digits, _ . + - only)`);
  if (r.time !== undefined && !TIME.test(r.time)) throw new UserError(`slurm: bad --time '${r.time}' (minutes, HH:MM:SS or D-HH:MM:SS)`);
  for (const a of r.extra ?? []) {
    if (!a.startsWith('-') || /[\n\r]/.test(a))
      throw new UserError(`slurm: --slurm-arg '${a}' must be one sbatch option such as --qos=high`);
  }
}

/** sbatch options for a request, in a fixed order (tests and exports compare them). */
export function sbatchOptions(r: SlurmRequest): string[] {
  validateRequest(r);
  const out = [`--nodes=${r.nodes}`, `--ntasks-per-node=${r.tasksPerNode}`];
  if (r.gpusPerNode > 0) out.push(`--gres=gpu:${r.gpusPerNode}`);
  if (r.cpusPerTask !== undefined) out.push(`--cpus-per-task=${r.cpusPerTask}`);
  if (r.exclusive) out.push('--exclusive');
  if (r.partition) out.push(`--partition=${r.partition}`);
  if (r.account) out.push(`--account=${r.account}`);
  if (r.time) out.push(`--time=${r.time}`);
  if (r.jobName) out.push(`--job-name=${r.jobName}`);
  if (r.output) out.push(`--output=${r.output}`);
  if (r.hold) out.push('--hold');
  out.push(...(r.extra ?? []));
  return out;
}
