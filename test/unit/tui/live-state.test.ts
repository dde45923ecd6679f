// The running variants in the Run state and how the screen lays them out: several at once by id,
// a repeat keeping its place, a launch stopped without variant-finished dropped, the skip going
// to the row the user picked, and the layout chosen by the room there is.
import { describe, expect, it } from 'vitest';
import type { TuneEvent } from '../../../src/core/events.js';
import { compactRows, footerLines, gpuText, runningLayout, PANEL_LINES } from '../../../src/tui/panels/run/run-layout.js';
import { liveCostText, sessionCostLine } from '../../../src/tui/components/cost-text.js';
import { initialRunState, runReducer, type RunState } from '../../../src/tui/state/run.js';
import { skipTarget } from '../../../src/tui/state/pick.js';
import { result, snapshot } from '../../helpers/tui/fixtures.js';

const launch = (variantId: string, gpu?: number): TuneEvent => ({
  type: 'variant-launching',
  variantId,
  stage: 'engine',
  argv: [],
  port: 8100,
  ...(gpu === undefined ? {} : { gpuIds: [gpu] }),
});
const feed = (events: TuneEvent[], s: RunState = runReducer(initialRunState, { type: 'started', now: 0 })) =>
  runReducer(s, { type: 'events', events, now: 1000 });

describe('running variants in the run state', () => {
  it('files every running variant by id, with its own phase and figures', () => {
    const s = feed([
      launch('a', 0),
      launch('b', 1),
      { type: 'server-ready', variantId: 'b', startupS: 30 },
      { type: 'bench-started', variantId: 'b', scenario: 's', numPrompts: 40 },
      { type: 'bench-progress', variantId: 'b', snapshot: snapshot(10, 900) },
      { type: 'server-log', variantId: 'a', line: 'loading' },
    ] as TuneEvent[]);
    expect(s.live.map((c) => [c.variantId, c.phase, c.gpuIds])).toEqual([
      ['a', 'launching', [0]],
      ['b', 'bench', [1]],
    ]);
    expect(s.live[1]!.outHistory).toEqual([900]);
    expect(s.live[0]!.logTail).toEqual(['loading']);
    expect(s.current?.variantId).toBe('a');
    // The skip key stops the picked row: the top one until the user picks another.
    expect(skipTarget(s.live, s.picked)).toBe('a');
    const down = runReducer(s, { type: 'pick', dir: 1 });
    expect(skipTarget(down.live, down.picked)).toBe('b');
    expect(runReducer(down, { type: 'pick', dir: 1 }).picked).toBe('a');
    expect(runReducer(s, { type: 'pick', dir: -1 }).picked).toBe('b');
    expect(runReducer(down, { type: 'skip-requested', variantId: 'b' }).requests.skip).toBe('b');
    // A variant that is not running cannot be asked to stop.
    expect(runReducer(s, { type: 'skip-requested', variantId: 'zz' }).requests.skip).toBeNull();
    const after = feed([{ type: 'variant-finished', result: result('a', 'engine', 1000) }], s);
    expect(after.live.map((c) => c.variantId)).toEqual(['b']);
    expect(after.current?.variantId).toBe('b');
    // The picked row finished: the skip falls back to the top row; a stopping row is never picked.
    const picked = runReducer(s, { type: 'pick', dir: -1 });
    expect(skipTarget(feed([{ type: 'variant-finished', result: result('b', 'engine', 1000) }], picked).live, 'b')).toBe('a');
    expect(skipTarget(feed([{ type: 'server-stopping', variantId: 'a' }], s).live, null)).toBe('b');
  });

  it('keeps a repeat in its place, drops a stopped launch when the next starts, and empties at the verdict', () => {
    let s = feed([
      launch('a', 0),
      launch('b', 1),
      { type: 'server-stopping', variantId: 'a' },
      { type: 'server-stopping', variantId: 'b' },
      { ...launch('a', 0), run: { n: 2, of: 3 } } as TuneEvent,
    ]);
    expect(s.live.map((c) => [c.variantId, c.phase])).toEqual([['a', 'launching']]);
    // The repeat says which run it is; the view projection carries the same.
    expect(s.live[0]!.run).toEqual({ n: 2, of: 3 });
    expect(s.view.running['a']?.run).toEqual({ n: 2, of: 3 });
    s = feed([launch('b', 1)], s);
    expect(s.live.map((c) => c.variantId)).toEqual(['a', 'b']);
    // A launch the core paid without variant-finished (a validation side) is gone once stopped.
    const gpuTime = { gpus: 1, startupS: 1, benchmarkS: 1, startupGpuS: 1, benchmarkGpuS: 1, gpuS: 2, simulated: true };
    const paid = feed(
      [
        { type: 'server-stopping', variantId: 'a' },
        { type: 'launch-cost', variantId: 'a', stage: 'validation', gpuTime },
      ],
      s,
    );
    expect(paid.live.map((c) => c.variantId)).toEqual(['b']);
    // A skip of such a launch ends with it, so the next skip of the same id is a new request.
    const skipped = runReducer(s, { type: 'skip-requested', variantId: 'a' });
    expect(skipped.requests.skip).toBe('a');
    expect(feed([{ type: 'server-stopping', variantId: 'a' }], skipped).requests.skip).toBe('a');
    expect(
      feed(
        [
          { type: 'server-stopping', variantId: 'a' },
          { type: 'launch-cost', variantId: 'a', stage: 'validation', gpuTime },
        ],
        skipped,
      ).requests.skip,
    ).toBeNull();
    s = feed(
      [
        {
          type: 'stage-finished',
          stage: 'engine',
          winnerId: 'a',
          gainPct: null,
          carriedId: null,
          referenceId: null,
          baselineId: null,
          gains: {},
          why: '',
        },
      ],
      s,
    );
    expect(s.live).toEqual([]);
    expect(s.current).toBeUndefined();
  });
});

