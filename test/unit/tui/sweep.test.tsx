// The load sweep in the workbench: the live frontier chart on the Run screen while the finalists
// are swept, and the Results screen's sweep page (chart, frontier table, the choice), at 80x24
// and 200x50. Compared on content: axis labels, legend names, markers, the choice sentence.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/app.js';
import type { TuneEvent } from '../../../src/core/events.js';
import { X_LABEL, Y_LABEL } from '../../../src/sweep/chart-scale.js';
import { BROKEN, MARKERS } from '../../../src/sweep/chart-text.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { checkForm } from '../../../src/tui/services/form.js';
import { overflowingLines, render, tick, type Rendered } from '../../helpers/render.js';
import { defaults, fakeServices, scripted, sessionEvents } from '../../helpers/tui/fixtures.js';
import { enterRun } from '../../helpers/tui/walk.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

const c = (value: number) => ({ kind: 'concurrency' as const, value });
const summary = (x: number, y: number, tpot: number) => ({
  tokPerGpu: y,
  tokPerUser: x,
  ttftP50Ms: 90,
  ttftP99Ms: 300,
  tpotP99Ms: tpot,
  goodput: null,
});
const SENTENCE = 'sglang fp8: 2,000 tok/s/GPU at 8 concurrent, TPOT p99 40 ms';

/** The fixture session up to its last stage, then a sweep of two finalists at three loads. */
function sweepEvents(): TuneEvent[] {
  const staged = sessionEvents().filter((e) => !e.type.startsWith('validation') && e.type !== 'session-finished');
  const point = (variantId: string, label: string, load: number, x: number, y: number, tpot: number): TuneEvent => ({
    type: 'sweep-point',
    variantId,
    label,
    load: c(load),
    status: 'ok',
    summary: summary(x, y, tpot),
    violations: tpot >= 60 ? [`p99 TPOT ${tpot} ms >= 60 ms`] : [],
  });
  return [
    ...staged,
    {
      type: 'sweep-started',
      spec: 'concurrency:1,8,32',
      slo: 'tpot:p99<60',
      rule: 'baseline and winner',
      variants: [
        { variantId: 'vllm', label: 'vllm base', why: 'baseline' },
        { variantId: 'sglang-fp8ckpt', label: 'sglang fp8', why: 'winner' },
      ],
    },
    point('vllm', 'vllm base', 1, 60, 300, 17),
    point('vllm', 'vllm base', 8, 45, 1500, 22),
    point('vllm', 'vllm base', 32, 20, 4000, 70),
    point('sglang-fp8ckpt', 'sglang fp8', 1, 70, 400, 15),
    point('sglang-fp8ckpt', 'sglang fp8', 8, 50, 2000, 40),
    point('sglang-fp8ckpt', 'sglang fp8', 32, 25, 5200, 80),
    {
      type: 'sweep-finished',
      decides: true,
      frontier: [
        { variantId: 'sglang-fp8ckpt', load: c(32), tokPerGpu: 5200, tokPerUser: 25 },
        { variantId: 'sglang-fp8ckpt', load: c(8), tokPerGpu: 2000, tokPerUser: 50 },
        { variantId: 'sglang-fp8ckpt', load: c(1), tokPerGpu: 400, tokPerUser: 70 },
      ],
      choice: {
        variantId: 'sglang-fp8ckpt',
        load: c(8),
        sentence: SENTENCE,
        why: 'the most tok/s/GPU that meets tpot:p99<60',
        runnerUp: 'vllm base: 1,500 tok/s/GPU at 8 concurrent',
      },
    },
    { type: 'session-finished', profilePath: 'profiles/x.json', reportPath: 'profiles/x.md', exitCode: 0 },
  ];
}

const count = (text: string, glyph: string) => [...text].filter((ch) => ch === glyph).length;
/** The screen below the leaderboard (in test mode the frame holds the <Static> lines too). */
const screenOf = (f: string) => f.slice(f.lastIndexOf('servelab · '));

