// The capacity part of the projection files what the capacity-* events carry (probes in order, the
// probe running now, the answer) and leaves the running panel empty once the answer is in; the
// --capacity flags are checked by servelab capacity's own rules.
import { describe, expect, it } from 'vitest';
import type { TuneEvent } from '../../../src/core/events.js';
import { projectSession } from '../../../src/core/view.js';
import { capacityFlags } from '../../../src/tune/request/capacity-flags.js';
import { capacitySummaryText } from '../../../src/cli/text-capacity.js';

const probe = (index: number, load: number, holds: boolean): TuneEvent => ({
  type: 'capacity-probe',
  variantId: 'vllm',
  index,
  load,
  numPrompts: 32,
  holds,
  breaks: holds ? null : 'ttft:p99',
  violations: holds ? [] : ['p99 TTFT 900 ms >= 800 ms'],
  figures: { p99_ttft_ms: holds ? 500 : 900 },
  line: `probe ${index}  ${load} concurrent users: ${holds ? 'holds' : 'fails'}`,
});

const events: TuneEvent[] = [
  { type: 'session-started', runDir: '/r', simulated: true, at: '2026-12-02T00:00:00Z' },
  {
    type: 'capacity-started',
    variantId: 'vllm',
    label: 'vllm defaults',
    by: 'concurrency',
    slo: 'ttft:p99<800',
    resolution: '10% of the answer',
    workload: 'random 128/32',
    rule: ['highest concurrency from 1 up to 64'],
  },
  { type: 'variant-launching', variantId: 'vllm', stage: 'capacity', argv: [], port: 1 },
  { type: 'capacity-probe-started', variantId: 'vllm', index: 1, load: 1, numPrompts: 32 },
  probe(1, 1, true),
  { type: 'capacity-probe-started', variantId: 'vllm', index: 2, load: 2, numPrompts: 32 },
];

describe('the capacity projection', () => {
  it('keeps probes in order and the one running', () => {
    const v = projectSession(events);
    expect(v.capacity?.probes.map((p) => p.load)).toEqual([1]);
    expect(v.capacity?.running).toEqual({ index: 2, load: 2, numPrompts: 32 });
    expect(capacitySummaryText(v.capacity).join('\n')).toMatch(
      /probe 2 {2}2 concurrent, 0\/32 requests: not finished\n {2}the search did not finish/,
    );
  });

  it("files a running probe's progress, with the core's line, in the headless text too", () => {
    const line = '  ... 2 concurrent users: 12/32 requests, at or over the limit (so far/fails at): ttft:p99 1/2';
    const progress: TuneEvent = { type: 'capacity-probe-progress', variantId: 'vllm', index: 2, load: 2, done: 12, planned: 32, line };
    const v = projectSession([...events, progress]);
    expect(v.capacity?.running).toEqual({ index: 2, load: 2, numPrompts: 32, done: 12, line });
    expect(capacitySummaryText(v.capacity).join('\n')).toContain('probe 2  2 concurrent, 12/32 requests: not finished');
    // Progress of a probe that is no longer the running one is not filed.
    expect(projectSession([...events, { ...progress, index: 1 } as TuneEvent]).capacity?.running?.done).toBeUndefined();
  });

  it('files the answer and clears the running launch', () => {
    const done: TuneEvent = {
      type: 'capacity-finished',
      variantId: 'vllm',
      by: 'concurrency',
      answer: 1,
      failing: 2,
      breaks: 'ttft:p99',
      goodput: 3.5,
      requests: 64,
      lines: ['answer: 1 concurrent user', 'goodput at the answer: 3.50 req/s'],
    };
    const v = projectSession([...events, probe(2, 2, false), done]);
    expect(v.capacity?.running).toBeUndefined();
    expect(v.capacity?.result).toMatchObject({ answer: 1, failing: 2, breaks: 'ttft:p99', goodput: 3.5 });
    expect(v.capacity?.probes.map((p) => [p.load, p.holds])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(v.running).toEqual({});
  });
});

describe('--capacity flags', () => {
  it('takes the SLO, the load kind, the resolution and the maximum', () => {
    expect(capacityFlags({})).toEqual({});
    expect(capacityFlags({ capacity: 'ttft:p99<2000, tpot:mean<100' })).toEqual({
      capacity: { slo: 'ttft:p99<2000,tpot:mean<100', by: 'concurrency', resolution: '10%', max: 4096 },
    });
    expect(capacityFlags({ capacity: 'tpot:mean<40', 'capacity-by': 'rate', 'capacity-resolution': '2', 'capacity-max': '64' })).toEqual({
      capacity: { slo: 'tpot:mean<40', by: 'rate', resolution: '2', max: 64 },
    });
  });

  it('refuses what the capacity command refuses', () => {
    expect(() => capacityFlags({ 'capacity-max': '8' })).toThrow(/--capacity-max needs --capacity RULES/);
    expect(() => capacityFlags({ capacity: 'ttft:p100<5' })).toThrow(/maximum cannot be judged/);
    expect(() => capacityFlags({ capacity: 'ttft:p99<5', 'capacity-by': 'users' })).toThrow(/--capacity-by must be concurrency or rate/);
    expect(() => capacityFlags({ capacity: 'ttft:p99<5', 'capacity-max': '1.5' })).toThrow(/--capacity-max/);
  });
});
