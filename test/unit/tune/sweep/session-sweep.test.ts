// runSession with --sweep / --objective frontier on a scripted, load-aware runner: the finalists
// are swept after the stages, the frontier's choice replaces the staged winner and validation
// runs it at the chosen load; an interrupted sweep resumes with only the missing points; the
// flags refuse bad input with one line.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../../src/core/events.js';
import { UserError } from '../../../../src/core/errors.js';
import { projectSession } from '../../../../src/core/view.js';
import { readRunEvents } from '../../../../src/core/view-read.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { runSession } from '../../../../src/tune/session/session.js';
import { summaryText } from '../../../../src/cli/text.js';
import { loadRunner, type LoadModel } from '../../../helpers/tune/scripted-sweep-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-sweep-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function configFor(extra: string[]) {
  const runDir = join(dir, `run-${++n}`);
  const { config } = parseAutoArgs([
    '--sim',
    '--model',
    'Qwen/Qwen3-14B',
    '--engines',
    'sglang,vllm',
    '--stages',
    'engine',
    '--scale',
    '0.02',
    '--validation',
    'sharegpt-like,random-2000-100',
    '--out',
    join(dir, `out-${n}`),
    '--run-dir',
    runDir,
    ...extra,
  ]);
  return config!;
}

// sglang is faster with every request at once (the staged winner); vllm keeps a lower TPOT as
// load grows, so under a TPOT SLO it serves more tokens: the frontier should pick vllm.
const model: LoadModel = (id, c) => {
  if (c === null) return { output: id === 'sglang' ? 2000 : 1500, tpotMs: 50 };
  const tpot = id === 'sglang' ? 10 * (1 + c / 8) : 12 * (1 + c / 40);
  return { output: (c * 1000) / tpot, tpotMs: tpot };
};
const FRONTIER = ['--slo', 'tpot:p99<60', '--objective', 'frontier', '--sweep', 'concurrency:1,8,32,128'];