describe('the running variants on screen', () => {
  it('one variant is drawn as before; several are rows, or panels when wide and tall enough', () => {
    expect(runningLayout(1, 200, 50)).toEqual({ kind: 'single' });
    expect(runningLayout(4, 80, 12)).toEqual({ kind: 'rows', shown: 4 });
    // Too few lines: the rows that fit and one for "… n more running".
    expect(runningLayout(8, 80, 5)).toEqual({ kind: 'rows', shown: 4 });
    expect(runningLayout(4, 160, 2 * PANEL_LINES)).toEqual({ kind: 'panels', perRow: 2, panelWidth: 79 });
    expect(runningLayout(4, 160, 2 * PANEL_LINES - 1).kind).toBe('rows');
    expect(runningLayout(2, 130, 2 * PANEL_LINES)).toEqual({ kind: 'panels', perRow: 1, panelWidth: 130 });
    expect(runningLayout(2, 100, 40).kind).toBe('rows');
  });

  it('lines rows up and keeps them inside the width', () => {
    const s = feed([
      launch('vllm', 0),
      launch('sglang-with-a-long-label', 1),
      launch('x', undefined),
      { type: 'bench-started', variantId: 'vllm', scenario: 's', numPrompts: 1000 },
      { type: 'bench-progress', variantId: 'vllm', snapshot: snapshot(10, 900, { total: 1000 }) },
    ]);
    for (const width of [80, 100, 200]) {
      const rows = compactRows(s.live, (c) => c.variantId, width, 5000);
      const lengths = rows.map(
        (r) =>
          2 +
          [...r.label].length +
          1 +
          r.gpus.length +
          1 +
          r.phase.length +
          1 +
          (r.barWidth ? r.barWidth + 1 : 0) +
          r.progress.length +
          1 +
          r.tokS.length,
      );
      expect(new Set(lengths).size).toBe(1);
      expect(lengths[0]).toBeLessThanOrEqual(width - 1);
    }
    const [v, , x] = compactRows(s.live, (c) => c.variantId, 80, 5000);
    expect(v!.progress.trim()).toBe('10/1,000');
    expect(x!.gpus.trim()).toBe('all GPUs');
    expect(x!.progress.trim()).toBe('up 4.0s');
    expect([gpuText([3]), gpuText([0, 1, 2, 3]), gpuText([0, 2]), gpuText(undefined)]).toEqual(['GPU 3', 'GPU 0-3', 'GPU 0,2', 'all GPUs']);
    expect(footerLines('run', ['next'], 200)).toBe(1);
    expect(footerLines('run', ['next'], 30)).toBeGreaterThan(1);
  });

  it('says simulated time in every cost line that fits, and shortens to the width', () => {
    const live = { hostGpuHours: 1.2, variantGpuHours: 0.36, simulated: true, final: false };
    expect(liveCostText(live, 80)).toBe('host 1.20 GPU-h so far · variants held 0.36 GPU-h · simulated time');
    expect(liveCostText(live, 40)).toBe('host 1.20 GPU-h so far · simulated time');
    expect(liveCostText({ ...live, simulated: false, final: true }, 80)).toBe('host 1.20 GPU-h · variants held 0.36 GPU-h · wall clock');
    const cost = {
      hostGpus: 8,
      wallS: 540,
      hostGpuHours: 1.2,
      variantGpuHours: 0.38,
      startupGpuHours: 0.32,
      benchmarkGpuHours: 0.06,
      busyPct: 31,
      simulated: true,
      summary: 'the core summary [simulated time]',
    };
    expect(sessionCostLine(cost, 200)).toBe('cost: the core summary [simulated time]');
    expect(sessionCostLine({ ...cost, summary: 'x'.repeat(200) }, 80)).toBe(
      'cost: host 1.20 GPU-h (8 GPUs x 9 min) · variants held 0.38 · simulated time',
    );
  });
});

