// `--runtime slurm` through the runner (runVariantScenarios -> startServer's slurm branch) on the
// real test cluster: a 1-node variant and a 2-node SGLang variant benchmarked on the head
// endpoint, a pending job cancelled by the session's abort (the Ctrl-C path), a job that fails
// at start classified from its output file, and an empty queue after.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TuneEvent } from '../../../src/core/events.js';
import { simulatedHost } from '../../../src/host/gpus.js';
import { liveServers } from '../../../src/host/registry.js';
import { launchSlurmJob } from '../../../src/host/slurm/job.js';
import { queryJob } from '../../../src/host/slurm/state.js';
import { runSlurm } from '../../../src/host/slurm/cli.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { makeVariant } from '../../../src/tune/plan/variant-ids.js';
import { runVariantScenarios } from '../../../src/tune/run/runner.js';
import type { RunVariantContext } from '../../../src/tune/run/contract/types.js';
import { AbortedError } from '../../../src/core/aborted.js';
import { parseScenario } from '../../../src/tune/config/scenarios.js';
import { planSession } from '../../../src/tune/session/session.js';
import { ambientTestCluster } from '../../helpers/slurm/ambient-cluster.js';
import { slurmMissing } from '../../helpers/slurm/cluster.js';
import { port, runDir, SERVELAB_BIN, waitUntil } from '../../helpers/slurm/helpers.js';
import { skipNote } from '../../helpers/skip.js';

const missing = slurmMissing();
if (missing) console.warn(missing);