describe.each([
  [80, 24],
  [200, 50],
])('the sweep at %ix%i', (columns, rows) => {
  it('draws the live chart on the Run screen, then the sweep page on Results', async () => {
    const events = sweepEvents();
    const session = scripted(events);
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
    // Up to the fifth point: vllm base has three, sglang fp8 two.
    let seen = 0;
    session.upTo((e) => e.type === 'sweep-point' && ++seen === 5);
    let f = screenOf(await r.waitForFrame('5 point(s) measured'));
    expect(f).toContain('sweep concurrency:1,8,32 for tpot:p99<60');
    expect(f).toMatch(/latest: sglang fp8 at 8 concurrent: 2,000 tok\/s\/GPU, 50\.0 tok\/s\/user/);
    // The line is cut at 80 columns; a wide terminal has room for the latencies.
    if (columns >= 120) expect(f).toContain('TPOT p99 40.0ms, TTFT p99 300ms');
    expect(f).toContain(Y_LABEL);
    expect(f).toContain(X_LABEL);
    expect(f).toMatch(new RegExp(`${MARKERS[0]} vllm base`));
    expect(f).toMatch(new RegExp(`${MARKERS[1]} sglang fp8`));
    // Each measured point once in the plot, plus the legend's glyph; the SLO breaker is a cross.
    expect(count(f, MARKERS[0]!)).toBe(2 + 1);
    expect(count(f, MARKERS[1]!)).toBe(2 + 1);
    expect(count(f, BROKEN)).toBeGreaterThanOrEqual(1);
    expect(overflowingLines(f, columns)).toEqual([]);
    expect(f.split('\n').length).toBeLessThanOrEqual(rows);
    // More room, a bigger chart: the plot takes most of a tall terminal.
    const plotRows = f.split('\n').filter((l) => /[│┤]/.test(l)).length;
    expect(plotRows).toBeGreaterThanOrEqual(rows >= 40 ? 25 : 8);

    session.rest();
    await r.waitForFrame('Tuning finished.');
    await r.press('enter');
    f = screenOf(await r.waitForFrame('5/6 Results'));
    expect(f).toMatch(/\[engine\]\s+quantization\s+sweep\s+validation/);
    await r.press('right');
    await r.press('right');
    f = screenOf(await r.waitForFrame('[sweep]'));
    expect(f).toContain(`Chosen: ${SENTENCE}`);
    expect(f).toContain('runner-up: vllm base: 1,500 tok/s/GPU at 8 concurrent');
    // The reason shows where there is room; at 24 rows it gives way to the chart.
    expect(f.includes('why: the most tok/s/GPU that meets tpot:p99<60')).toBe(rows >= 40);
    expect(f).toMatch(/▶ sglang fp8\s+8 conc\s+2,000\s+50\.0\s+40\.0ms\s+300ms\s+met/);
    expect(f).toContain(Y_LABEL);
    expect(f).toContain('Pareto frontier');
    expect(overflowingLines(f, columns)).toEqual([]);
    expect(f.split('\n').length).toBeLessThanOrEqual(rows);
    await r.press('right');
    await r.waitForFrame('[validation]');
  });
});

describe('the frontier objective on the Model screen', () => {
  it('cycles to frontier, says it needs an SLO in the --auto words, and takes a sweep', async () => {
    // The real form check: the words are --auto's.
    r = render(<App services={fakeServices({ checkForm })} defaults={defaults} onExit={() => {}} theme={colourTheme} throttleMs={10} />, {
      columns: 80,
      rows: 24,
    });
    await r.waitForFrame('no NVIDIA GPU found');
    await r.press('enter');
    await r.waitForFrame('2/6 Model');
    // Six fields down to the objective with the fixture's random scenario.
    for (let i = 0; i < 6; i++) await r.press('down');
    let f = await r.waitForFrame('‹ total ›');
    for (const next of ['output', 'request', 'goodput', 'frontier']) {
      await r.press('right');
      f = await r.waitForFrame(`‹ ${next} ›`);
    }
    expect(f).toContain('--objective frontier needs --slo, e.g. --slo "tpot:p99<60"');
    // Wrapped, not cut, at 80 columns: the end of the advice is on screen.
    expect(f).toContain('meets it)');
    await r.press('down');
    await r.waitForFrame('› SLOs');
    // The text field takes keys once its hook is active (an effect after the frame).
    await tick();
    await r.type('tpot:p99<200');
    f = await r.waitForFrame('tpot:p99<200');
    expect(f).not.toContain('needs --slo');
    await r.press('down');
    await r.waitForFrame('› Sweep');
    await tick();
    await r.type('concurrency:0');
    f = await r.waitForFrame("bad --sweep level '0'");
    expect(overflowingLines(f, 80)).toEqual([]);
  });
});
