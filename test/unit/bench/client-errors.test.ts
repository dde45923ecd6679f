// The client benchmarks' error definitions (perf/client-common.ts timingErrors) on scripted
// records: what counts as the client's error in TTFT, and what is the request's trip.
import { describe, expect, it } from 'vitest';
import { timingErrors } from '../../../perf/client-common.js';
import type { RequestOutput } from '../../../src/bench/types.js';
import type { BenchMetrics } from '../../../src/core/metrics.js';

const ORIGIN = 1_000_000; // epoch ms of the client's time zero

function output(startS: number, sentS: number, ttftS: number, itlS: number[]): RequestOutput {
  return {
    success: true,
    promptLen: 1,
    outputLen: itlS.length + 1,
    ttft: ttftS,
    itl: itlS,
    latency: ttftS + itlS.reduce((a, b) => a + b, 0),
    startTime: startS,
    sentTime: sentS,
    generatedText: '',
    error: '',
  };
}

/** The server's record, its stamps `skew` ms ahead of the client's clock. */
function served(i: number, receivedMs: number, writesMs: number[], skew: number) {
  const w = writesMs.map((x) => ORIGIN + x + skew);
  return {
    id: `bench-abc-${i}`,
    ttftMs: writesMs[0]! - receivedMs,
    gapsMs: writesMs.slice(1).map((x, k) => x - writesMs[k]!),
    receivedAtEpochMs: ORIGIN + receivedMs + skew,
    firstWriteEpochMs: w[0]!,
    writesEpochMs: w,
  };
}

const metrics = (ttftMs: number, itlMs: number, tpotMs: number) =>
  ({ mean_ttft_ms: ttftMs, mean_itl_ms: itlMs, mean_tpot_ms: tpotMs }) as unknown as BenchMetrics;

describe('client timing errors', () => {
  // Request 0: stamped at 0, handed to the OS at 0.5 ms, read by the server at 3 ms (a 2.5 ms
  // trip), first token written at 23 ms and stamped at 24 ms, the next written at 33 ms and
  // stamped at 34 ms. Reported TTFT 24 ms; the client's own share is 0.5 + 1 = 1.5 ms.
  const out = output(0, 0.0005, 0.024, [0.01]);
  const result = (skew: number) =>
    timingErrors({ outputs: [out], metrics: metrics(24, 10, 10), clockOriginMs: ORIGIN }, [served(0, 3, [23, 33], skew)], skew);

  it('TTFT error = send delay + first-event delay; the trip is apart; the old definition held both', () => {
    const e = result(0);
    expect(e.ttftErrMs).toBeCloseTo(1.5, 9);
    expect(e.sendDelayMs).toBeCloseTo(0.5, 9);
    expect(e.tripMs).toBeCloseTo(2.5, 9);
    expect(e.ttftVsServerMs).toBeCloseTo(24 - 20, 9);
    expect(e.eventDelayMeanMs).toBeCloseTo(1, 9);
    expect(e.itlErrMs).toBeCloseTo(0, 9);
  });

  it('the server clock skew is taken out of every comparison', () => {
    const e = result(7.25);
    expect(e.ttftErrMs).toBeCloseTo(1.5, 9);
    expect(e.tripMs).toBeCloseTo(2.5, 9);
    expect(e.eventDelayMeanMs).toBeCloseTo(1, 9);
  });

  it('requests without a hand-off stamp, failed ones, or with no server record are left out', () => {
    const e = timingErrors(
      { outputs: [out, { ...out, sentTime: undefined }, { ...out, success: false }], metrics: metrics(24, 10, 10), clockOriginMs: ORIGIN },
      [served(0, 3, [23, 33], 0), served(1, 0, [100, 200], 0), served(2, 0, [100, 200], 0)],
      0,
    );
    expect(e.tripMs).toBeCloseTo(2.5, 9);
    expect(e.sendDelayMs).toBeCloseTo(0.5, 9);
  });
});
