import { describe, expect, it } from 'vitest';
import { formatSweep, loadLabel, parseSweep, pointPrompts, sweepScenarios } from '../../../src/sweep/spec.js';
import { sharegptScenario } from '../../../src/tune/config/scenarios.js';

describe('parseSweep', () => {
  it('reads concurrency and rate levels, sorted, with inf as Infinity', () => {
    expect(parseSweep('concurrency:16,1,4')).toEqual({ kind: 'concurrency', levels: [1, 4, 16] });
    expect(parseSweep(' rate: 1, 2.5, inf ')).toEqual({ kind: 'rate', levels: [1, 2.5, Infinity] });
    expect(formatSweep(parseSweep('rate:1,inf'))).toBe('rate:1,inf');
  });

  it.each([
    ['concurrency', /expected e.g./],
    ['load:1,2', /expected e.g./],
    ['concurrency:', /expected e.g./],
    ['concurrency:0,4', /whole number >= 1/],
    ['concurrency:1.5', /whole number >= 1/],
    ['concurrency:inf', /whole number >= 1/],
    ['rate:-1', /requests\/s > 0 or inf/],
    ['concurrency:4,4', /repeated/],
  ])('refuses %s with one line (exit 2)', (text, msg) => {
    let err: unknown;
    try {
      parseSweep(text);
    } catch (e) {
      err = e;
    }
    expect((err as { code?: number }).code).toBe(2);
    expect((err as Error).message).toMatch(msg);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('sweepScenarios', () => {
  it('turns each level into a scenario of the tuning workload with its load', () => {
    const base = sharegptScenario({ scale: 1 });
    const pts = sweepScenarios(base, parseSweep('concurrency:1,64,512'));
    expect(pts.map((p) => p.name)).toEqual(['sharegpt-like@c1', 'sharegpt-like@c64', 'sharegpt-like@c512']);
    expect(pts.map((p) => p.maxConcurrency)).toEqual([1, 64, 512]);
    // Same dataset and seed as the workload; fewer prompts at light loads, never more than it has.
    expect(pts.every((p) => p.dataset === base.dataset && p.seed === base.seed && p.inputLen === base.inputLen)).toBe(true);
    expect(pts.map((p) => p.numPrompts)).toEqual([32, 512, 1000]);
    expect(loadLabel(pts[1]!.load)).toBe('64 concurrent');
    expect(sweepScenarios(base, parseSweep('concurrency:1'), 7)[0]!.numPrompts).toBe(7);
  });

  it('sizes rate points by arrivals and gives inf the whole workload', () => {
    expect(pointPrompts({ kind: 'rate', value: 2 }, 1000)).toBe(120);
    expect(pointPrompts({ kind: 'rate', value: Infinity }, 1000)).toBe(1000);
    expect(loadLabel({ kind: 'rate', value: Infinity })).toBe('all at once');
  });
});
