// A real Slurm cluster on this machine for tests: munged, slurmctld and two slurmd (node names
// sl1 and sl2, `slurmd -N`, distinct ports) started in the foreground as child processes, with
// a generated config and their own state folders in a temp dir; stopped and removed after.
//
// Facts found while building it (Debian bookworm, Slurm 22.05.8, munge 0.5.15):
// - munged refuses a socket folder without execute permission for all ("Socket is inaccessible:
//   execute permissions for all required"), so the temp dir is chmod 755 (the key stays 0600).
// - slurmd drops GPUs without device files: gres.conf `Name=gpu Count=8` (also with
//   Flags=CountOnly) logs "Removing file-less GPU gpu:h100 from final GRES list" and the node goes
//   INVAL ("gres/gpu count reported lower than configured (0 < 8)"). Plain files are refused too
//   ("is not a valid character or block device"), so File= names 8 symlinks to /dev/null in the
//   temp dir. With TaskPlugin=task/none nothing is opened or constrained.
// - Two slurmd run on one host with `-N name` and per-node Port=; both register and run tasks.
// - ProctrackType=proctrack/linuxproc: with proctrack/pgid a cancelled job stayed COMPLETING for
//   about 3.9 s (slurmd logged the batch step "done with job" 3 s after the cancel); with
//   linuxproc about 0.25 s. (cgroup is not available in this container.)
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../../src/host/ports.js';
import { findOnPath } from '../../../src/core/which.js';
import { runSlurm, type SlurmCli } from '../../../src/host/slurm/cli.js';
import { testPort } from '../ports.js';

const DAEMONS = ['munged', 'slurmctld', 'slurmd'] as const;
const CLIENTS = ['sbatch', 'scontrol', 'scancel', 'sinfo', 'squeue'] as const;

/** Why the Slurm tests cannot run here (binaries absent), or null when they can. */
export function slurmMissing(path: string | undefined = process.env.PATH): string | null {
  const envPath = `${path ?? ''}:/usr/sbin:/sbin`;
  const missing = [...DAEMONS, ...CLIENTS].filter((b) => !findOnPath(b, envPath));
  return missing.length ? `Slurm tests skipped: ${missing.join(', ')} not found (install with scripts/ci-slurm-deps.sh)` : null;
}

export interface TestCluster {
  dir: string;
  cli: SlurmCli;
  nodes: string[];
  partition: string;
  gpusPerNode: number;
  gpuType: string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  nodes?: number;
  gpusPerNode?: number;
  gpuType?: string;
}

/** The one partition: 'gpu', or 'cpu' for a cluster without GPUs. */
const partitionName = (o: Required<ClusterOptions>) => (o.gpusPerNode ? 'gpu' : 'cpu');

function slurmConf(dir: string, ports: number[], o: Required<ClusterOptions>, names: string[]): string {
  const host = hostname().split('.')[0]!;
  const gres = `gpu:${o.gpuType}:${o.gpusPerNode}`;
  return [
    'ClusterName=servelabtest',
    `SlurmctldHost=${host}(127.0.0.1)`,
    `SlurmctldPort=${ports[0]}`,
    'SlurmUser=root',
    'SlurmdUser=root',
    'AuthType=auth/munge',
    `AuthInfo=socket=${dir}/munge.sock`,
    'CredType=cred/munge',
    `StateSaveLocation=${dir}/state`,
    `SlurmdSpoolDir=${dir}/spool/%n`,
    `SlurmctldPidFile=${dir}/slurmctld.pid`,
    `SlurmdPidFile=${dir}/slurmd-%n.pid`,
    `SlurmctldLogFile=${dir}/slurmctld.log`,
    `SlurmdLogFile=${dir}/slurmd-%n.log`,
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_Core',
    'GresTypes=gpu',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'JobCompType=jobcomp/none',
    'MpiDefault=none',
    'ReturnToService=2',
    'SchedulerType=sched/backfill',
    // Finished jobs stay visible to scontrol for 5 min (exit codes without accounting).
    'MinJobAge=300',
    'KillWait=1',
    'SchedulerParameters=sched_min_interval=100000',
    // A CPU cluster (gpusPerNode 0) has no gres and states its memory (sinfo reports 1 MB without
    // RealMemory); slurmd refuses a node configured with more than it finds, so it gets 90% of it.
    ...names.map(
      (n, i) =>
        `NodeName=${n} NodeHostname=${host} NodeAddr=127.0.0.1 Port=${ports[i + 1]} CPUs=2 ${o.gpusPerNode ? `Gres=${gres}` : `RealMemory=${Math.floor((totalmem() / 2 ** 20) * 0.9)}`} State=UNKNOWN`,
    ),
    `PartitionName=${partitionName(o)} Nodes=${names.join(',')} Default=YES MaxTime=INFINITE State=UP`,
    '',
  ].join('\n');
}