describe('a session with --objective frontier', () => {
  it('sweeps baseline and winner, stops each at the first SLO break, and lets the frontier choose', async () => {
    const { run, benched } = loadRunner(model);
    const events: TuneEvent[] = [];
    const o = await runSession(configFor(FRONTIER), { runner: run, onEvent: (e) => events.push(e) });
    expect(o.exitCode).toBe(0);
    // The stage chose sglang (all at once); the sweep stops sglang at c32 (p99 TPOT 60 ms is not < 60).
    expect(o.stages[0]!.winnerId).toBe('sglang');
    expect(benched.filter((b) => b.startsWith('sweep:'))).toEqual([
      'sweep:vllm:sharegpt-like@c1',
      'sweep:vllm:sharegpt-like@c8',
      'sweep:vllm:sharegpt-like@c32',
      'sweep:vllm:sharegpt-like@c128',
      'sweep:sglang:sharegpt-like@c1',
      'sweep:sglang:sharegpt-like@c8',
      'sweep:sglang:sharegpt-like@c32',
    ]);
    const started = events.find((e) => e.type === 'sweep-started');
    expect(started).toMatchObject({
      spec: 'concurrency:1,8,32,128',
      slo: 'tpot:p99<60',
      variants: [
        { variantId: 'vllm', why: 'baseline' },
        { variantId: 'sglang', why: 'winner' },
      ],
    });
    const finished = events.find((e): e is Extract<TuneEvent, { type: 'sweep-finished' }> => e.type === 'sweep-finished')!;
    expect(finished.decides).toBe(true);
    // vllm at 32: TPOT 21.6 ms -> 1,481 output tok/s on one GPU; p99 25.9 ms meets the SLO.
    expect(finished.choice).toMatchObject({ variantId: 'vllm', load: { kind: 'concurrency', value: 32 } });
    expect(finished.choice!.sentence).toBe('vllm defaults: 1,481 tok/s/GPU at 32 concurrent, TPOT p99 26 ms');
    expect(finished.choice!.runnerUp).toBe('sglang defaults: 400 tok/s/GPU at 8 concurrent, TPOT p99 24 ms');
    // The choice is the session's variant; validation runs it (baseline = choice: once) at 32.
    expect(o.winner?.variantId).toBe('vllm');
    expect(o.profile?.variant.id).toBe('vllm');
    // The tuning workload at 32 is the sweep's own point (same key in the journal): reused.
    expect(benched.filter((b) => b.startsWith('validation:'))).toEqual(['validation:vllm:random-2000-100@c32']);
    expect(o.validation.map((r) => r.scenario)).toEqual(['sharegpt-like@c32', 'random-2000-100@c32']);
    // Profile: sweep section with the chart beside the report, linked from it.
    expect(o.profile?.sweep?.chosen).toMatchObject({ variantId: 'vllm', load: { kind: 'concurrency', value: 32 } });
    const chart = o.profile!.sweep!.chart!;
    expect(existsSync(join(dir, `out-${n}`, 'profiles', chart))).toBe(true);
    expect(readFileSync(o.reportPath!, 'utf8')).toContain(`](${chart})`);
    expect(JSON.parse(readFileSync(o.profilePath!, 'utf8')).sweep.chart).toBe(chart);
    // The journaled stream projects to the same choice, with a series per variant for a chart.
    const view = projectSession(readRunEvents(o.runDir), { ended: true });
    expect(view.winner?.variantId).toBe('vllm');
    expect(view.sweep?.series.map((s) => [s.variantId, s.points.map((p) => `${p.load.value}:${p.status}`)])).toEqual([
      ['vllm', ['1:ok', '8:ok', '32:ok', '128:ok']],
      ['sglang', ['1:ok', '8:ok', '32:ok', '128:not-run']],
    ]);
    const text = summaryText(view);
    expect(text).toContain('Chosen: vllm defaults: 1,481 tok/s/GPU at 32 concurrent, TPOT p99 26 ms');
    expect(text).toContain('runner-up: sglang defaults: 400 tok/s/GPU at 8 concurrent');
  });

  it('resumes an interrupted sweep: journaled points are reused, only the missing ones run', async () => {
    const config = configFor(FRONTIER);
    const abort = new AbortController();
    const first = loadRunner(model, abort.signal);
    const o1 = await runSession(config, {
      runner: first.run,
      signal: abort.signal,
      // Ctrl-C once vllm's c8 point is in.
      onEvent: (e) => e.type === 'sweep-point' && e.variantId === 'vllm' && e.load.value === 8 && abort.abort(),
    });
    expect(o1.exitCode).toBe(130);
    expect(first.benched.filter((b) => b.startsWith('sweep:'))).toEqual(['sweep:vllm:sharegpt-like@c1', 'sweep:vllm:sharegpt-like@c8']);
    const second = loadRunner(model);
    const events: TuneEvent[] = [];
    const o2 = await runSession(config, { runner: second.run, resume: true, onEvent: (e) => events.push(e) });
    expect(o2.exitCode).toBe(0);
    // Nothing of the stages and neither journaled point is measured again.
    expect(second.benched.filter((b) => !b.startsWith('validation:'))).toEqual([
      'sweep:vllm:sharegpt-like@c32',
      'sweep:vllm:sharegpt-like@c128',
      'sweep:sglang:sharegpt-like@c1',
      'sweep:sglang:sharegpt-like@c8',
      'sweep:sglang:sharegpt-like@c32',
    ]);
    const resumed = events
      .filter((e) => e.type === 'sweep-point' && e.resumed)
      .map((e) => (e.type === 'sweep-point' ? `${e.variantId}@${e.load.value}` : ''));
    expect(resumed).toEqual(['vllm@1', 'vllm@8']);
    expect(o2.profile?.sweep?.chosen?.variantId).toBe('vllm');
  });

  it('with --sweep but another objective, records the frontier and keeps the staged winner', async () => {
    const { run } = loadRunner(model);
    const o = await runSession(configFor(['--slo', 'tpot:p99<60', '--sweep', 'concurrency:8,32']), { runner: run });
    expect(o.winner?.variantId).toBe('sglang');
    expect(o.profile?.sweep?.chosen?.variantId).toBe('vllm');
    expect(o.profile?.notes.join('\n')).toMatch(/Frontier choice \(not applied: the objective is not frontier\): vllm/);
  });
});

describe('--sweep flags', () => {
  const base = ['--sim', '--model', 'Qwen/Qwen3-14B'];
  const bad = (args: string[]) => {
    try {
      parseAutoArgs([...base, ...args]);
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      expect((e as Error).message).not.toContain('\n');
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  it('parses the sweep and the frontier objective into the stored config', () => {
    const c = parseAutoArgs([...base, '--slo', 'tpot:p99<60', '--objective', 'frontier', '--sweep', 'rate:4,1,inf', '--sweep-all']).config!;
    expect(c.sweep).toEqual({ spec: 'rate:1,4,inf', all: true, frontier: true });
    expect(c.objective).toBe('output');
    expect(parseAutoArgs([...base, '--slo', 'tpot:p99<60', '--objective', 'frontier']).config!.sweep?.spec).toBe(
      'concurrency:1,4,16,64,256',
    );
    expect(parseAutoArgs(base).config!.sweep).toBeUndefined();
  });

  it('refuses bad input with one line', () => {
    expect(bad(['--objective', 'frontier'])).toMatch(/--objective frontier needs --slo/);
    expect(bad(['--sweep', 'load:1,2'])).toMatch(/^bad --sweep 'load:1,2'/);
    expect(bad(['--sweep', 'concurrency:0,4'])).toMatch(/a concurrency is a whole number >= 1/);
    expect(bad(['--sweep-all'])).toMatch(/--sweep-all needs --sweep/);
  });
});
