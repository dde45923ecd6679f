// The Slurm runtime against a real Slurm (munged + slurmctld + two slurmd on this machine, see
// cluster.ts): discovery, a 1-node sim-serve job, a 2-node job (both ranks, head endpoint over
// HTTP), pending jobs cancelled by an abort, jobs that fail at start, and an empty queue after.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelJob, cancelJobSync } from '../../../src/host/slurm/cancel.js';
import { parseParsable } from '../../../src/host/slurm/submit.js';
import { slurmScript } from '../../../src/profiles/export/slurm.js';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { runSlurm } from '../../../src/host/slurm/cli.js';
import { discoverCluster, largestAllocation } from '../../../src/host/slurm/discover.js';
import { sglangRanks } from '../../../src/host/slurm/engine-ranks.js';
import { engineRanks } from '../../../src/engines/ranks.js';
import { launchSlurmJob, type SlurmLaunchSpec } from '../../../src/host/slurm/job.js';
import { describeJob, queryJob } from '../../../src/host/slurm/state.js';
import { isListening } from '../../../src/host/ports.js';
import { slurmMissing, startTestCluster, type TestCluster } from '../../helpers/slurm/cluster.js';
import { port, runDir, simRankArgv, simServeArgv, waitUntil } from '../../helpers/slurm/helpers.js';
import { skipNote } from '../../helpers/skip.js';

const missing = slurmMissing();
if (missing) console.warn(missing);

