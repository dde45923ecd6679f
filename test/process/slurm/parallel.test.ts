// Parallel variants (--parallel) on `--runtime slurm`, on the real test cluster (two nodes of 8
// GPUs and 2 CPUs each, so Slurm puts two one-CPU jobs on a node): a wave's variants are each their own job asking for --gres=gpu:N, run at the same time,
// and Slurm gives them disjoint GPUs (recorded from `scontrol -d`, not servelab's slot plan);
// stopping one variant cancels its job only; the session's abort (Ctrl-C) cancels every job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TuneEvent, VariantResult } from '../../../src/core/events.js';
import { simulatedHost } from '../../../src/host/gpus.js';
import { liveServers } from '../../../src/host/registry.js';
import { runSlurm } from '../../../src/host/slurm/cli.js';
import { queryJob } from '../../../src/host/slurm/state.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { planWaves, runParallel } from '../../../src/tune/stage/parallel.js';
import { makeVariant } from '../../../src/tune/plan/variant-ids.js';
import { runVariantScenarios } from '../../../src/tune/run/runner.js';
import type { RunVariantContext } from '../../../src/tune/run/contract/types.js';
import { AbortedError } from '../../../src/core/aborted.js';
import { parseScenario } from '../../../src/tune/config/scenarios.js';
import { ambientTestCluster } from '../../helpers/slurm/ambient-cluster.js';
import { slurmMissing } from '../../helpers/slurm/cluster.js';
import { port, runDir, waitUntil } from '../../helpers/slurm/helpers.js';
import { skipNote } from '../../helpers/skip.js';

const missing = slurmMissing();
if (missing) console.warn(missing);

type JobState = Extract<TuneEvent, { type: 'job-state' }>;

describe.skipIf(missing !== null)(`--parallel with --runtime slurm${skipNote(missing)}`, () => {
  const h = ambientTestCluster();

  // Long enough (about 300 tokens at 8-10 ms each, real time) that the three jobs overlap.
  const scenario = parseScenario('random:100/300', { scale: 1, numPrompts: 16 });

  /** A wave of three TP2 variants as the stage runs it: planWaves slots (GPU set, port) and runParallel. */
  async function wave(name: string, events: TuneEvent[], signal: AbortSignal, skip: (AbortSignal | undefined)[] = []) {
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
      '--parallel',
      '3',
    ];
    const { config } = parseAutoArgs([
      ...args,
      '--model',
      'Qwen/Qwen3-14B',
      '--host',
      '127.0.0.1',
      '--port',
      String(await port()),
      '--ready-timeout',
      '60',
      '--speed',
      '1',
    ]);
    const runtime = { ...(config!.runtime as Extract<RunVariantContext['config']['runtime'], { kind: 'slurm' }>), gpusPerNode: 8 };
    const base: RunVariantContext = {
      config: { ...config!, runtime },
      host: simulatedHost('H100', 16),
      logsDir: runDir(h.c.dir, name),
      emit: (e) => events.push(e),
      stage: 'batching',
      signal,
      usedPorts: new Set(),
    };
    const variants = [1024, 2048, 4096].map((n) =>
      makeVariant('sglang', 'Qwen/Qwen3-14B', { tp: 2, maxBatchedTokens: n }, base.config as never),
    );
    const [slots] = planWaves(
      variants.map((v) => ({ id: v.id, gpus: 2 })),
      [...Array(16).keys()],
      3,
      { base: base.config.portStart },
    );
    expect(slots).toHaveLength(3);
    const tasks = slots!.map((slot, i) => (s: AbortSignal) => {
      const v = variants[i]!;
      const ctx = {
        ...base,
        signal: s,
        gpuIds: slot.gpuIds,
        config: { ...base.config, portStart: slot.port },
        ...(skip[i] ? { skipSignal: skip[i] } : {}),
      };
      return runVariantScenarios(v, [scenario], ctx);
    });
    return { variants, run: runParallel(tasks, 3, signal) };
  }
  const jobStates = (events: TuneEvent[]) => events.filter((e): e is JobState => e.type === 'job-state');
  const jobOf = (events: TuneEvent[], id: string) => jobStates(events).find((e) => e.variantId === id)!.jobId;
  const runningWithGpus = (events: TuneEvent[]) => jobStates(events).filter((e) => e.state === 'RUNNING' && / GPU /.test(e.text));

  it('runs the wave at once, each variant its own job, on disjoint GPUs Slurm chose; stopping one cancels its job only', async () => {
    const events: TuneEvent[] = [];
    const skip = new AbortController();
    const { variants, run } = await wave('par-ok', events, new AbortController().signal, [undefined, skip.signal, undefined]);
    // Stop the second variant (a skip, as early stop and the user's skip do) once all three jobs hold GPUs.
    expect(await waitUntil(() => runningWithGpus(events).length === 3, 60_000)).toBe(true);
    skip.abort();
    const outcomes = await run;
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const results = outcomes.map((o) => (o as { value: VariantResult[] }).value[0]!);
    expect(results.map((r) => r.status)).toEqual(['ok', 'skipped', 'ok']);
    expect((await queryJob(h.c.cli, jobOf(events, variants[1]!.id)))!.state).toBe('CANCELLED');
    // Three jobs, all RUNNING with their GPUs before the first variant stopped (in event order).
    expect(new Set(jobStates(events).map((e) => e.jobId)).size).toBe(3);
    expect(
      runningWithGpus(events)
        .map((e) => e.variantId)
        .sort(),
    ).toEqual(variants.map((v) => v.id).sort());
    const lastRunning = Math.max(...runningWithGpus(events).map((e) => events.indexOf(e)));
    expect(lastRunning).toBeLessThan(events.findIndex((e) => e.type === 'server-stopping'));
    // Disjoint GPU sets, per node, as Slurm gave them (scontrol -d), recorded instead of the slot plan's.
    const held = results.flatMap((r) => {
      const m = /^RUNNING on (sl\d) GPU ([\d,]+) /.exec(runningWithGpus(events).find((e) => e.variantId === r.variantId)!.text)!;
      expect(r.gpuIds).toEqual(m[2]!.split(',').map(Number));
      expect(r.gpuIds).toHaveLength(2);
      return r.gpuIds!.map((g) => `${m[1]}:${g}`);
    });
    expect(new Set(held).size).toBe(6);
    // Two jobs shared a node (2 CPUs, one per job): there the sets had to differ.
    const nodes = held.map((h) => h.split(':')[0]);
    expect(Math.max(...['sl1', 'sl2'].map((n) => nodes.filter((x) => x === n).length))).toBe(4);
  });

  it('Ctrl-C (the session abort) cancels every job of the wave', async () => {
    const events: TuneEvent[] = [];
    const ctrlC = new AbortController();
    const { variants, run } = await wave('par-abort', events, ctrlC.signal);
    expect(await waitUntil(() => runningWithGpus(events).length === 3, 60_000)).toBe(true);
    ctrlC.abort('SIGINT');
    const outcomes = await run;
    for (const o of outcomes) expect(o.status === 'rejected' && o.reason instanceof AbortedError).toBe(true);
    for (const v of variants) expect((await queryJob(h.c.cli, jobOf(events, v.id)))!.state).toBe('CANCELLED');
    expect(liveServers()).toEqual([]);
    expect((await runSlurm(h.c.cli, 'squeue', ['-h', '-o', '%i %T'])).trim()).toBe('');
  });
});
