// The frontier never chooses a point whose requests failed beyond --max-failed: its throughput is
// over the successes only.
import { describe, expect, it } from 'vitest';
import { chooseForSlo, toFrontierPoint } from '../../../src/sweep/frontier.js';

const load = { kind: 'concurrency' as const, value: 8 };
const metrics = (out: number, completed: number, failed: number) => ({ completed, failed, output_throughput: out, mean_tpot_ms: 20 });

describe('frontier and failed requests', () => {
  it('marks a point over the share and chooses the clean one', () => {
    const faulty = toFrontierPoint({ variantId: 'a', label: 'a', load, metrics: metrics(2000, 70, 30) }, 1, [])!;
    const clean = toFrontierPoint({ variantId: 'b', label: 'b', load, metrics: metrics(1000, 100, 0) }, 1, [])!;
    expect(faulty.violations).toEqual(['30 of 100 requests failed (30%), over the --max-failed 1%']);
    expect(chooseForSlo([faulty, clean], [])!.point.variantId).toBe('b');
    const lenient = toFrontierPoint({ variantId: 'a', label: 'a', load, metrics: metrics(2000, 70, 30) }, 1, [], 50)!;
    expect(lenient.violations).toEqual([]);
  });
});