describe.skipIf(missing !== null)(`Slurm runtime on a real test cluster${skipNote(missing)}`, () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startTestCluster();
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
  }, 30_000);

  const spec = (name: string, over: Partial<SlurmLaunchSpec> & Pick<SlurmLaunchSpec, 'ranks' | 'port'>): SlurmLaunchSpec => ({
    cli: c.cli,
    runDir: runDir(c.dir, name),
    request: { nodes: 1, gpusPerNode: 8, tasksPerNode: 1, partition: c.partition, time: '10', jobName: `servelab-${name}` },
    env: {},
    ...over,
  });

  it('discovers nodes, GPUs per node and type from gres, the partition and the largest allocation', async () => {
    const cluster = await discoverCluster(c.cli);
    expect(cluster.nodes.map((n) => [n.name, n.gpus, n.gpuType, n.partitions.join(), n.state])).toEqual([
      ['sl1', 8, 'h100', 'gpu', 'idle'],
      ['sl2', 8, 'h100', 'gpu', 'idle'],
    ]);
    expect(cluster.partitions).toMatchObject([{ name: 'gpu', isDefault: true, available: 'up', nodes: ['sl1', 'sl2'] }]);
    expect(largestAllocation(cluster)).toEqual({ partition: 'gpu', nodes: 2, gpusPerNode: 8, gpuType: 'h100' });
    expect(largestAllocation(cluster, 'nosuch')).toBeNull();
  });

  it('runs a 1-node sim-serve job: journal-able ID, RUNNING, endpoint ready, log lines, scancel', async () => {
    const p = await port();
    const lines: string[] = [];
    const states: string[] = [];
    const { ranks } = engineRanks('sglang', simServeArgv(p), {}, { nodes: 1, gpusPerNode: 8, distPort: 0, bindHost: '127.0.0.1' });
    const job = await launchSlurmJob(
      spec('one', { ranks, port: p, onLine: (l) => lines.push(l), onState: (s) => states.push(describeJob(s)) }),
    );
    try {
      expect(job.jobId).toMatch(/^\d+$/);
      const run = await job.waitRunning();
      expect(run).toEqual({ endpoint: `http://127.0.0.1:${p}`, nodes: [expect.stringMatching(/^sl[12]$/)] });
      expect(await job.waitReady(30_000)).toMatchObject({ ready: true });
      const models = (await (await fetch(`http://127.0.0.1:${p}/v1/models`)).json()) as { data: { id: string }[] };
      expect(models.data[0]!.id).toBe('Qwen/Qwen3-14B');
      expect(await waitUntil(() => lines.some((l) => l.includes('The server is fired up and ready to roll!')))).toBe(true);
      expect(lines[0]).toMatch(new RegExp(`^servelab: job ${job.jobId} head sl[12] at 127\\.0\\.0\\.1`));
      expect(states.at(-1)).toMatch(/^RUNNING on sl[12]$/);
    } finally {
      expect(await job.stop()).toEqual({ finalState: 'CANCELLED', gone: true });
    }
    expect(await job.stop()).toEqual({ finalState: 'CANCELLED', gone: true });
    expect(await isListening(p)).toBe(false);
  });

  it('runs a 2-node job: the worker joins the head, the head serves HTTP, both ranks log', async () => {
    const p = await port();
    const dist = await port();
    const lines: string[] = [];
    const { ranks, tasksPerNode } = sglangRanks(simRankArgv(p, ['--dist-timeout', '20']), {
      nodes: 2,
      gpusPerNode: 8,
      distPort: dist,
      bindHost: '127.0.0.1',
    });
    const job = await launchSlurmJob(
      spec('two', {
        ranks,
        port: p,
        request: { nodes: 2, gpusPerNode: 8, tasksPerNode, exclusive: true, partition: c.partition },
        onLine: (l) => lines.push(l),
      }),
    );
    try {
      const run = await job.waitRunning();
      expect(run).toEqual({ endpoint: `http://127.0.0.1:${p}`, nodes: ['sl1', 'sl2'] });
      expect(await job.waitReady(30_000)).toMatchObject({ ready: true });
      expect((await fetch(`http://127.0.0.1:${p}/health`)).status).toBe(200);
      // The worker (node rank 1, TP ranks 8..15) started, and only the head serves HTTP.
      expect(await waitUntil(() => lines.some((l) => /\[.* TP8\] Init torch distributed begin\.$/.test(l)))).toBe(true);
      expect(await waitUntil(() => lines.some((l) => l.includes('Uvicorn running on')))).toBe(true);
      expect(lines.filter((l) => l.includes('Uvicorn running on'))).toHaveLength(1);
      // The head serves TP 16 over both nodes (SGLang's --tp counts all GPUs of the group).
      expect(lines.some((l) => /server_args=ServerArgs\(.*tp_size=16/.test(l))).toBe(true);
    } finally {
      expect(await job.stop()).toMatchObject({ gone: true });
    }
  });

  it('shows pending jobs with their reason (JobHeldUser, Resources) and cancels them on abort', async () => {
    const busy = await launchSlurmJob(
      spec('busy', { ranks: { head: ['sleep', '60'] }, port: 1, request: { nodes: 2, gpusPerNode: 8, tasksPerNode: 1, exclusive: true } }),
    );
    const held = await launchSlurmJob(
      spec('held', { ranks: { head: ['sleep', '60'] }, port: 1, request: { nodes: 1, gpusPerNode: 1, tasksPerNode: 1, hold: true } }),
    );
    try {
      expect(await busy.waitRunning()).toMatchObject({ nodes: ['sl1', 'sl2'] });
      const states: string[] = [];
      const waiting = await launchSlurmJob(
        spec('waiting', { ranks: { head: ['true'] }, port: 1, onState: (s) => states.push(describeJob(s)) }),
      );
      const ctrlC = new AbortController();
      const run = waiting.waitRunning(ctrlC.signal);
      expect(await waitUntil(() => states.length > 0)).toBe(true);
      ctrlC.abort();
      expect(await run).toEqual({ aborted: true });
      expect(states[0]).toMatch(/^PENDING \((Resources|Priority)\)$/);
      expect(await waiting.stop()).toEqual({ finalState: 'CANCELLED', gone: true });
      expect(describeJob((await queryJob(c.cli, held.jobId))!)).toBe('PENDING (JobHeldUser)');
    } finally {
      // The held job as servelab's ledger would cancel it after a crash: synchronously.
      expect(cancelJobSync(c.cli, held.jobId)).toBe(true);
      await Promise.all([held.stop(), busy.stop()]);
    }
    expect((await queryJob(c.cli, held.jobId))!.state).toBe('CANCELLED');
    expect(cancelJobSync(c.cli, held.jobId)).toBe(true);
  });

  it('reads the exit code of a job that fails at start (sim-serve usage error, exit 2)', async () => {
    const lines: string[] = [];
    const job = await launchSlurmJob(
      spec('bad', { ranks: { head: simServeArgv(1, ['--no-such-flag']) }, port: 1, onLine: (l) => lines.push(l) }),
    );
    const run = await job.waitRunning();
    const finished = 'finished' in run ? run.finished : (await job.waitReady(20_000), job.state());
    expect(finished).toMatchObject({ state: 'FAILED', exitCode: 2, reason: 'NonZeroExitCode' });
    await job.stop();
    expect(lines.some((l) => l.startsWith('servelab sim-serve: error:'))).toBe(true);
  });

  it('fails a 2-node job whose worker cannot reach the head, with the engine texts', async () => {
    const dist = await port();
    const lines: string[] = [];
    // The head runs no rendezvous at all, so node rank 1 times out (2 s) like SGLang's TP8 would.
    const worker = sglangRanks(simRankArgv(1, ['--dist-timeout', '2']), { nodes: 2, gpusPerNode: 8, distPort: dist, bindHost: '127.0.0.1' })
      .ranks.head;
    const job = await launchSlurmJob(
      spec('lost', {
        ranks: { head: ['sleep', '60'], worker },
        port: 1,
        request: { nodes: 2, gpusPerNode: 8, tasksPerNode: 1 },
        onLine: (l) => lines.push(l),
      }),
    );
    let run = await job.waitRunning();
    while ('endpoint' in run) run = (await job.waitReady(30_000), await job.waitRunning());
    expect(run).toMatchObject({ finished: { state: 'FAILED' } });
    await job.stop();
    expect(lines).toContain(
      `torch.distributed.DistNetworkError: The client socket has timed out after 2000ms while trying to connect to (127.0.0.1, ${dist}).`,
    );
    expect(lines.some((l) => l.endsWith('Received sigquit from a child process. It usually means the child failed.'))).toBe(true);
  });

  it('runs an exported profile with plain sbatch: the winner serves on the head node', async () => {
    const p = await port();
    const shipped = loadProfile(fileURLToPath(new URL('../../../profiles/Qwen3-14B-H100x1.json', import.meta.url)));
    const dir = runDir(c.dir, 'export');
    const file = path.join(dir, 'qwen.sbatch');
    writeFileSync(
      file,
      slurmScript({ ...shipped, engineArgv: simServeArgv(p) }, 'qwen.json', { partition: c.partition, time: '10', bindHost: '127.0.0.1' }),
    );
    const id = parseParsable(await runSlurm(c.cli, 'sbatch', ['--parsable', `--chdir=${dir}`, file]));
    try {
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = await fetch(`http://127.0.0.1:${p}/health`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).toBe(200);
    } finally {
      expect(await cancelJob(c.cli, id)).toEqual({ finalState: 'CANCELLED', gone: true });
    }
    expect(readFileSync(path.join(dir, `qwen3-14b-fp8-sglang-${id}.out`), 'utf8')).toContain('The server is fired up and ready to roll!');
  });

  it('runs an exported two-node profile with plain sbatch: both ranks start, the head serves', async () => {
    const p = await port();
    const r1 = loadProfile(fileURLToPath(new URL('../../../profiles/DeepSeek-R1-0528-H200x8.json', import.meta.url)));
    // What --runtime slurm saves for a 2-node winner (host.nodes 2), run as the simulated engine.
    const two = {
      ...r1,
      host: { ...r1.host, nodes: 2 },
      variant: { ...r1.variant, knobs: { ...r1.variant.knobs, tp: 16 } },
      engineArgv: simRankArgv(p),
    };
    const dir = runDir(c.dir, 'export-two');
    const file = path.join(dir, 'r1.sbatch');
    writeFileSync(file, slurmScript(two, 'r1.json', { partition: c.partition, time: '10', bindHost: '127.0.0.1' }));
    const id = parseParsable(await runSlurm(c.cli, 'sbatch', ['--parsable', `--chdir=${dir}`, file]));
    try {
      let status = 0;
      for (let i = 0; i < 150 && status !== 200; i++) {
        status = await fetch(`http://127.0.0.1:${p}/health`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).toBe(200);
      expect((await queryJob(c.cli, id))!.nodes).toEqual(['sl1', 'sl2']);
    } finally {
      expect(await cancelJob(c.cli, id)).toEqual({ finalState: 'CANCELLED', gone: true });
    }
    const out = readFileSync(path.join(dir, `deepseek-r1-0528-sglang-${id}.out`), 'utf8');
    expect(out).toMatch(/\[.* TP8\] Init torch distributed begin\./);
  });

  it('leaves no job in squeue', async () => {
    expect((await runSlurm(c.cli, 'squeue', ['-h', '-o', '%i %T'])).trim()).toBe('');
  });
});