describe.skipIf(missing !== null)(`--runtime slurm through the runner${skipNote(missing)}`, () => {
  const h = ambientTestCluster();

  const scenario = parseScenario('random:200/20', { scale: 1, numPrompts: 8 });
  async function context(name: string, events: TuneEvent[], signal?: AbortSignal): Promise<RunVariantContext> {
    const args = [
      '--sim',
      '--runtime',
      'slurm',
      '--nodes',
      '2',
      '--gpus',
      '8',
      '--gpu',
      'H100',
      '--partition',
      h.c.partition,
      '--time',
      '10',
    ];
    const { config } = parseAutoArgs([
      ...args,
      '--model',
      'deepseek-ai/DeepSeek-R1-0528',
      '--host',
      '127.0.0.1',
      '--port',
      String(await port()),
      '--ready-timeout',
      '60',
      '--speed',
      '5',
    ]);
    const runtime = { ...(config!.runtime as Extract<RunVariantContext['config']['runtime'], { kind: 'slurm' }>), gpusPerNode: 8 };
    return {
      config: { ...config!, runtime },
      host: simulatedHost('H100', 16),
      logsDir: runDir(h.c.dir, name),
      emit: (e) => events.push(e),
      stage: 'test',
      ...(signal ? { signal } : {}),
    };
  }
  const jobOf = (events: TuneEvent[]) => events.find((e): e is Extract<TuneEvent, { type: 'job-state' }> => e.type === 'job-state')?.jobId;
  const states = (events: TuneEvent[]) => events.flatMap((e) => (e.type === 'job-state' ? [e.text] : []));

  it('runs a 1-node variant as a job, benchmarks it and cancels the job', async () => {
    const events: TuneEvent[] = [];
    const ctx = await context('runner-one', events);
    const variant = makeVariant('sglang', 'Qwen/Qwen3-14B', { tp: 8 }, ctx.config as never);
    const [r] = await runVariantScenarios(variant, [scenario], ctx);
    expect(r!.failure).toBeUndefined();
    expect(r!.status).toBe('ok');
    expect(r!.metrics!.completed).toBe(8);
    expect(states(events)[0]).toBe('submitted (1 node(s) x 8 GPU(s))');
    expect(states(events)).toContainEqual(expect.stringMatching(/^RUNNING on sl[12]$/));
    expect(events.some((e) => e.type === 'server-log' && e.line.includes('The server is fired up and ready to roll!'))).toBe(true);
    expect(events.some((e) => e.type === 'server-metrics')).toBe(true);
    expect((await queryJob(h.c.cli, jobOf(events)!))!.state).toBe('CANCELLED');
    expect(liveServers()).toEqual([]);
  });

  it('runs a 2-node SGLang variant: both ranks start, the head endpoint is benchmarked', async () => {
    const events: TuneEvent[] = [];
    const ctx = await context('runner-two', events);
    const variant = makeVariant('sglang', 'deepseek-ai/DeepSeek-R1-0528', { tp: 16 }, ctx.config as never);
    const [r] = await runVariantScenarios(variant, [scenario], ctx);
    expect(r!.status).toBe('ok');
    expect(r!.metrics!.completed).toBe(8);
    const lines = events.flatMap((e) => (e.type === 'server-log' ? [e.line] : []));
    expect(states(events)).toContain('RUNNING on sl1,sl2');
    // Node rank 1 (TP ranks 8..15) joined; the head serves TP 16 over both nodes.
    expect(lines.some((l) => /\[.* TP8\] Init torch distributed begin\.$/.test(l))).toBe(true);
    expect(lines.some((l) => /server_args=ServerArgs\(.*tp_size=16/.test(l))).toBe(true);
    expect((await queryJob(h.c.cli, jobOf(events)!))!.state).toBe('CANCELLED');
  });

  it('shows a pending job with its reason and cancels it when the session is aborted (Ctrl-C)', async () => {
    const busy = await launchSlurmJob({
      cli: h.c.cli,
      runDir: runDir(h.c.dir, 'runner-busy'),
      request: { nodes: 2, gpusPerNode: 8, tasksPerNode: 1, exclusive: true, partition: h.c.partition },
      env: {},
      ranks: { head: ['sleep', '60'] },
      port: 1,
    });
    try {
      expect(await busy.waitRunning()).toMatchObject({ nodes: ['sl1', 'sl2'] });
      const events: TuneEvent[] = [];
      const ctrlC = new AbortController();
      const ctx = await context('runner-pending', events, ctrlC.signal);
      const run = runVariantScenarios(makeVariant('sglang', 'Qwen/Qwen3-14B', { tp: 8 }, ctx.config as never), [scenario], ctx);
      expect(await waitUntil(() => states(events).some((s) => /^PENDING \((Resources|Priority)\)$/.test(s)))).toBe(true);
      ctrlC.abort('SIGINT');
      await expect(run).rejects.toBeInstanceOf(AbortedError);
      expect((await queryJob(h.c.cli, jobOf(events)!))!.state).toBe('CANCELLED');
      expect(events.some((e) => e.type === 'server-log' && /Slurm job \d+ PENDING \((Resources|Priority)\)/.test(e.line))).toBe(true);
    } finally {
      await busy.stop();
    }
  });

  it('classifies a job that fails at start from its output file', async () => {
    const events: TuneEvent[] = [];
    const ctx = await context('runner-bad', events);
    const variant = makeVariant('vllm', 'no-such-org/NoSuchModel-7B', {}, ctx.config as never);
    const [r] = await runVariantScenarios(variant, [scenario], ctx);
    expect(r!.status).toBe('failed');
    expect(r!.failure).toMatchObject({ kind: 'model-not-found' });
    expect(r!.failure!.reason).toMatch(/\(Slurm job \d+: FAILED exit 1 \(NonZeroExitCode\)\)$/);
    expect(r!.failure!.evidence!.length).toBeGreaterThan(0);
  });

  /** `servelab --auto --runtime slurm` as a child whose only variant stays PENDING behind `busy`. */
  async function pendingCli(name: string): Promise<{ child: ChildProcess; jobId: string; exited: Promise<number | null>; state: string }> {
    const state = mkdtempSync(path.join(h.c.dir, `${name}-state-`));
    const argv = [
      '--auto',
      '--runtime',
      'slurm',
      '--sim',
      '--nodes',
      '2',
      '--gpus',
      '8',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'sglang',
      '--stages',
      'engine',
      '--validation',
      'none',
      '--host',
      '127.0.0.1',
      '--port',
      String(await port()),
      '--runs-dir',
      path.join(h.c.dir, name),
      '--json',
    ];
    const child = spawn(process.execPath, [SERVELAB_BIN, ...argv], {
      env: { ...process.env, ...h.c.cli.env, XDG_STATE_HOME: state },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code, sig) => r(code ?? (sig ? -1 : null))));
    let jobId = '';
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /"type":"job-state","variantId":"[^"]+","jobId":"(\d+)","state":"PENDING"/.exec(out);
      if (m) jobId = m[1]!;
    });
    expect(await waitUntil(() => jobId !== '', 30_000)).toBe(true);
    return { child, jobId, exited, state };
  }

  it('scancels the pending job of `servelab --auto` on SIGTERM and SIGHUP (exit 143, 129), and after its SIGKILL through the ledger', async () => {
    const busy = await launchSlurmJob({
      cli: h.c.cli,
      runDir: runDir(h.c.dir, 'cli-busy'),
      request: { nodes: 2, gpusPerNode: 8, tasksPerNode: 1, exclusive: true, partition: h.c.partition },
      env: {},
      ranks: { head: ['sleep', '60'] },
      port: 1,
    });
    try {
      await busy.waitRunning();
      for (const [sig, code] of [
        ['SIGTERM', 143],
        ['SIGHUP', 129],
      ] as const) {
        const run = await pendingCli(`cli-${sig}`);
        run.child.kill(sig);
        expect(await run.exited).toBe(code);
        expect((await queryJob(h.c.cli, run.jobId))!.state).toBe('CANCELLED');
        // The ledger entry of the job is gone once it was cancelled.
        expect(readdirSync(path.join(run.state, 'servelab', 'servers')).filter((f) => f.endsWith('.json'))).toEqual([]);
      }
      // servelab's own death: the job stays queued, its ledger entry names it, `servelab gpus --yes` cancels it.
      const dead = await pendingCli('cli-SIGKILL');
      dead.child.kill('SIGKILL');
      await dead.exited;
      expect((await queryJob(h.c.cli, dead.jobId))!.state).toBe('PENDING');
      const env = { ...process.env, ...h.c.cli.env, XDG_STATE_HOME: dead.state };
      const said = execFileSync(process.execPath, [SERVELAB_BIN, 'gpus', '--sim', '--yes'], { env, encoding: 'utf8' });
      expect(said).toContain(`cancelled leftover Slurm job ${dead.jobId}`);
      expect((await queryJob(h.c.cli, dead.jobId))!.state).toBe('CANCELLED');
    } finally {
      await busy.stop();
    }
  });

  it('plans a real cluster from Slurm: nodes x GPUs of the gres type, TP over both nodes for a model one node cannot hold', async () => {
    const { config } = parseAutoArgs([
      '--runtime',
      'slurm',
      '--partition',
      h.c.partition,
      '--model',
      'deepseek-ai/DeepSeek-R1-0528',
      '--engines',
      'sglang',
      '--runs-dir',
      path.join(h.c.dir, 'plan'),
    ]);
    const { plan, host } = await planSession(config!);
    expect(host).toMatchObject({ simulated: false, gpusPerNode: 8 });
    expect(host.gpus).toHaveLength(16);
    expect(plan.host).toMatchObject({ gpuName: 'H100 SXM 80GB', gpuCount: 16, gpusPerNode: 8 });
    expect(config!.runtime).toMatchObject({ kind: 'slurm', nodes: 2, gpusPerNode: 8 });
    expect(plan.stages[0]!.variants.map((v) => v.variant.knobs.tp)).toEqual([16]);
    // More nodes than the partition has: one line naming the allocation, before anything is submitted.
    const big = parseAutoArgs([
      '--runtime',
      'slurm',
      '--partition',
      h.c.partition,
      '--sim',
      '--nodes',
      '4',
      '--gpus',
      '8',
      '--model',
      'deepseek-ai/DeepSeek-R1-0528',
    ]).config!;
    await expect(planSession(big)).rejects.toThrow(
      'slurm: partition gpu offers at most 2 node(s) x 8 h100 GPU(s) per job; this needs 4 x 8',
    );
  });

  it('leaves no job in squeue', async () => {
    expect((await runSlurm(h.c.cli, 'squeue', ['-h', '-o', '%i %T'])).trim()).toBe('');
  });
});