describe('GPU samples of pinned variants', () => {
  const g = (index: number, utilPct: number) => ({ index, name: 'H100', utilPct, memUsedMiB: 1000, memTotalMiB: 81559 });
  it('a partial sample replaces only its own GPUs; a whole sample replaces all', () => {
    let s = feed([{ type: 'gpu-sample', gpus: [g(0, 0), g(1, 0), g(2, 0)] }]);
    s = feed(
      [
        { type: 'gpu-sample', partial: true, gpus: [g(1, 90)] },
        { type: 'gpu-sample', partial: true, gpus: [g(2, 70)] },
      ],
      s,
    );
    expect(s.gpus.map((x) => [x.index, x.utilPct])).toEqual([
      [0, 0],
      [1, 90],
      [2, 70],
    ]);
    s = feed([{ type: 'gpu-sample', gpus: [g(0, 5)] }], s);
    expect(s.gpus.map((x) => x.index)).toEqual([0]);
  });

  it('on the simulated host, the GPUs of a pinned variant that stopped read idle (its server was their only report)', () => {
    let s = feed([
      { type: 'session-started', runDir: '/r', simulated: true } as TuneEvent,
      { type: 'gpu-sample', gpus: [g(0, 0), g(1, 0), g(2, 0)] },
    ]);
    s = feed(
      [
        launch('a', 1),
        launch('b', 2),
        { type: 'gpu-sample', partial: true, gpus: [g(1, 97)] },
        { type: 'gpu-sample', partial: true, gpus: [g(2, 95)] },
      ],
      s,
    );
    s = feed([{ type: 'variant-finished', result: result('a', 'engine', 1000) }], s);
    expect(s.gpus.map((x) => [x.index, x.utilPct, x.memUsedMiB])).toEqual([
      [0, 0, 1000],
      [1, 0, 0],
      [2, 95, 1000],
    ]);
    // A launch paid without variant-finished (a validation side) releases its GPUs the same way.
    s = feed(
      [
        { type: 'server-stopping', variantId: 'b' },
        {
          type: 'launch-cost',
          variantId: 'b',
          stage: 'validation',
          gpuTime: { gpus: 1, startupS: 1, benchmarkS: 1, startupGpuS: 1, benchmarkGpuS: 1, gpuS: 2, simulated: true },
        },
      ],
      s,
    );
    expect(s.gpus.find((x) => x.index === 2)).toMatchObject({ utilPct: 0, memUsedMiB: 0 });
  });

  it('on a real host the last nvidia-smi sample stays until the next one (it sees every GPU)', () => {
    let s = feed([
      { type: 'session-started', runDir: '/r', simulated: false } as TuneEvent,
      launch('a', 1),
      { type: 'gpu-sample', gpus: [g(0, 0), g(1, 97)] },
    ]);
    s = feed([{ type: 'variant-finished', result: result('a', 'engine', 1000) }], s);
    expect(s.gpus.map((x) => x.utilPct)).toEqual([0, 97]);
  });
});