function writeConfig(dir: string, ports: number[], o: Required<ClusterOptions>, names: string[]): void {
  for (const d of ['state', 'spool', 'dev', ...names.map((n) => `spool/${n}`)]) mkdirSync(path.join(dir, d), { recursive: true });
  writeFileSync(path.join(dir, 'munge.key'), randomBytes(1024), { mode: 0o600 });
  for (let i = 0; i < o.gpusPerNode; i++) symlinkSync('/dev/null', path.join(dir, 'dev', `nvidia${i}`));
  writeFileSync(path.join(dir, 'slurm.conf'), slurmConf(dir, ports, o, names));
  const files = `${dir}/dev/nvidia[0-${o.gpusPerNode - 1}]`;
  writeFileSync(
    path.join(dir, 'gres.conf'),
    o.gpusPerNode ? `AutoDetect=off\nNodeName=${names.join(',')} Name=gpu Type=${o.gpuType} File=${files}\n` : 'AutoDetect=off\n',
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitIdle(cli: SlurmCli, count: number, daemons: ChildProcess[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const dead = daemons.find((d) => d.exitCode !== null);
    if (dead) throw new Error(`test cluster: ${dead.spawnfile} exited with ${dead.exitCode} while starting`);
    last = await runSlurm(cli, 'sinfo', ['-h', '-N', '-o', '%N %T']).catch((e: Error) => e.message);
    if (last.split('\n').filter((l) => / idle$/.test(l.trim())).length === count) return;
    await sleep(250);
  }
  throw new Error(`test cluster: nodes not idle after ${timeoutMs} ms; sinfo says: ${last}`);
}

export async function startTestCluster(opts: ClusterOptions = {}): Promise<TestCluster> {
  const o: Required<ClusterOptions> = { nodes: 2, gpusPerNode: 8, gpuType: 'h100', ...opts };
  const dir = mkdtempSync(path.join(tmpdir(), 'servelab-slurm-'));
  chmodSync(dir, 0o755);
  const names = Array.from({ length: o.nodes }, (_, i) => `sl${i + 1}`);
  const ports: number[] = [];
  const from = testPort();
  for (let i = 0; i <= o.nodes; i++) ports.push(await findFreePort({ host: '0.0.0.0', from, exclude: ports }));
  writeConfig(dir, ports, o, names);
  const env = { ...process.env, SLURM_CONF: path.join(dir, 'slurm.conf'), PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` };
  const cli: SlurmCli = { env: { SLURM_CONF: env.SLURM_CONF, PATH: env.PATH } };
  const daemons: ChildProcess[] = [];
  const start = (cmd: string, args: string[], log: string) => {
    const p = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = path.join(dir, log);
    const chunks: Buffer[] = [];
    p.stdout!.on('data', (b: Buffer) => chunks.push(b));
    p.stderr!.on('data', (b: Buffer) => chunks.push(b));
    p.on('exit', () => writeFileSync(out, Buffer.concat(chunks)));
    daemons.push(p);
    return p;
  };
  // A vitest worker that dies without afterAll must not leave Slurm daemons behind.
  const killAll = () => daemons.forEach((d) => d.exitCode === null && d.signalCode === null && d.kill('SIGKILL'));
  process.once('exit', killAll);
  const stop = async () => {
    process.removeListener('exit', killAll);
    await runSlurm(cli, 'scancel', ['--partition=gpu']).catch(() => undefined);
    await waitNoJobs(cli, 15_000).catch(() => undefined);
    for (const d of [...daemons].reverse()) {
      if (d.exitCode !== null || d.signalCode !== null) continue;
      const exited = new Promise((r) => d.once('exit', r));
      d.kill('SIGTERM');
      await Promise.race([exited, sleep(5000).then(() => d.kill('SIGKILL'))]);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    start(
      'munged',
      [
        '-F',
        `--socket=${dir}/munge.sock`,
        `--key-file=${dir}/munge.key`,
        `--pid-file=${dir}/munged.pid`,
        `--seed-file=${dir}/munged.seed`,
        `--log-file=${dir}/munged.log`,
      ],
      'munged.out',
    );
    await waitFor(() => existsSock(dir), 5000, 'munged socket');
    start('slurmctld', ['-D', '-i', '-f', env.SLURM_CONF], 'slurmctld.out');
    for (const n of names) start('slurmd', ['-D', '-N', n, '-f', env.SLURM_CONF], `slurmd-${n}.out`);
    await waitIdle(cli, names.length, daemons, 30_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return { dir, cli, nodes: names, partition: partitionName(o), gpusPerNode: o.gpusPerNode, gpuType: o.gpuType, stop };
}

function existsSock(dir: string): boolean {
  try {
    return statSync(path.join(dir, 'munge.sock')).isSocket();
  } catch {
    return false;
  }
}

async function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`test cluster: no ${what} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Wait until squeue lists no job at all; returns what it last printed. */
export async function waitNoJobs(cli: SlurmCli, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const out = (await runSlurm(cli, 'squeue', ['-h', '-o', '%i %T'])).trim();
    if (!out || Date.now() > deadline) return out;
    await sleep(200);
  }
}
