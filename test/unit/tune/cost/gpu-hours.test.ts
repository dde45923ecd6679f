// GPU-hours accounting on scripted times.
import { describe, expect, it } from 'vitest';
import { sessionGpuTime, simulatedWallS, variantGpuTime } from '../../../../src/tune/cost/gpu-hours.js';

describe('variantGpuTime', () => {
  it('GPUs x wall time, startup (launch to ready) and benchmark (ready to stop) apart', () => {
    const v = variantGpuTime({ gpus: 8, launchS: 100, readyS: 400, stopS: 1000 }, true);
    expect(v).toEqual({ gpus: 8, startupS: 300, benchmarkS: 600, startupGpuS: 2400, benchmarkGpuS: 4800, gpuS: 7200, simulated: true });
  });
  it('a variant that never became ready spent it all on startup', () => {
    expect(variantGpuTime({ gpus: 2, launchS: 0, stopS: 50 }, false)).toMatchObject({ startupS: 50, benchmarkS: 0, gpuS: 100 });
  });
  it('refuses times that run backwards', () => {
    expect(() => variantGpuTime({ gpus: 1, launchS: 10, stopS: 5 }, false)).toThrow(RangeError);
  });
});

describe('sessionGpuTime', () => {
  it('every host GPU for the whole session; what variants held is a share of it', () => {
    // A TP1 model tuned one variant at a time on an 8-GPU host: 7 GPUs idle but paid for.
    const vs = [0, 1, 2].map((i) => variantGpuTime({ gpus: 1, launchS: i * 600, readyS: i * 600 + 120, stopS: i * 600 + 600 }, true));
    const s = sessionGpuTime(8, 1800, vs, true);
    expect(s.hostGpuHours).toBeCloseTo(4, 12);
    expect(s.variantGpuHours).toBeCloseTo(0.5, 12);
    expect(s.startupGpuHours).toBeCloseTo(0.1, 12);
    expect(s.busyPct).toBeCloseTo(12.5, 9);
    expect(s.summary).toBe(
      '4.00 host GPU-hours (8 GPUs x 30 min); variants held 0.50 (startup 0.10, benchmark 0.40; 13% of the host) [simulated time: what the modelled host would spend]',
    );
  });

  it('parallel waves: the simulated wall time is the longest of each wave', () => {
    const a = variantGpuTime({ gpus: 1, launchS: 0, readyS: 100, stopS: 700 }, true);
    const b = variantGpuTime({ gpus: 1, launchS: 0, readyS: 200, stopS: 500 }, true);
    expect(simulatedWallS([[a, b], [b]], 30)).toBe(700 + 500 + 30);
    expect(sessionGpuTime(8, simulatedWallS([[a, b]]), [a, b], true).hostGpuHours).toBeCloseTo((8 * 700) / 3600, 12);
  });
});
