// Sweeps against real sim-serve processes: one launch per sweep, each point journaled when it is
// measured, an early stop when a point breaks the SLO, and --resume after an interrupt that
// measures only the points not yet in the journal.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../src/core/events.js';
import { simulatedHost } from '../../../src/host/gpus.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { Journal } from '../../../src/tune/context/journal.js';
import { makeVariant } from '../../../src/tune/plan/variant-ids.js';
import { runVariantScenarios } from '../../../src/tune/run/runner.js';
import { AbortedError } from '../../../src/core/aborted.js';
import { parseScenario } from '../../../src/tune/config/scenarios.js';
import { parseSlo } from '../../../src/core/slo-rule.js';
import { sweepVariant, type SweepContext } from '../../../src/tune/sweep/sweep-run.js';
import { parseSweep } from '../../../src/sweep/spec.js';
import { survivors } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-sweep-'));
const ports: number[] = [];
afterAll(() => {
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const portStart = testPort();
const { config } = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--port', String(portStart), '--speed', '5']);
const variant = makeVariant('sglang', 'Qwen/Qwen3-14B-FP8', {}, config!, 'Qwen/Qwen3-14B-FP8');
const base = parseScenario('random:200/20', { scale: 1, numPrompts: 40 });

interface CtxExtra extends Partial<SweepContext> {
  slo?: SweepContext['slo'];
  signal?: AbortSignal;
}

function ctx(run: string, events: TuneEvent[], extra: CtxExtra = {}): SweepContext {
  const { signal, ...rest } = extra;
  const cfg = { ...config!, warmupPrompts: 0, slo: [...(extra.slo ?? [])] };
  return {
    run: (v, scenarios, req) =>
      runVariantScenarios(v, scenarios, {
        config: cfg,
        host: simulatedHost('H100', 1),
        logsDir: join(dir, run, 'logs'),
        benchDir: join(dir, run, 'bench'),
        emit: (e) => {
          events.push(e);
          if (e.type === 'variant-launching') ports.push(e.port);
        },
        ...(signal ? { signal } : {}),
        ...req,
      }),
    stage: 'sweep',
    slo: [],
    sweepAll: false,
    prompts: 8,
    ...rest,
  };
}

const started = (events: TuneEvent[]) => events.flatMap((e) => (e.type === 'bench-started' ? [e.scenario] : []));
const launches = (events: TuneEvent[]) => events.filter((e) => e.type === 'variant-launching').length;

describe('sweepVariant', () => {
  it('ends the sweep at the first point that breaks the SLO and journals what it measured', async () => {
    const events: TuneEvent[] = [];
    const journal = Journal.create(join(dir, 'slo'), {});
    const slo = parseSlo('ttft:p99<0.001');
    const s = await sweepVariant(variant, 'sglang fp8', base, parseSweep('concurrency:1,2,4'), ctx('slo', events, { journal, slo }));
    expect(launches(events)).toBe(1);
    // The runner reports each point as it ends: the next level is never started.
    expect(started(events)).toEqual(['random-200-20@c1']);
    expect(s.points.map((p) => p.status)).toEqual(['ok', 'not-run', 'not-run']);
    expect(s.points[0]!.violations[0]).toMatch(/^p99 TTFT \d+ ms >= 0.001 ms$/);
    expect(s.stopped).toMatch(/^1 concurrent broke the SLO .*; higher loads were not run$/);
    expect(journal.entries().map((e) => e.key)).toEqual([`${variant.id}@random-200-20@c1-n8#0`]);
    expect(survivors(ports)).toEqual([]);
  });

  it('keeps the points measured before an interrupt and resumes with only the rest, on one launch', async () => {
    const runDir = join(dir, 'resume');
    const first: TuneEvent[] = [];
    const controller = new AbortController();
    const spec = parseSweep('concurrency:1,2,4');
    const run1 = sweepVariant(variant, 'sglang fp8', base, spec, {
      ...ctx('resume', first, { journal: Journal.create(runDir, {}), signal: controller.signal }),
      // Ctrl-C as soon as the first point is in.
      onPoint: () => controller.abort(),
    });
    await expect(run1).rejects.toBeInstanceOf(AbortedError);
    expect(Journal.open(runDir).entries()).toHaveLength(1);

    const second: TuneEvent[] = [];
    const seen: string[] = [];
    const s = await sweepVariant(
      variant,
      'sglang fp8',
      base,
      spec,
      ctx('resume', second, {
        journal: Journal.open(runDir),
        onPoint: (_v, p) => seen.push(`${p.load.value}${p.resumed ? ' resumed' : ''}`),
      }),
    );
    expect(started(second)).toEqual(['random-200-20@c2', 'random-200-20@c4']);
    expect(launches(second)).toBe(1);
    expect(seen).toEqual(['1 resumed', '2', '4']);
    expect(s.points.map((p) => [p.load.value, p.status, p.metrics?.completed])).toEqual([
      [1, 'ok', 8],
      [2, 'ok', 8],
      [4, 'ok', 8],
    ]);
    expect(Journal.open(runDir).entries()).toHaveLength(3);

    // All points journaled: nothing is launched again.
    const third: TuneEvent[] = [];
    const again = await sweepVariant(variant, 'sglang fp8', base, spec, ctx('resume', third, { journal: Journal.open(runDir) }));
    expect(launches(third)).toBe(0);
    expect(again.points.every((p) => p.resumed && p.status === 'ok')).toBe(true);
    expect(survivors(ports)).toEqual([]);
  });

  it('runs a rate sweep: each point at its request rate, inf sending every request at once', async () => {
    const events: TuneEvent[] = [];
    const s = await sweepVariant(variant, 'sglang fp8', base, parseSweep('rate:2,inf'), ctx('rate', events, { prompts: 6 }));
    expect(launches(events)).toBe(1);
    expect(started(events)).toEqual(['random-200-20@r2', 'random-200-20@rinf']);
    expect(s.points.map((p) => [p.status, p.metrics?.completed])).toEqual([
      ['ok', 6],
      ['ok', 6],
    ]);
    // At 2 req/s the 6 Poisson arrivals spread over about 3 simulated seconds; at inf they come at once.
    const dur = s.points.map((p) => p.metrics!.duration as number);
    expect(dur[0]!).toBeGreaterThan(dur[1]!);
    expect(dur[0]!).toBeGreaterThan(1);
    expect(survivors(ports)).toEqual([]);
  });
});
