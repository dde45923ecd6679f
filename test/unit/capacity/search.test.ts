// The capacity search and its judge, pure: against an oracle server that holds up to a known load,
// the answer lands within the resolution and the failing probe is just above it; the probe size
// follows the stated percentile rule; the rule that breaks first is the one furthest over.
import { describe, expect, it } from 'vitest';
import { judgeProbe, probePrompts, sloPhrase, tailPrompts } from '../../../src/capacity/judge.js';
import { nextLoad, parseResolution, searchCapacity, type SearchSpec } from '../../../src/capacity/search.js';
import { parseSlo } from '../../../src/core/slo-rule.js';
import type { BenchMetrics } from '../../../src/core/metrics.js';

const oracle = (limit: number) => async (value: number) => ({ value, holds: value <= limit });

describe('capacity search', () => {
  it.each([
    [{ by: 'concurrency', start: 1, max: 4096, resolution: { value: 10, relative: true } }, 48],
    [{ by: 'concurrency', start: 1, max: 4096, resolution: { value: 1, relative: false } }, 777],
    [{ by: 'rate', start: 1, max: 1024, resolution: { value: 0.5, relative: false } }, 13.3],
    [{ by: 'concurrency', start: 16, max: 4096, resolution: { value: 10, relative: true } }, 3],
  ] as [SearchSpec, number][])(
    '%j against a server holding up to %d: answer within the resolution, the failing probe just above',
    async (spec, limit) => {
      const probes = await searchCapacity(spec, oracle(limit));
      const holding = probes.filter((p) => p.holds).map((p) => p.value);
      const failing = probes.filter((p) => !p.holds).map((p) => p.value);
      const answer = Math.max(...holding);
      const above = Math.min(...failing);
      expect(answer).toBeLessThanOrEqual(limit);
      expect(above).toBeGreaterThan(limit);
      const step = spec.resolution.relative ? (answer * spec.resolution.value) / 100 : spec.resolution.value;
      expect(above - answer).toBeLessThanOrEqual(Math.max(step, spec.by === 'concurrency' ? 1 : 0));
      // Doubling then bisecting: far fewer probes than loads in the range.
      expect(probes.length).toBeLessThan(25);
      expect(new Set(probes.map((p) => p.value)).size).toBe(probes.length);
    },
  );

  it('holds up to the highest load: the answer is --max and nothing failed', async () => {
    const probes = await searchCapacity({ by: 'concurrency', start: 1, max: 100, resolution: { value: 10, relative: true } }, oracle(1e9));
    expect(probes.map((p) => p.value)).toEqual([1, 2, 4, 8, 16, 32, 64, 100]);
    expect(probes.every((p) => p.holds)).toBe(true);
  });

  it('fails even at concurrency 1: the search ends with no answer', async () => {
    const probes = await searchCapacity({ by: 'concurrency', start: 4, max: 100, resolution: { value: 10, relative: true } }, oracle(0));
    expect(probes.map((p) => p.value)).toEqual([4, 2, 1]);
  });

  it('a noisy probe that holds above one that failed does not move the answer up', () => {
    const spec: SearchSpec = { by: 'concurrency', start: 1, max: 64, resolution: { value: 1, relative: false } };
    const next = nextLoad(spec, [
      { value: 8, holds: true },
      { value: 16, holds: false },
      { value: 32, holds: true },
    ]);
    expect(next).toBe(12);
  });

  it('parses --resolution as a step or a share; refuses anything else', () => {
    expect(parseResolution('4')).toEqual({ value: 4, relative: false });
    expect(parseResolution('10%')).toEqual({ value: 10, relative: true });
    for (const bad of ['0', '-1', '100%', 'ten', '']) expect(() => parseResolution(bad)).toThrow(/^bad --resolution/);
  });
});

describe('capacity judge', () => {
  it('sizes a probe for the percentile: p99 needs 1000 requests, p90 100, a mean a sweep point', () => {
    const [p99, p90, mean] = parseSlo('ttft:p99<2000,tpot:p90<50,tpot:mean<100');
    expect([tailPrompts(p99!), tailPrompts(p90!), tailPrompts(mean!)]).toEqual([1000, 100, 0]);
    expect(tailPrompts(parseSlo('ttft:p99.9<1')[0]!)).toBe(10_000);
    expect(probePrompts([mean!], 'concurrency', 1)).toBe(32);
    expect(probePrompts([mean!], 'concurrency', 64)).toBe(512);
    expect(probePrompts([p99!, mean!], 'concurrency', 64)).toBe(1000);
    expect(probePrompts([mean!], 'concurrency', 1, 200)).toBe(200);
    expect(probePrompts([mean!], 'rate', 2)).toBe(120);
  });

  it('names the rule furthest over its limit, and failed requests', () => {
    const slo = parseSlo('ttft:p99<2000,tpot:mean<100');
    const m = (ttft: number, tpot: number, failed = 0) =>
      ({ completed: 100, failed, p99_ttft_ms: ttft, mean_tpot_ms: tpot }) as unknown as BenchMetrics;
    expect(judgeProbe(m(1000, 50), slo)).toEqual({ holds: true, violations: [], breaks: null });
    expect(judgeProbe(m(2100, 150), slo).breaks).toBe('tpot:mean');
    expect(judgeProbe(m(5000, 150), slo).breaks).toBe('ttft:p99');
    const errors = judgeProbe(m(1000, 50, 3), slo);
    expect(errors).toMatchObject({ holds: false, breaks: 'errors' });
    expect(errors.violations).toEqual(['3 of 103 requests failed']);
    expect(slo.map(sloPhrase)).toEqual(['p99 TTFT < 2 s', 'mean TPOT < 100 ms']);
  });
});
