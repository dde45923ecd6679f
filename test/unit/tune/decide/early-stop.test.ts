// The early-stop rule on scripted progress: never before 30% of the requests, never when the
// optimistic bound can still reach the leader within the margin, and the status line it records.
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../../src/core/events.js';
import type { LiveSnapshot } from '../../../../src/core/metrics.js';
import { decideStage } from '../../../../src/tune/decide/decide.js';
import { peakRequestRate } from '../../../../src/tune/decide/early-stop-rate.js';
import {
  earlyStopVerdict,
  snapshotChannel,
  snapshotProgress,
  stoppedEarlyResult,
  unitsMax,
  watchForEarlyStop,
} from '../../../../src/tune/decide/early-stop.js';

const snap = (completed: number, elapsedS: number, total = 100, failed = 0): LiveSnapshot => ({
  elapsedS,
  total,
  completed,
  failed,
  running: 0,
  outputTokPerS: 0,
  totalTokPerS: 0,
  meanTtftMs: 0,
  p99TtftMs: 0,
  meanTpotMs: 0,
  p99TpotMs: 0,
  meanItlMs: 0,
  p99ItlMs: 0,
  clientBound: false,
});

describe('earlyStopVerdict', () => {
  // The leader did 100 requests x 200 tokens in 20 s: 1000 tok/s.
  const leader = 1000;
  const total = 100;
  const max = 100 * 200;

  it('never stops before 30% of the requests have finished, however slow', () => {
    const v = earlyStopVerdict({ finished: 29, total, elapsedS: 500, unitsMax: max }, leader, 2);
    expect(v.stop).toBe(false);
    expect(earlyStopVerdict({ finished: 30, total, elapsedS: 500, unitsMax: max }, leader, 2).stop).toBe(true);
  });

  it('stops only when even infinite speed from now on ends more than the margin below the leader', () => {
    // Bound = 20000 / t; threshold = 1000 x 0.98 = 980 -> stops once t > 20.41 s.
    expect(earlyStopVerdict({ finished: 60, total, elapsedS: 20.4, unitsMax: max }, leader, 2).stop).toBe(false);
    const v = earlyStopVerdict({ finished: 60, total, elapsedS: 25, unitsMax: max }, leader, 2);
    // A bound, said as one: the run would end at least this far below (a finished run may be further).
    expect(v).toMatchObject({ stop: true, boundValue: 800, status: 'stopped early: at least 20% below the leader at 60/100 requests' });
  });

  it('never stops a run in its last 10% of requests, however slow (996/1000 or 982/1000 saves nothing)', () => {
    const big = { total: 1000, elapsedS: 1e5, unitsMax: 20000 };
    expect(earlyStopVerdict({ ...big, finished: 996 }, leader, 2)).toMatchObject({
      stop: false,
      why: expect.stringMatching(/in its last 10% a run is never stopped/),
    });
    expect(earlyStopVerdict({ ...big, finished: 982 }, leader, 2).stop).toBe(false);
    expect(earlyStopVerdict({ ...big, finished: 900 }, leader, 2).stop).toBe(false);
    expect(earlyStopVerdict({ ...big, finished: 899 }, leader, 2).stop).toBe(true);
  });

  it('a variant as fast as the leader is never stopped while it runs (its elapsed time stays under the leader duration)', () => {
    for (let f = 30; f <= 100; f += 10) {
      expect(earlyStopVerdict({ finished: f, total, elapsedS: (20 * f) / 100, unitsMax: max }, leader, 2).stop).toBe(false);
    }
  });

  it('no leader value: no stop', () => {
    expect(earlyStopVerdict({ finished: 90, total, elapsedS: 1e6, unitsMax: max }, 0, 2).stop).toBe(false);
  });
});

/** Scripted progress: feed snapshots one per second to the rule as the watcher does; the first stop. */
function firstStop(finishedAt: (t: number) => number, leader: number, total = 100, seconds = 60) {
  const history = [{ elapsedS: 0, finished: 0 }];
  for (let t = 1; t <= seconds; t++) {
    const done = Math.min(total, finishedAt(t));
    const s = snap(done, t, total);
    const v = earlyStopVerdict(snapshotProgress(s, { objective: 'request', value: leader, unitsMax: total }, history), leader, 2);
    if (v.stop) return { t, done, v };
    history.push({ elapsedS: t, finished: done });
    if (done >= total) return null;
  }
  return null;
}

