// The early-stop rule on scripted progress: never before 30% of the requests, never when the
// optimistic bound can still reach the leader within the margin, and the status line it records.
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../src/core/events.js';
import type { LiveSnapshot } from '../../src/bench/types.js';
import { decideStage } from '../../src/tune/decide.js';
import { earlyStopVerdict, snapshotChannel, snapshotProgress, stoppedEarlyResult, unitsMax, watchForEarlyStop } from '../../src/tune/early-stop.js';

const snap = (completed: number, elapsedS: number, total = 100, failed = 0): LiveSnapshot => ({
  elapsedS, total, completed, failed, running: 0, outputTokPerS: 0, totalTokPerS: 0,
  meanTtftMs: 0, p99TtftMs: 0, meanTpotMs: 0, p99TpotMs: 0, meanItlMs: 0, p99ItlMs: 0, clientBound: false,
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
    expect(v).toMatchObject({ stop: true, boundValue: 800, status: 'stopped early: 20% below the leader at 60/100 requests' });
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

describe('unitsMax and snapshots', () => {
  const reqs = Array.from({ length: 4 }, () => ({ prompt: 'p', promptLen: 10, expectedOutputLen: 50 }));
  it('output tokens are capped by max_completion_tokens; prompts use the server count measured on the leader', () => {
    expect(unitsMax('output', reqs, { total_input_tokens: 60 })).toBe(200);
    expect(unitsMax('total', reqs, { total_input_tokens: 60 })).toBe(260);
    expect(unitsMax('total', reqs, { total_input_tokens: 10 })).toBe(240);
    expect(unitsMax('request', reqs, { total_input_tokens: 0 })).toBe(4);
  });
  it('failed requests cannot add requests', () => {
    expect(snapshotProgress(snap(40, 10, 100, 10), { objective: 'request', value: 5, unitsMax: 100 })).toEqual({ finished: 50, total: 100, elapsedS: 10, unitsMax: 90 });
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
    // 100/t < 9.8 first at t = 11 (44 finished, over 30%).
    expect(seen).toEqual([11]);
    expect(v?.status).toBe('stopped early: 9% below the leader at 44/100 requests');
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
    const metrics = (tput: number) => ({ completed: 50, total_token_throughput: tput, output_throughput: tput, request_throughput: 1, request_goodput: null }) as unknown as VariantResult['metrics'];
    const base = { stage: 's', scenario: 'x', variant: { id: 'a' } as unknown as VariantResult['variant'], argv: [], startedAt: '', finishedAt: '' };
    const ok: VariantResult = { ...base, variantId: 'ok', status: 'ok', metrics: metrics(100) };
    const fast: VariantResult = { ...base, variantId: 'fast', status: 'ok', metrics: metrics(500) };
    const stopped = stoppedEarlyResult(fast, { stop: true, boundValue: 1, belowPct: 50, status: 'stopped early: 50% below the leader at 40/100 requests' });
    expect(stopped.failure?.reason).toMatch(/^stopped early/);
    const d = decideStage(null, [ok, stopped], { objective: 'total', slo: [], marginPct: 2 });
    expect(d.winner?.variantId).toBe('ok');
    expect(decideStage(null, [ok, fast], { objective: 'total', slo: [], marginPct: 2 }).winner?.variantId).toBe('fast');
  });
});
