// `scancel` on every exit path. Idempotent and awaited: it returns only once Slurm no longer
// counts the job as pending or running, so a caller that goes on (or exits) leaves nothing queued.
import { spawnSync } from 'node:child_process';
import { runSlurm, SlurmCommandError, type SlurmCli } from './cli.js';
import { isActive, queryJob } from './state.js';

/** scancel's words for a job that is already over: not an error for an idempotent cancel. */
const ALREADY_OVER = /Invalid job id specified|already completing or completed|Job has already finished/i;

export interface CancelResult {
  /** The state Slurm last reported (null: Slurm no longer knows the job). */
  finalState: string | null;
  /** False when the job was still active at the deadline. */
  gone: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Cancel a job and wait until it is no longer active; safe to call any number of times. */
export async function cancelJob(cli: SlurmCli, jobId: string, opts: { waitMs?: number; pollMs?: number } = {}): Promise<CancelResult> {
  try {
    await runSlurm(cli, 'scancel', [jobId]);
  } catch (e) {
    if (!(e instanceof SlurmCommandError && ALREADY_OVER.test(e.stderr))) throw e;
  }
  const deadline = Date.now() + (opts.waitMs ?? 30_000);
  for (;;) {
    const info = await queryJob(cli, jobId);
    if (!info || !isActive(info.state)) return { finalState: info?.state ?? null, gone: true };
    if (Date.now() >= deadline) return { finalState: info.state, gone: false };
    await sleep(opts.pollMs ?? 200);
  }
}

/**
 * scancel from a synchronous exit path (process 'exit' handler, the launched-server ledger after
 * servelab's own death): sends the cancel and returns; it cannot wait for the job to end.
 * True when scancel accepted it or the job was already over.
 */
export function cancelJobSync(cli: SlurmCli, jobId: string): boolean {
  const r = spawnSync('scancel', [jobId], {
    env: { ...process.env, ...cli.env },
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return r.status === 0 || ALREADY_OVER.test(r.stderr ?? '');
}
