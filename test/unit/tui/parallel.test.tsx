// Cheaper tuning on screen, on scripted event streams: several variants running at once (compact rows at
// 80 x 24, full panels on a wide terminal, one variant as before), the session's GPU-hours on the
// Run screen and in Results, per-variant GPU-h, a stage tied within noise, a variant stopped
// early and a row measured with dummy weights.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/app.js';
import type { SessionGpuTime, TuneEvent, VariantResult } from '../../../src/core/events.js';
import type { PlanInfo } from '../../../src/core/events.js';
import { stageVerdict } from '../../../src/tui/panels/results/verdicts.js';
import { variantLine } from '../../../src/tui/panels/run/Leaderboard.js';
import type { StageTable } from '../../../src/tui/state/results.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { overflowingLines, render, type Rendered } from '../../helpers/render.js';
import { enterRun } from '../../helpers/tui/walk.js';
import { defaults, fakeServices, result, scripted, snapshot, stageDone } from '../../helpers/tui/fixtures.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

const plan = { host: { gpuCount: 8, gpuName: 'H100', simulated: true } } as unknown as PlanInfo;
const gpuTime = (gpus: number, startupS: number, benchmarkS: number) => ({
  gpus,
  startupS,
  benchmarkS,
  startupGpuS: gpus * startupS,
  benchmarkGpuS: gpus * benchmarkS,
  gpuS: gpus * (startupS + benchmarkS),
  simulated: true,
});
const launch = (variantId: string, gpu: number, label: string): TuneEvent => ({
  type: 'variant-launching',
  variantId,
  stage: 'engine',
  argv: ['sim-serve'],
  port: 8100 + 10 * gpu,
  label,
  gpuIds: [gpu],
});

/** Engine stage: vllm, sglang and trtllm at once on GPUs 0, 1, 2; then one alone. */
function parallelEvents(): TuneEvent[] {
  const ok = (id: string, total: number, gpu: number): VariantResult => ({
    ...result(id, 'engine', total),
    gpuIds: [gpu],
    gpuTime: gpuTime(1, 31, 9),
  });
  return [
    { type: 'session-started', runDir: 'servelab-runs/x', simulated: true, at: '2026-01-01T00:00:00Z' },
    { type: 'plan-ready', plan },
    { type: 'stage-started', stage: 'engine', index: 0, variants: ['vllm', 'sglang', 'trtllm', 'vllm-eager'] },
    launch('vllm', 0, 'vllm defaults'),
    launch('sglang', 1, 'sglang defaults'),
    launch('trtllm', 2, 'trtllm defaults'),
    { type: 'server-ready', variantId: 'sglang', startupS: 31 },
    { type: 'bench-started', variantId: 'sglang', scenario: 'random-200-100', numPrompts: 40 },
    { type: 'server-ready', variantId: 'vllm', startupS: 33 },
    { type: 'bench-started', variantId: 'vllm', scenario: 'random-200-100', numPrompts: 40 },
    { type: 'bench-progress', variantId: 'vllm', snapshot: snapshot(12, 1500) },
    { type: 'bench-progress', variantId: 'sglang', snapshot: snapshot(20, 1700) },
    // -- step 12: three running (two benchmarking, one starting)
    { type: 'variant-finished', result: ok('vllm', 9000, 0) },
    { type: 'variant-finished', result: ok('sglang', 10_000, 1) },
    { type: 'variant-finished', result: ok('trtllm', 9500, 2) },
    { type: 'variant-launching', variantId: 'vllm-eager', stage: 'engine', argv: ['sim-serve'], port: 8100, label: 'vllm eager' },
    { type: 'server-ready', variantId: 'vllm-eager', startupS: 20 },
    { type: 'bench-started', variantId: 'vllm-eager', scenario: 'random-200-100', numPrompts: 40 },
    { type: 'bench-progress', variantId: 'vllm-eager', snapshot: snapshot(10, 1000) },
    // -- step 19: one running alone
    { type: 'variant-finished', result: ok('vllm-eager', 8000, 0) },
    stageDone('engine', 'sglang', 11.1, {
      referenceId: 'vllm',
      baselineId: 'vllm',
      gains: { vllm: 0, sglang: 11.1, trtllm: 5.6, 'vllm-eager': -11.1 },
    }),
    { type: 'session-finished', profilePath: 'p.json', reportPath: 'p.md', exitCode: 0 },
  ];
}

