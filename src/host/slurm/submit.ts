// Submit a batch script with `sbatch --parsable`: the job ID comes back on stdout at once, so the
// caller can journal it before anything else can go wrong.
import { UserError } from '../../core/errors.js';
import { runSlurm, SlurmCommandError, type SlurmCli } from './cli.js';
import { sbatchOptions, type SlurmRequest } from './options.js';

/** `--parsable` prints "ID" or "ID;cluster". */
export function parseParsable(stdout: string): string {
  const first = stdout.trim().split('\n').pop()?.split(';')[0]?.trim() ?? '';
  if (!/^\d+(_\d+)?$/.test(first)) throw new Error(`sbatch --parsable printed '${stdout.trim()}', not a job ID`);
  return first;
}

/** The full sbatch argv (without the command name) for a script file. */
export function sbatchArgv(r: SlurmRequest, scriptPath: string): string[] {
  return ['--parsable', ...sbatchOptions(r), scriptPath];
}

/**
 * Submit; resolves with the job ID. sbatch's refusal (e.g. "Requested node configuration is not
 * available" when no node has that many GPUs) becomes a UserError with Slurm's own words.
 */
export async function submitJob(cli: SlurmCli, r: SlurmRequest, scriptPath: string): Promise<string> {
  try {
    return parseParsable(await runSlurm(cli, 'sbatch', sbatchArgv(r, scriptPath)));
  } catch (e) {
    if (e instanceof SlurmCommandError) throw new UserError(`slurm: job not submitted: ${e.stderr.trim().split('\n').pop()}`);
    throw e;
  }
}
