// Running Slurm's own client commands (sbatch, scontrol, scancel, sinfo, sacct). Every call goes
// through here so a test cluster can point them at its config (SLURM_CONF) and so a failure
// carries the command and Slurm's own stderr line.
import { execa } from 'execa';
import { UserError } from '../../core/errors.js';
import { findOnPath } from '../../core/which.js';

export interface SlurmCli {
  /** Extra environment for every command (the test cluster sets SLURM_CONF). */
  env?: Record<string, string>;
  /** Per-command time limit; default 30 s (a busy slurmctld answers slowly, never hangs the caller). */
  timeoutMs?: number;
}

export class SlurmCommandError extends Error {
  constructor(
    readonly command: string,
    readonly stderr: string,
    readonly exitCode: number | undefined,
  ) {
    super(`${command}: ${stderr.trim().split('\n').pop() || `exit ${exitCode}`}`);
    this.name = 'SlurmCommandError';
  }
}

/** Run one Slurm command; resolves with stdout, rejects with SlurmCommandError. */
export async function runSlurm(cli: SlurmCli, cmd: string, args: readonly string[]): Promise<string> {
  const r = await execa(cmd, args, {
    env: cli.env,
    reject: false,
    timeout: cli.timeoutMs ?? 30_000,
    stdin: 'ignore',
  });
  if (r.exitCode !== 0 || r.failed) {
    const why = r.stderr || (r.timedOut ? `timed out after ${cli.timeoutMs ?? 30_000} ms` : r.shortMessage);
    throw new SlurmCommandError(`${cmd} ${args.join(' ')}`, why ?? '', r.exitCode);
  }
  return r.stdout;
}

/** The Slurm client commands servelab needs; the names of any that are missing from PATH. */
export const SLURM_CLIENTS = ['sbatch', 'scontrol', 'scancel', 'sinfo'] as const;

export function missingSlurmClients(envPath: string | undefined = process.env.PATH): string[] {
  return SLURM_CLIENTS.filter((c) => !findOnPath(c, envPath));
}

/** For `--runtime slurm`: a one-line error naming the missing client commands. */
export function assertSlurmClients(envPath: string | undefined = process.env.PATH): void {
  const missing = missingSlurmClients(envPath);
  if (missing.length) {
    throw new UserError(
      `--runtime slurm: ${missing.join(', ')} not found on PATH: run servelab on a Slurm login node, or install the Slurm client commands`,
    );
  }
}