async function toRun(session: ReturnType<typeof scripted>, columns: number, rows: number) {
  r = render(
    <App
      services={fakeServices({ session: () => session.start })}
      defaults={defaults}
      onExit={() => {}}
      theme={colourTheme}
      throttleMs={10}
    />,
    { columns, rows },
  );
  await enterRun(r);
  return r;
}

const live = (f: string) => f.slice(f.lastIndexOf('servelab · 4/6'));

describe('several variants running at once', () => {
  it('says when the variants running are repeat runs of a stage already measured', async () => {
    const events = parallelEvents().slice(0, 15);
    // The last event is never sent: the session is still running.
    events.push(launch('sglang', 0, 'sglang defaults'), launch('trtllm', 1, 'trtllm defaults'), { type: 'warning', message: 'not sent' });
    const session = scripted(events);
    const r = await toRun(session, 80, 24);
    session.next(events.length - 1);
    const f = live(await r.waitForFrame('2 running (repeats)'));
    // At 80 columns the note gives way to the host note: the title stays one line.
    expect(f.split('\n')[0]).toMatch(/^servelab · 4\/6 Run  stage 1 engine · 2 running \(repeats\)\s+simulated H100 x1$/);
    expect(f).toMatch(/› sglang defaults\s+GPU 0\s+starting/);
    expect(f).toMatch(/● trtllm defaults\s+GPU 1\s+starting/);
  });

  it('at 80 x 24: one compact row each (label, GPU, phase, progress, tok/s), the GPU-hours line, nothing cut', async () => {
    const session = scripted(parallelEvents());
    const r = await toRun(session, 80, 24);
    session.next(12);
    const f = live(await r.waitForFrame((fr) => fr.includes('3 running') && fr.includes('5,100 tok/s')));
    expect(f).toContain('stage 1 engine · 3 running, 0/4 done');
    expect(f).toMatch(/› vllm defaults\s+GPU 0\s+benchmark [█░]+\s+12\/40\s+4,500 tok\/s/);
    expect(f).toMatch(/● sglang defaults\s+GPU 1\s+benchmark [█░]+\s+20\/40\s+5,100 tok\/s/);
    expect(f).toMatch(/● trtllm defaults\s+GPU 2\s+starting\s+up \d/);
    // The simulated host counts no time before a wave ends, and says the clock is simulated.
    expect(f).toContain('host 0.00 GPU-h so far · variants held 0.00 GPU-h · simulated time');
    expect(overflowingLines(f, 80)).toEqual([]);
    expect(f.split('\n').length).toBeLessThan(24);
  });

  it('up/down picks which running variant the skip key stops; the core gets its id', async () => {
    const session = scripted(parallelEvents());
    const r = await toRun(session, 80, 24);
    session.next(12);
    let f = live(await r.waitForFrame((fr) => fr.includes('3 running') && fr.includes('5,100 tok/s')));
    // The top row is picked until the user picks another; the help says how.
    expect(f).toMatch(/› vllm defaults/);
    expect(f).toMatch(/● sglang defaults/);
    expect(f).toContain('↑↓ pick');
    await r.press('down');
    f = live(await r.waitForFrame((fr) => /› sglang defaults/.test(live(fr))));
    expect(f).toMatch(/● vllm defaults/);
    await r.press('s');
    f = live(await r.waitForFrame('skipping sglang defaults…'));
    // Up from the top wraps to the last row (the skipped row is still running: the script never stops it).
    await r.press('up');
    await r.waitForFrame((fr) => /› vllm defaults/.test(live(fr)));
    await r.press('up');
    await r.waitForFrame((fr) => /› trtllm defaults/.test(live(fr)));
    await r.press('s');
    await r.waitForFrame('skipping trtllm defaults…');
    await expect.poll(() => session.calls).toEqual(['skip:sglang', 'skip:trtllm']);
    // A pick and a skip typed in one burst ("js") skip the row picked, not the one before.
    await r.press('js');
    await r.waitForFrame((fr) => /› vllm defaults/.test(live(fr)) && fr.includes('skipping vllm defaults…'));
    await expect.poll(() => session.calls).toEqual(['skip:sglang', 'skip:trtllm', 'skip:vllm']);
    // One variant alone: nothing to pick, no pick key in the help, the skip goes to it.
    session.next(7);
    f = live(await r.waitForFrame('variant 4/4'));
    expect(f).not.toContain('↑↓ pick');
    expect(f).not.toMatch(/› vllm eager/);
    await r.press('s');
    await expect.poll(() => session.calls).toEqual(['skip:sglang', 'skip:trtllm', 'skip:vllm', 'skip:vllm-eager']);
  });

  it('on a wide terminal: full panels side by side, each with its GPUs and live figures', async () => {
    const events = parallelEvents();
    const gpus = Array.from({ length: 8 }, (_, index) => ({
      index,
      name: 'NVIDIA H100 80GB HBM3',
      utilPct: index < 2 ? 90 : 0,
      memUsedMiB: 70_000,
      memTotalMiB: 81_559,
    }));
    events.splice(12, 0, { type: 'gpu-sample', gpus });
    const session = scripted(events);
    const r = await toRun(session, 160, 45);
    session.next(13);
    const f = live(
      await r.waitForFrame((fr) => fr.includes('3 running') && fr.includes('trtllm defaults · GPU 2') && fr.includes('20/40')),
    );
    const lines = f.split('\n');
    // Two status lines on one terminal line, the third panel below.
    // The top panel is the one picked for the skip key.
    expect(lines.some((l) => /benchmarking\s+› vllm defaults · GPU 0.*benchmarking\s+sglang defaults · GPU 1/.test(l))).toBe(true);
    expect(lines.some((l) => /launching\s+trtllm defaults · GPU 2/.test(l))).toBe(true);
    expect(lines.some((l) => /TTFT\s+120ms\s+340ms.*TTFT\s+120ms\s+340ms/.test(l))).toBe(true);
    expect(f).toMatch(/12\/40\s+30\.0%/);
    expect(f).toMatch(/20\/40\s+50\.0%/);
    // Each GPU line names the variant pinned to it; the GPUs nothing is pinned to name nothing.
    expect(lines.find((l) => l.startsWith('GPU1 '))).toMatch(/GiB\s+sglang defaults\s+NVIDIA H100/);
    expect(lines.find((l) => l.startsWith('GPU2 '))).toMatch(/trtllm defaults\s+NVIDIA H100/);
    expect(lines.find((l) => l.startsWith('GPU5 '))).toMatch(/GiB\s+NVIDIA H100/);
    expect(overflowingLines(f, 160)).toEqual([]);
    expect(lines.length).toBeLessThan(45);
  });

  it('one variant alone looks as it always did; the finished wave adds its GPU-hours', async () => {
    const session = scripted(parallelEvents());
    const r = await toRun(session, 80, 24);
    session.next(19);
    const f = live(await r.waitForFrame((fr) => live(fr).includes('variant 4/4') && fr.includes('10/40')));
    expect(f).toMatch(/● benchmarking\s+vllm eager/);
    expect(f).toMatch(/out\s+\S+\s+1,000 tok\/s\s+total\s+\S+\s+3,000 tok\/s/);
    expect(f).not.toContain('GPU 0 ');
    // One wave of 40 s (31 s start-up + 9 s benchmark) on 8 host GPUs: 0.09 GPU-h; three variants held 0.03.
    expect(f).toContain('host 0.09 GPU-h so far · variants held 0.03 GPU-h · simulated time');
  });
});

