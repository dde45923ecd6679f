// The re-probe rule: one bad probe does not set the boundary; a load fails when two agree.
import { describe, expect, it } from 'vitest';
import { loadVerdict, marginPct, reprobeNoise } from '../../../src/capacity/reprobe.js';
import { pilotStart } from '../../../src/capacity/pilot.js';
import { parseSlo } from '../../../src/core/slo-rule.js';

const slo = parseSlo('ttft:p99<500');
const probe = (ms: number, early?: string) => ({ holds: ms < 500, metrics: { p99_ttft_ms: ms }, ...(early ? { early } : {}) });

describe('loadVerdict', () => {
  it('a single failing probe asks for a re-probe; a holding re-probe asks for a third', () => {
    expect(loadVerdict([probe(620)], slo)).toBeNull();
    expect(loadVerdict([probe(620), probe(410)], slo)).toBeNull();
    expect(loadVerdict([probe(620), probe(410), probe(420)], slo)).toBe('holds');
  });
  it('a load that fails twice fails', () => {
    expect(loadVerdict([probe(620), probe(580)], slo)).toBe('fails');
    expect(loadVerdict([probe(620), probe(410), probe(530)], slo)).toBe('fails');
  });
  it('a holding probe far under the limit settles at once; one within the margin is re-probed', () => {
    expect(loadVerdict([probe(400)], slo)).toBe('holds');
    expect(loadVerdict([probe(495)], slo)).toBeNull();
    // Within 10% of the limit, with ±12% measured: re-probed.
    expect(loadVerdict([probe(450)], slo, { pct: 12, runs: 2, source: 'x' })).toBeNull();
    expect(loadVerdict([probe(450)], slo, { pct: 4, runs: 2, source: 'x' })).toBe('holds');
  });
});

describe('reprobeNoise and marginPct', () => {
  it('measures half the range over full probes of one load, in % of their mean', () => {
    expect(reprobeNoise([[probe(400)], [probe(480), probe(520)]], slo)).toEqual({
      pct: 4,
      runs: 2,
      source: '2 probes re-run at the same load',
    });
    expect(reprobeNoise([[probe(480), probe(900, 'stopped')]], slo)).toBeUndefined();
    expect(reprobeNoise([[probe(480), probe(440, 'settled')]], slo)?.pct).toBe(4.3);
  });
  it('says how far under the tightest limit a probe sits', () => {
    expect(marginPct({ p99_ttft_ms: 412 }, slo)).toBeCloseTo(17.6);
  });
});

describe('pilotStart', () => {
  it('doubles short pilots until one fails and starts the search at the last that held', async () => {
    const tried: number[] = [];
    const start = await pilotStart({ by: 'concurrency', start: 1, max: 256 }, async (c) => (tried.push(c), { holds: c <= 20 }), 1000);
    expect(tried).toEqual([1, 2, 4, 8, 16, 32]);
    expect(start).toBe(16);
  });
  it('takes no pilot when the full probe is already small, or by rate', async () => {
    expect(await pilotStart({ by: 'concurrency', start: 1, max: 8 }, async () => ({ holds: true }), 32)).toBe(1);
    expect(await pilotStart({ by: 'rate', start: 1, max: 8 }, async () => ({ holds: true }), 1000)).toBe(1);
  });
});
