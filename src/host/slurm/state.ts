// A Slurm job's state as servelab shows it: PENDING with its reason (Priority, Resources,
// JobHeldUser...), RUNNING with its nodes, or finished with an exit code. Read from
// `scontrol show job -o ID` while slurmctld remembers the job (MinJobAge, 300 s by default), then
// from `sacct` where accounting exists; null when Slurm no longer knows the job at all.
import { expandHostlist } from './hostlist.js';
import { runSlurm, SlurmCommandError, type SlurmCli } from './cli.js';

export interface SlurmJobInfo {
  jobId: string;
  /** Slurm's JOB_STATE name: PENDING, RUNNING, COMPLETING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ... */
  state: string;
  /** Slurm's reason: Priority, Resources, JobHeldUser, NonZeroExitCode, None, ... */
  reason: string;
  /** Allocated node names, head first ([] while pending). */
  nodes: string[];
  /** The batch script's exit status and terminating signal ("3:0" -> 3, 0), once finished. */
  exitCode?: number;
  signal?: number;
  /** Where the answer came from. */
  source: 'scontrol' | 'sacct';
}

/** States after which the job holds no resources and will not run again. */
const FINISHED = new Set([
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TIMEOUT',
  'NODE_FAIL',
  'OUT_OF_MEMORY',
  'PREEMPTED',
  'BOOT_FAIL',
  'DEADLINE',
  'REVOKED',
  'SPECIAL_EXIT',
]);

export function isFinished(state: string): boolean {
  return FINISHED.has(state);
}

/** Pending, configuring, running, completing, suspended: the job still holds or awaits nodes. */
export function isActive(state: string): boolean {
  return !isFinished(state);
}

/**
 * `scontrol show job -o` prints one line of Key=Value pairs separated by spaces; some values
 * (Command, WorkDir, Comment) may contain spaces, so a value runs until the next ` Key=`.
 */
export function parseKeyValues(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  const keyAt = /(?:^|\s)([A-Z][A-Za-z0-9_:/]*)=/g;
  const marks: { key: string; valueStart: number; matchStart: number }[] = [];
  for (let m = keyAt.exec(line); m; m = keyAt.exec(line))
    marks.push({ key: m[1]!, valueStart: m.index + m[0].length, matchStart: m.index });
  marks.forEach((mk, i) => {
    const end = i + 1 < marks.length ? marks[i + 1]!.matchStart : line.length;
    out[mk.key] = line.slice(mk.valueStart, end).trim();
  });
  return out;
}

function exitParts(v: string | undefined): { exitCode?: number; signal?: number } {
  const m = /^(\d+):(\d+)$/.exec(v ?? '');
  return m ? { exitCode: Number(m[1]), signal: Number(m[2]) } : {};
}

/** One job from `scontrol show job -o ID` output. */
export function parseScontrolJob(text: string): SlurmJobInfo | null {
  const line = text.split('\n').find((l) => l.startsWith('JobId='));
  if (!line) return null;
  const kv = parseKeyValues(line);
  const state = (kv.JobState ?? 'UNKNOWN').split(/[+ ]/)[0]!;
  const finished = isFinished(state);
  return {
    jobId: kv.JobId!,
    state,
    reason: kv.Reason ?? 'None',
    nodes: expandHostlist(kv.NodeList ?? ''),
    ...(finished ? exitParts(kv.ExitCode) : {}),
    source: 'scontrol',
  };
}

/**
 * The job's own line from `sacct -X -n -P -j ID -o JobID,State,ExitCode,NodeList,Reason`
 * (State may read "CANCELLED by 0").
 */
export function parseSacctJob(text: string, jobId: string): SlurmJobInfo | null {
  const line = text.split('\n').find((l) => l.split('|')[0] === jobId);
  if (!line) return null;
  const [, stateField = 'UNKNOWN', exit, nodeList = '', reason = 'None'] = line.split('|');
  const state = stateField.split(' ')[0]!;
  return { jobId, state, reason, nodes: expandHostlist(nodeList), ...(isFinished(state) ? exitParts(exit) : {}), source: 'sacct' };
}

/** scontrol and sacct say a job is unknown with this text. */
const UNKNOWN_JOB = /Invalid job id specified/i;

/** The job's state now, or null when Slurm has forgotten it (and keeps no accounting). */
export async function queryJob(cli: SlurmCli, jobId: string): Promise<SlurmJobInfo | null> {
  try {
    const info = parseScontrolJob(await runSlurm(cli, 'scontrol', ['show', 'job', '-o', jobId]));
    if (info) return info;
  } catch (e) {
    if (!(e instanceof SlurmCommandError && UNKNOWN_JOB.test(e.stderr))) throw e;
  }
  try {
    return parseSacctJob(
      await runSlurm(cli, 'sacct', ['-X', '-n', '-P', '-j', jobId, '-o', 'JobID,State,ExitCode,NodeList,Reason']),
      jobId,
    );
  } catch (e) {
    // "Slurm accounting storage is disabled": no record of finished jobs exists anywhere.
    if (e instanceof SlurmCommandError) return null;
    throw e;
  }
}

/** One line for the live panel: "PENDING (Resources)", "RUNNING on gpu[01-02]", "FAILED exit 3". */
export function describeJob(j: SlurmJobInfo): string {
  if (j.state === 'PENDING') return `PENDING (${j.reason})`;
  if (j.state === 'RUNNING') return `RUNNING on ${j.nodes.join(',')}`;
  if (isFinished(j.state) && j.exitCode !== undefined) {
    return `${j.state} exit ${j.exitCode}${j.signal ? ` signal ${j.signal}` : ''}${j.reason !== 'None' ? ` (${j.reason})` : ''}`;
  }
  return j.reason !== 'None' ? `${j.state} (${j.reason})` : j.state;
}
