// One launch's GPU time from the runner's clock readings (src/tune/cost/variant-cost.ts): on the
// simulated host only the time the server served the client runs on the simulated clock; the
// client's own setup counts at wall time, as it would on a GPU host.
import { describe, expect, it } from 'vitest';
import type { Variant } from '../../../../src/core/variant.js';
import { launchGpuTime, servedWallS } from '../../../../src/tune/cost/variant-cost.js';

const tp2: Variant = { id: 'vllm-tp2', engine: 'vllm', model: 'Qwen/Qwen3-14B', knobs: { tp: 2 } };
// Launched at 0, ready at 1 s of wall, stopped at 11 s: 10 s of wall from ready to stop.
const clock = { launchMs: 0, readyMs: 1000, stopMs: 11_000, startupS: 30 };

describe('launchGpuTime', () => {
  it('simulated host: served time x the clock speed, the client setup around it at wall time', () => {
    const t = launchGpuTime(tp2, { ...clock, simSpeed: 5, servedWallS: 8 });
    // 8 s served x 5 + 2 s of client setup; scaling all of ready-to-stop gave 50.
    expect(t).toMatchObject({ gpus: 2, startupS: 30, benchmarkS: 42, benchmarkGpuS: 84, gpuS: 144, simulated: true });
  });
  it('simulated host without a served reading: all of ready-to-stop on the simulated clock', () => {
    expect(launchGpuTime(tp2, { ...clock, simSpeed: 5 }).benchmarkS).toBe(50);
  });
  it('a served reading longer than ready-to-stop is capped at it', () => {
    expect(launchGpuTime(tp2, { ...clock, simSpeed: 5, servedWallS: 12 }).benchmarkS).toBe(50);
  });
  it('GPU host: wall time, whatever the served reading', () => {
    expect(launchGpuTime(tp2, { ...clock, servedWallS: 8 })).toMatchObject({ startupS: 30, benchmarkS: 10, simulated: false });
  });
  it('a failed start is startup only', () => {
    expect(launchGpuTime(tp2, { launchMs: 0, stopMs: 4000, simSpeed: 5, servedWallS: 0 })).toMatchObject({ startupS: 20, benchmarkS: 0 });
  });
});

describe('servedWallS', () => {
  const startedAt = '2026-12-01T08:00:00.000Z';
  const origin = Date.parse(startedAt);
  it('from the client run start (warm-ups) to the end of the timed requests', () => {
    expect(servedWallS({ startedAt, clockOriginMs: origin + 1500, metrics: { duration: 6 } as never }, 8)).toBeCloseTo(7.5, 9);
  });
  it('never more than the call itself', () => {
    expect(servedWallS({ startedAt, clockOriginMs: origin + 1500, metrics: { duration: 6 } as never }, 7)).toBe(7);
  });
  it('without the clock origin: the whole call', () => {
    expect(servedWallS({ startedAt, metrics: { duration: 6 } as never }, 8)).toBe(8);
  });
});
