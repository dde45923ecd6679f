// Acceptance, for real: `servelab --auto --runtime slurm --engines llamacpp --model FILE.gguf` on
// the test cluster without GPUs (test/helpers/slurm/cluster.ts, gpusPerNode 0: partition cpu, 2 CPUs per
// node) submits each variant as a Slurm job running the real llama-server on a random-weight
// GGUF, benchmarks it over HTTP, cancels it, and saves a profile. The jobs ask for no GPU and for
// the CPUs their threads use (scontrol's own record of each job says so); nothing is left in the
// queue and no llama-server survives. Outputs are meaningless (random weights); no speed is asserted.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TuneEvent } from '../../../src/core/events.js';
import { runSlurm } from '../../../src/host/slurm/cli.js';
import { removeDir, runCli, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { freshPort, leftServers, LLAMA_SERVER, LLAMA_SKIP, SMALL, testGguf } from '../../helpers/llamacpp/helpers.js';
import { slurmMissing, startTestCluster, waitNoJobs, type TestCluster } from '../../helpers/slurm/cluster.js';
import { skipNote } from '../../helpers/skip.js';

const missing = slurmMissing() ?? LLAMA_SKIP;
if (missing) console.warn(missing);

const title = `--runtime slurm with llama-server jobs on a CPU partition${skipNote(missing)}`;
describe.skipIf(missing !== undefined)(title, { timeout: 240_000 }, () => {
  const cwd = tempDir('slurm-llama');
  const runDir = path.join(cwd, 'run');
  let c: TestCluster | undefined;
  let run: CliRun | undefined;
  const journal = (): TuneEvent[] =>
    existsSync(path.join(runDir, 'events.jsonl'))
      ? readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as TuneEvent)
      : [];

  beforeAll(async () => {
    c = await startTestCluster({ gpusPerNode: 0 });
  }, 60_000);
  afterAll(async () => {
    for (const pid of leftServers(journal())) process.kill(pid, 'SIGKILL');
    if (c) await runSlurm(c.cli, 'scancel', ['--full', '--quiet', '-u', 'root']).catch(() => undefined);
    await c?.stop();
    removeDir(cwd);
  }, 30_000);

  it('submits CPU jobs (no GPU, CPUs per task from -t/-tb), benchmarks them, cancels them and saves a profile', async () => {
    const args = [
      '--auto',
      '--runtime',
      'slurm',
      '--partition',
      c!.partition,
      '--time',
      '10',
      '--engines',
      'llamacpp',
      '--model',
      testGguf(),
      ...SMALL,
    ];
    run = await runCli(
      [
        ...args,
        '--stages',
        'engine,threads',
        '--no-early-stop',
        '--host',
        '127.0.0.1',
        '--port',
        freshPort(),
        '--run-dir',
        runDir,
        '--out',
        cwd,
      ],
      cwd,
      undefined,
      200_000,
      c!.cli.env as Record<string, string>,
    );
    const out = run.stdout + run.stderr;
    expect(run.code, out.slice(-3000)).toBe(0);

    // What the user reads: each variant is a Slurm job on the cluster, sized for the CPU.
    expect(out).toMatch(/llamacpp: Slurm job \d+ submitted \(1 node\(s\) x 2 CPU\(s\), no GPU\)/);
    expect(out).toMatch(/llamacpp-t-1: Slurm job \d+ submitted \(1 node\(s\) x 1 CPU\(s\), no GPU\)/);
    expect(out).toMatch(/llamacpp-t-1: Slurm job \d+ RUNNING on sl[12]/);
    expect(out).toMatch(/llamacpp-t-1: [\d.]+ tok\/s total/);
    expect(out).not.toMatch(/GPU 0 \(Slurm's GRES allocation/);
    expect(out).toMatch(/Profile: \S+-cpu\.json/);

    // Slurm's own record of each job: no GPU in its TRES, CPUs per task as the threads ask
    // (llama-server's default -t is the machine's cores: the node's 2 CPUs; -tb alone keeps -t's default).
    const events = journal();
    const jobs = new Map(
      events.flatMap((e) => (e.type === 'job-state' && e.state === 'SUBMITTED' ? [[e.variantId, e.jobId] as const] : [])),
    );
    const want: Record<string, number> = { llamacpp: 2, 'llamacpp-t-1': 1, 'llamacpp-t-2': 2, 'llamacpp-tb-1': 2, 'llamacpp-tb-2': 2 };
    expect([...jobs.keys()].sort()).toEqual(Object.keys(want).sort());
    for (const [variant, id] of jobs) {
      const record = await runSlurm(c!.cli, 'scontrol', ['show', 'job', '-o', id]);
      expect(record, variant).toContain(`CPUs/Task=${want[variant]}`);
      expect(record, variant).toMatch(/\bTRES=cpu=\d+,/);
      expect(record, variant).not.toMatch(/gres\/gpu|TresPerNode=\S*gpu/);
      expect(readFileSync(path.join(runDir, 'logs', variant, 'job.sbatch'), 'utf8')).toContain(
        `srun --nodes=1 --ntasks-per-node=1 --cpus-per-task=${want[variant]} `,
      );
    }

    // The profile names the real server and the CPU host.
    const saved = /Profile: (\S+)/.exec(out)![1]!;
    const profile = JSON.parse(readFileSync(saved, 'utf8')) as {
      argv: string[];
      host: { gpuCount: number; simulated: boolean };
      variant: { id: string };
    };
    expect(profile.argv[0]).toBe(LLAMA_SERVER);
    expect(profile.host).toMatchObject({ gpuCount: 0, simulated: false });

    // Its `export --format slurm` is a CPU job too: no gres, the winner's CPUs for sbatch and srun.
    const exported = (await runCli(['export', saved, '--format', 'slurm'], cwd)).stdout;
    expect(exported).not.toContain('--gres');
    expect(exported).toContain(`#SBATCH --cpus-per-task=${want[profile.variant.id]}`);
    expect(exported).toMatch(/^srun --nodes=1 --ntasks-per-node=1 --cpus-per-task=\d --kill-on-bad-exit=1 bash -c 'exec llama-server /m);

    // Every job was cancelled and no llama-server is left on any node.
    expect(await waitNoJobs(c!.cli, 15_000)).toBe('');
    expect(leftServers(events)).toEqual([]);
  });
});