const COST: SessionGpuTime = {
  hostGpus: 8,
  wallS: 1200,
  hostGpuHours: 8 / 3,
  variantGpuHours: 0.5,
  startupGpuHours: 0.4,
  benchmarkGpuHours: 0.1,
  busyPct: 18.75,
  simulated: true,
  summary:
    '2.67 host GPU-hours (8 GPUs x 20 min); variants held 0.50 (startup 0.40, benchmark 0.10; 19% of the host) [simulated time: what the modelled host would spend]',
};
const TIE =
  'sglang defaults and trtllm defaults tied within noise (0.4% apart after 3 and 3 runs, margin 2%): sglang defaults wins on lower p99 TPOT (17.79 vs 17.93 ms)';

/** A finished engine stage: a tie decided by the tie rule, a variant stopped early, a dummy-weights row. */
function resultsEvents(): TuneEvent[] {
  const row = (id: string, total: number, gpus: number[], extra: Partial<VariantResult> = {}): VariantResult => ({
    ...result(id, 'engine', total),
    gpuIds: gpus,
    gpuTime: gpuTime(gpus.length, 31, 9),
    ...extra,
  });
  const early = {
    ...row('vllm', 0, [4, 5, 6, 7]),
    metrics: undefined,
    status: 'pruned' as const,
    failure: { kind: 'pruned' as const, reason: 'stopped early: 12% below the leader at 15/40 requests' },
  };
  const dummy = row('sglang', 10_000, [0, 1, 2, 3], {
    weights: { kind: 'dummy', why: '--load-format dummy: same shapes and kernels, outputs fixed by ignore_eos' },
  });
  return [
    { type: 'session-started', runDir: 'servelab-runs/x', simulated: true, at: '2026-01-01T00:00:00Z' },
    { type: 'plan-ready', plan },
    { type: 'stage-started', stage: 'engine', index: 0, variants: ['vllm', 'sglang', 'trtllm'] },
    { type: 'variant-finished', result: early },
    { type: 'variant-finished', result: dummy },
    { type: 'variant-finished', result: row('trtllm', 10_040, [0, 1, 2, 3]) },
    stageDone('engine', 'sglang', null, {
      referenceId: 'vllm',
      baselineId: 'vllm',
      gains: { vllm: null, sglang: null, trtllm: null },
      why: TIE,
    }),
    { type: 'session-cost', cost: COST },
    { type: 'session-finished', profilePath: 'p.json', reportPath: 'p.md', exitCode: 0 },
  ];
}

