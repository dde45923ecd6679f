// One variant as one Slurm job: write the batch script into the run folder (on the filesystem
// the nodes share), submit it, follow its state and its output file, find the head endpoint
// once it runs, and cancel it on every path. API for the runner:
//
//   const job = await launchSlurmJob(spec)      // submitted; job.jobId is known: journal it now
//   const run = await job.waitRunning(signal)   // PENDING (reason via onState) ... RUNNING
//   if ('endpoint' in run) await job.waitReady(timeoutMs, signal)  // ready timeout starts here
//   job.tail(50)                                // output lines for failure triage
//   await job.stop()                            // scancel + wait until gone; idempotent
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SlurmCli } from './cli.js';
import { cancelJob, type CancelResult } from './cancel.js';
import { nodeAddress } from './discover.js';
import type { SlurmRequest } from './options.js';
import { renderBatchScript, type RankCommands } from './script.js';
import { isFinished, queryJob, type SlurmJobInfo } from './state.js';
import { submitJob } from './submit.js';
import { followFile } from './tail.js';

export interface SlurmLaunchSpec {
  cli: SlurmCli;
  /** A folder every node can read and write (the job's output file is written there). */
  runDir: string;
  request: Omit<SlurmRequest, 'output'>;
  env: Record<string, string>;
  ranks: RankCommands;
  /** The head's HTTP port and health path. */
  port: number;
  healthPath?: string;
  /** Each complete line of the job's output file. */
  onLine?: (line: string) => void;
  /** Each change of state or reason (PENDING/Priority -> PENDING/Resources -> RUNNING ...). */
  onState?: (info: SlurmJobInfo) => void;
  /** State poll period; default 500 ms. */
  pollMs?: number;
}

export type RunningResult = { endpoint: string; nodes: string[] } | { finished: SlurmJobInfo } | { aborted: true };
export type JobReadyResult =
  { ready: true; startupS: number } | { ready: false; why: 'exited' | 'timeout' | 'aborted'; job: SlurmJobInfo | null; startupS: number };

export interface SlurmJobHandle {
  jobId: string;
  scriptPath: string;
  logPath: string;
  /** Last state seen (null before the first poll or once Slurm forgot the job). */
  state(): SlurmJobInfo | null;
  waitRunning(signal?: AbortSignal): Promise<RunningResult>;
  /** Polls the head endpoint's health path until 200; call after waitRunning gave an endpoint. */
  waitReady(timeoutMs: number, signal?: AbortSignal): Promise<JobReadyResult>;
  tail(n?: number): string[];
  /** scancel, wait until Slurm no longer runs it, read the rest of the output. Idempotent. */
  stop(): Promise<CancelResult>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function launchSlurmJob(spec: SlurmLaunchSpec): Promise<SlurmJobHandle> {
  mkdirSync(spec.runDir, { recursive: true });
  const scriptPath = path.join(spec.runDir, 'job.sbatch');
  writeFileSync(scriptPath, renderBatchScript({ request: spec.request as SlurmRequest, env: spec.env, ranks: spec.ranks }));
  chmodSync(scriptPath, 0o755);
  // sbatch expands %-patterns in --output: a literal % in the folder is written %%.
  const request: SlurmRequest = { ...spec.request, output: path.join(spec.runDir.replace(/%/g, '%%'), 'slurm-%j.out') };
  const jobId = await submitJob(spec.cli, request, scriptPath);
  const logPath = path.join(spec.runDir, `slurm-${jobId}.out`);
  const follower = followFile(logPath, { onLine: (l) => spec.onLine?.(l) });
  const pollMs = spec.pollMs ?? 500;
  let last: SlurmJobInfo | null = null;
  let endpoint: string | undefined;
  let stopping: Promise<CancelResult> | undefined;

  const refresh = async (): Promise<SlurmJobInfo | null> => {
    const info = await queryJob(spec.cli, jobId);
    if (info && (info.state !== last?.state || info.reason !== last?.reason)) spec.onState?.(info);
    last = info;
    return info;
  };

  const waitRunning = async (signal?: AbortSignal): Promise<RunningResult> => {
    for (;;) {
      if (signal?.aborted || stopping) return { aborted: true };
      const info = await refresh();
      if (!info) return { finished: { jobId, state: 'UNKNOWN', reason: 'job no longer known to Slurm', nodes: [], source: 'scontrol' } };
      if (isFinished(info.state)) return { finished: info };
      if (info.state === 'RUNNING' && info.nodes.length) {
        endpoint ??= `http://${await nodeAddress(spec.cli, info.nodes[0]!)}:${spec.port}`;
        return { endpoint, nodes: info.nodes };
      }
      await sleep(pollMs);
    }
  };

  const waitReady = async (timeoutMs: number, signal?: AbortSignal): Promise<JobReadyResult> => {
    const start = Date.now();
    const startupS = () => (Date.now() - start) / 1000;
    if (!endpoint) throw new Error('waitReady before the job runs: call waitRunning first');
    let lastPoll = 0;
    for (;;) {
      if (signal?.aborted) return { ready: false, why: 'aborted', job: last, startupS: startupS() };
      if (await healthy(`${endpoint}${spec.healthPath ?? '/health'}`)) return { ready: true, startupS: startupS() };
      if (Date.now() - lastPoll >= pollMs) {
        lastPoll = Date.now();
        const info = await refresh();
        if (!info || isFinished(info.state)) return { ready: false, why: 'exited', job: info, startupS: startupS() };
      }
      if (Date.now() - start >= timeoutMs) return { ready: false, why: 'timeout', job: last, startupS: startupS() };
      await sleep(200);
    }
  };

  return {
    jobId,
    scriptPath,
    logPath,
    state: () => last,
    waitRunning,
    waitReady,
    tail: (n) => follower.tail(n),
    stop() {
      stopping ??= cancelJob(spec.cli, jobId).then(async (r) => {
        await follower.stop();
        return r;
      });
      return stopping;
    },
  };
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}
