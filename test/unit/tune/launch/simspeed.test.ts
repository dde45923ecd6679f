import { describe, expect, it } from 'vitest';
import { CLIENT_EVENT_BUDGET, MIN_AUTO_SPEED, predictedPeakEvents, speedForEventRate } from '../../../../src/tune/launch/simspeed.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';

const requests = (n: number, promptLen: number, out: number) =>
  Array.from({ length: n }, () => ({ prompt: 'x', promptLen, expectedOutputLen: out }));

describe('simulated clock speed per launch', () => {
  it('keeps the client under its event budget, within [MIN_AUTO_SPEED, max]', () => {
    expect(speedForEventRate(5, CLIENT_EVENT_BUDGET / 2)).toBe(2);
    expect(speedForEventRate(5, CLIENT_EVENT_BUDGET / 20)).toBe(5);
    expect(speedForEventRate(5, CLIENT_EVENT_BUDGET * 10)).toBe(MIN_AUTO_SPEED);
    // Rounded down, so the budget is never exceeded by rounding.
    expect(speedForEventRate(5, CLIENT_EVENT_BUDGET / 1.37)).toBe(1.3);
    expect(speedForEventRate(5, 0)).toBe(5);
  });

  it('predicts more events for a decode-heavy workload than a prefill-heavy one', () => {
    const variant = { id: 'v', engine: 'vllm' as const, model: 'Qwen/Qwen3-14B', knobs: {} };
    const sim = { gpu: 'H100', gpus: 1, seed: 0 };
    const decode = predictedPeakEvents(variant, sim, [
      { workload: { requests: requests(200, 200, 200), tokenCounts: 'approximate' } as never },
    ]);
    const prefill = predictedPeakEvents(variant, sim, [
      { workload: { requests: requests(20, 8000, 20), tokenCounts: 'approximate' } as never },
    ]);
    expect(decode).toBeGreaterThan(1000);
    expect(prefill).toBeGreaterThan(0);
    expect(decode!).toBeGreaterThan(prefill! * 2);
    expect(predictedPeakEvents({ ...variant, model: 'no/such-model' }, sim, [])).toBeUndefined();
  });

  it('is automatic unless --speed is given', () => {
    const auto = parseAutoArgs(['--auto', '--sim', '--model', 'Qwen/Qwen3-14B'], {}).config!;
    expect(auto.sim?.autoSpeed).toBe(true);
    const fixed = parseAutoArgs(['--auto', '--sim', '--model', 'Qwen/Qwen3-14B', '--speed', '3'], {}).config!;
    expect(fixed.sim?.autoSpeed).toBe(false);
    expect(fixed.sim?.speed).toBe(3);
  });
});