async function toResults(columns: number, rows: number) {
  const session = scripted(resultsEvents());
  const r = await toRun(session, columns, rows);
  session.rest();
  await r.waitForFrame('Tuning finished.');
  await r.press('enter');
  const f = await r.waitForFrame('5/6 Results');
  return f.slice(f.lastIndexOf('servelab · 5/6'));
}

describe('Results with GPU-hours, a tie, an early stop and dummy weights', () => {
  it('at 80 x 24: GPU-h per row, the session cost, the tie, "stopped early" and the dummy mark with its legend', async () => {
    const f = await toResults(80, 24);
    expect(f).toMatch(/variant\s+tok\/s\s+gain\s+TTFT\s+TPOT\s+startup\s+GPU-h\s+status/);
    // 4 GPUs x 40 s = 0.04 GPU-h.
    expect(f).toMatch(/\* sglang defaults †\s+10,000\s+-\s+100ms\s+20\.0ms\s+31s\s+0\.04\s+ok/);
    expect(f).toMatch(/ {2}vllm defaults\s+-\s+ref\s+-\s+-\s+31s\s+0\.04\s+stopped early$/m);
    expect(f).toContain('vllm defaults: stopped early: 12% below the leader at 15/40 requests');
    expect(f).toContain('† measured with dummy weights, not the real checkpoint: --load-format dummy');
    expect(f).toMatch(/winner sglang defaults; sglang defaults and trtllm defaults tied within\s+noise/);
    expect(f).toContain('cost: host 2.67 GPU-h (8 GPUs x 20 min) · variants held 0.50 · simulated time');
    // The trtllm row carries no mark.
    expect(f).toMatch(/ {2}trtllm\s+10,040/);
    expect(overflowingLines(f, 80)).toEqual([]);
    expect(f.split('\n').length).toBeLessThan(24);
  });

  it('on a wide terminal: benchmark time and GPUs per row, the whole early-stop status, the cost split', async () => {
    const f = await toResults(160, 45);
    expect(f).toMatch(/startup\s+bench\s+GPUs\s+GPU-h\s+status/);
    // GPUs: how many the launch held (what GPU-h multiplies).
    expect(f).toMatch(/\* sglang defaults †\s+10,000.*31s\s+9\.0s\s+4\s+0\.04\s+ok/);
    expect(f).toMatch(/vllm defaults .*\s4\s+0\.04\s+stopped early: 12% below the leader at 15\/40 requests/);
    expect(f).toContain(
      'cost: host 2.67 GPU-h (8 GPUs x 20 min) · variants held 0.50 (startup 0.40, benchmark 0.10; 19% of the host) · simulated time',
    );
    // The verdict wraps at spaces: joined again, it is the core's words whole.
    expect(f.replace(/\n/g, ' ')).toContain(`winner sglang defaults; ${TIE}`);
    expect(overflowingLines(f, 160)).toEqual([]);
  });
});

