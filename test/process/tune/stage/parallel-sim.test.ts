// One small real run of parallel variants: two engines at TP1 on a simulated 2-GPU host, at
// once, each sim-serve pinned to its GPU on its own port with its own client; then the
// whole-host layouts and validation. Real processes on loopback.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../../src/core/events.js';
import { projectSession } from '../../../../src/core/view.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { runSession } from '../../../../src/tune/session/session.js';
import { survivors } from '../../../helpers/e2e/cli.js';
import { testPort } from '../../../helpers/ports.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-parallel-'));
const ports: number[] = [];
afterAll(() => {
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('parallel variants on sim-serve', () => {
  it('runs the engine stage two at a time on disjoint GPUs and ports, and accounts GPU-hours', async () => {
    const port = String(testPort());
    const { config } = parseAutoArgs([
      '--sim',
      '--gpus',
      '2',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'vllm,sglang',
      '--stages',
      'engine',
      '--scale',
      '0.02',
      '--validation',
      'sharegpt-like',
      '--parallel',
      '2',
      '--out',
      dir,
      '--run-dir',
      join(dir, 'run'),
      '--port',
      port,
    ]);
    const events: TuneEvent[] = [];
    const o = await runSession(config!, {
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'variant-launching') ports.push(e.port);
      },
    });
    expect(o.exitCode).toBe(0);
    const launches = events.filter(
      (e): e is Extract<TuneEvent, { type: 'variant-launching' }> => e.type === 'variant-launching' && e.stage === 'engine',
    );
    // The first two, then the same two again at once (the session's first measure of the host's noise),
    // again while they stay tied (up to --repeats-max runs each): always in pairs on GPUs 0 and 1.
    const gpus = launches.map((l) => l.gpuIds);
    expect(gpus.length).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < gpus.length; i += 2) expect(gpus.slice(i, i + 2)).toEqual([[0], [1]]);
    expect(new Set(launches.slice(0, 2).map((l) => l.port)).size).toBe(2);
    // Both were launched before either finished: they ran at the same time.
    const firstFinished = events.findIndex((e) => e.type === 'variant-finished');
    expect(events.indexOf(launches[1]!)).toBeLessThan(firstFinished);
    // The shown real-engine command is pinned like the launched one (results in the listed order,
    // vllm then sglang; SGLang, predicted faster, ran first on GPU 0).
    expect(o.stages[0]!.results.map((r) => r.env?.CUDA_VISIBLE_DEVICES)).toEqual(['1', '0']);
    const view = projectSession(events);
    expect(view.cost?.simulated).toBe(true);
    expect(view.cost?.variantGpuHours).toBeGreaterThan(0);
    expect(view.stages[0]!.rows.every((r) => (r.result.gpuTime?.gpus ?? 0) === 1)).toBe(true);
    expect(o.profile?.cost?.hostGpus).toBe(2);
    expect(survivors(ports)).toEqual([]);
  }, 120_000);
});