describe('the window-rate bound on scripted progress', () => {
  // The leader finished 100 requests in 10 s: 10 req/s.
  it('stops a steady loser at 30%, where the infinite-speed bound would wait until 82%', () => {
    const got = firstStop((t) => 8 * t, 10);
    // At t = 4: 32/100 finished; bound = 100 / (4 + 68 / (8 x 1.02)) = 8.1 < 9.8.
    expect(got).toMatchObject({ t: 4, done: 32 });
    expect(got!.v.stop && got!.v.boundValue).toBeCloseTo(100 / (4 + 68 / 8.16), 6);
    // The old bound alone (no window rates): 100 / t < 9.8 only from t = 11 (88 finished).
    expect(earlyStopVerdict({ finished: 80, total: 100, elapsedS: 10, unitsMax: 100 }, 10, 2).stop).toBe(false);
  });

  it('does not stop a variant that ramps up late and ends level with the leader', () => {
    // 4 req/s up to 20 finished (5 s), then 4 req/s faster every second: 28, 40, 56, 76, 100 at t = 10.
    const ramp = (t: number) => (t <= 5 ? 4 * t : 20 + [8, 20, 36, 56, 80][t - 6]!);
    expect(firstStop(ramp, 10)).toBeNull();
    // Judged on its peak while still speeding up, it would have been stopped at t = 7 (40 finished):
    const pts = [0, 1, 2, 3, 4, 5, 6].map((t) => ({ elapsedS: t, finished: t === 0 ? 0 : ramp(t) }));
    const rate = peakRequestRate([...pts, { elapsedS: 7, finished: 40 }], 100)!;
    expect(rate.rising).toBe(true);
    expect(earlyStopVerdict({ finished: 40, total: 100, elapsedS: 7, unitsMax: 100, rate: { ...rate, rising: false } }, 10, 2).stop).toBe(
      true,
    );
  });

  it('never stops a variant as fast as the leader, its rate swinging +-35% second to second', () => {
    // 100 requests at t = 10 like the leader, the rate per second between 6 and 14 req/s.
    const noisy = (t: number) => Math.round(10 * t + 1.5 * Math.sin((2 * Math.PI * t) / 5));
    expect(firstStop(noisy, 10)).toBeNull();
  });

  it('windows hold at least 10% of the requests; rising means faster than every earlier window', () => {
    const pts = [0, 1, 2, 3, 4].map((t) => ({ elapsedS: t, finished: 5 * t }));
    expect(peakRequestRate(pts.slice(0, 2), 100)).toBeNull();
    expect(peakRequestRate(pts, 100)).toEqual({ peak: 5, latest: 5, rising: false });
    expect(peakRequestRate([...pts, { elapsedS: 5, finished: 35 }], 100)).toMatchObject({ peak: 15, latest: 15, rising: true });
  });
});

describe('unitsMax and snapshots', () => {
  const reqs = Array.from({ length: 4 }, () => ({ prompt: 'p', promptLen: 10, expectedOutputLen: 50 }));
  it('output tokens are capped by max_completion_tokens; prompts use the server count measured on the leader', () => {
    expect(unitsMax('output', reqs, { total_input_tokens: 60 })).toBe(200);
    expect(unitsMax('total', reqs, { total_input_tokens: 60 })).toBe(260);
    expect(unitsMax('total', reqs, { total_input_tokens: 10 })).toBe(240);
    expect(unitsMax('request', reqs, { total_input_tokens: 0 })).toBe(4);
  });
  it('failed requests cannot add requests', () => {
    expect(snapshotProgress(snap(40, 10, 100, 10), { objective: 'request', value: 5, unitsMax: 100 })).toMatchObject({
      finished: 50,
      total: 100,
      elapsedS: 10,
      unitsMax: 90,
    });
    expect(snapshotProgress(snap(40, 10, 100, 10), { objective: 'output', value: 5, unitsMax: 100 }).unitsMax).toBe(100);
  });
});

describe('watchForEarlyStop', () => {
  it('aborts the benchmark at the first snapshot where the rule says stop', async () => {
    const ch = snapshotChannel();
    const ac = new AbortController();
    // Leader: 10 req/s over 100 requests (10 s). This variant runs at 4 req/s.
    const watch = watchForEarlyStop(ch.snapshots, { objective: 'request', value: 10, unitsMax: 100 }, 2, ac);
    const seen: number[] = [];
    for (let t = 1; t <= 25; t++) {
      ch.push(snap(4 * t, t));
      await new Promise((r) => setImmediate(r));
      if (ac.signal.aborted) {
        seen.push(t);
        break;
      }
    }
    const v = await watch;
    // Level at 4 req/s: from 30% (t = 8, 32 finished) the bound is 100 / (8 + 68 / (4 x 1.02)) = 4.05.
    expect(seen).toEqual([8]);
    expect(v?.status).toBe('stopped early: at least 59% below the leader at 32/100 requests');
    expect((ac.signal.reason as Error).message).toBe(v?.status);
  });

  it('returns null when the run ends first and does not abort', async () => {
    const ch = snapshotChannel();
    const ac = new AbortController();
    const watch = watchForEarlyStop(ch.snapshots, { objective: 'request', value: 10, unitsMax: 100 }, 2, ac);
    ch.push(snap(50, 5));
    ch.push(snap(100, 9.5));
    ch.end();
    expect(await watch).toBeNull();
    expect(ac.signal.aborted).toBe(false);
  });
});

describe('a variant stopped early', () => {
  it('is never the winner, even with the best partial numbers', () => {
    const metrics = (tput: number) =>
      ({
        completed: 50,
        total_token_throughput: tput,
        output_throughput: tput,
        request_throughput: 1,
        request_goodput: null,
      }) as unknown as VariantResult['metrics'];
    const base = {
      stage: 's',
      scenario: 'x',
      variant: { id: 'a' } as unknown as VariantResult['variant'],
      argv: [],
      startedAt: '',
      finishedAt: '',
    };
    const ok: VariantResult = { ...base, variantId: 'ok', status: 'ok', metrics: metrics(100) };
    const fast: VariantResult = { ...base, variantId: 'fast', status: 'ok', metrics: metrics(500) };
    const stopped = stoppedEarlyResult(fast, {
      stop: true,
      boundValue: 1,
      belowPct: 50,
      status: 'stopped early: 50% below the leader at 40/100 requests',
    });
    expect(stopped.failure?.reason).toMatch(/^stopped early/);
    const d = decideStage(null, [ok, stopped], { objective: 'total', slo: [], marginPct: 2 });
    expect(d.winner?.variantId).toBe('ok');
    expect(decideStage(null, [ok, fast], { objective: 'total', slo: [], marginPct: 2 }).winner?.variantId).toBe('fast');
  });
});