describe('the stage line on a tie', () => {
  const table = (winnerId: string, carriedId: string | null, tie: string): StageTable => ({
    stage: 'batching',
    winnerId,
    gainPct: null,
    carriedId,
    referenceId: carriedId,
    baselineId: null,
    why: null,
    tie,
    rows: [],
  });
  const tie = 'c and x tied within noise (0.1% apart after 3 and 2 runs, margin 2%): x wins on lower p99 TPOT (10.38 vs 10.39 ms)';
  it("tells the tie rule's pick when it decided the stage, and only the tie when the carried winner stayed", () => {
    expect(stageVerdict(table('x', null, tie), (id) => id)).toBe(`winner x; ${tie}`);
    expect(stageVerdict(table('c', 'c', tie), (id) => id)).toBe(
      'c (carried in) stays: no candidate beat it by more than the margin; c and x tied within noise (0.1% apart after 3 and 2 runs, margin 2%)',
    );
  });
});

describe('the leaderboard line of a finished variant', () => {
  it('says dummy weights at any width (in one word at 80 columns), and its GPU-h on a wide terminal', () => {
    const r: VariantResult = { ...result('sglang', 'engine', 10_000), gpuTime: gpuTime(4, 31, 9), weights: { kind: 'dummy', why: 'x' } };
    expect(variantLine(r, 'sglang defaults', 80)).toMatch(/sglang defaults\s+10,000 tok\/s TTFT 100ms\s+TPOT 20\.0ms dummy$/);
    expect(variantLine(r, 'sglang defaults', 160)).toMatch(/TPOT 20\.0ms up 31s 0\.04 GPU-h dummy weights$/);
    expect(variantLine({ ...r, weights: { kind: 'real', why: 'validation' } }, 'sglang defaults', 80)).not.toContain('dummy');
  });

  it("gives a skip's or an early stop's reason once, not after its kind ('skipped: skipped by the user')", () => {
    const skipped = result('sglang', 'engine', null, { kind: 'skipped', reason: 'skipped by the user' });
    expect(variantLine(skipped, '+ seqs=512', 80)).toMatch(/\+ seqs=512\s+skipped by the user$/);
    const early = {
      ...result('vllm', 'engine', null, { kind: 'pruned', reason: 'stopped early: 16% below the leader at 23/25 requests' }),
      status: 'pruned' as const,
    };
    expect(variantLine(early, 'vllm defaults', 160)).toMatch(/vllm defaults\s+stopped early: 16% below the leader at 23\/25 requests$/);
    const oom = result('trtllm', 'engine', null, { kind: 'oom', reason: 'CUDA out of memory' });
    expect(variantLine(oom, 'trtllm defaults', 160)).toMatch(/trtllm defaults\s+oom: CUDA out of memory$/);
  });
});
