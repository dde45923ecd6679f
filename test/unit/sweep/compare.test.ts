import { describe, expect, it } from 'vitest';
import { compareSweeps } from '../../../src/sweep/compare.js';
import { sweepRecord, sweepsOf, SweepRecordSchema } from '../../../src/sweep/record.js';
import { analyseSweeps } from '../../../src/sweep/analyse.js';
import { parseSlo } from '../../../src/core/slo-rule.js';
import { sweep, type Row } from '../../helpers/sweep/points.js';

const rows: Row[] = [
  [1, 800, 8, 9],
  [16, 9000, 12, 20],
  [64, 14800, 20, 38],
];
const scaled = (f: number) => [
  sweep(
    'a',
    'sglang fp8',
    rows.map(([c, o, t, p]) => [c, o * f, t, p] as Row),
  ),
];
const slo = parseSlo('tpot:p99<40');

describe('compareSweeps', () => {
  it('is a regression when the best point meeting the SLO drops beyond the margin', () => {
    const c = compareSweeps(scaled(1), scaled(0.9), { gpus: 8, slo, marginPct: 5 });
    expect(c.verdict).toBe('regression');
    expect(c.deltaPct).toBeCloseTo(-10, 6);
    expect(c.reasons[0]).toContain('at the SLO: recorded sglang fp8: 1,850 tok/s/GPU at 64 concurrent');
  });

  it('is ok within the margin and faster above it', () => {
    expect(compareSweeps(scaled(1), scaled(0.97), { gpus: 8, slo, marginPct: 5 }).verdict).toBe('ok');
    expect(compareSweeps(scaled(1), scaled(1.2), { gpus: 8, slo, marginPct: 5 }).verdict).toBe('faster');
  });

  it('is a regression when no point meets the SLO any more', () => {
    const now = [
      sweep(
        'a',
        'sglang fp8',
        rows.map(([c, o, t, p]) => [c, o, t, p * 3] as Row),
      ),
    ];
    expect(compareSweeps(scaled(1), now, { gpus: 8, slo, marginPct: 5 }).verdict).toBe('regression');
  });

  it('without an SLO, compares load by load and names the worst', () => {
    const now = [
      sweep('a', 'sglang fp8', [
        [1, 800, 8, 9],
        [16, 7000, 12, 20],
        [64, 14800, 20, 38],
      ]),
    ];
    const c = compareSweeps(scaled(1), now, { gpus: 8, slo: [], marginPct: 5 });
    expect(c.verdict).toBe('regression');
    expect(c.deltaPct).toBeCloseTo(-22.2, 1);
    expect(c.reasons).toContain('sglang fp8 at 16 concurrent: 1,125 -> 875 tok/s/GPU (-22.2%)');
  });
});

describe('the profile record', () => {
  it('round-trips through the schema (inf rates as null) and back to sweeps', () => {
    const s = [
      {
        ...scaled(1)[0]!,
        points: [...scaled(1)[0]!.points, { ...scaled(1)[0]!.points[0]!, load: { kind: 'rate' as const, value: Infinity } }],
      },
    ];
    const r = sweepRecord(s, analyseSweeps(s, 8, slo), {
      spec: { kind: 'concurrency', levels: [1, 16, 64] },
      workload: 'w',
      gpus: 8,
      slo,
      sweepAll: false,
      simulated: true,
    });
    const back = SweepRecordSchema.parse(JSON.parse(JSON.stringify(r)));
    expect(back.chosen!.sentence).toBe('sglang fp8: 1,850 tok/s/GPU at 64 concurrent, TPOT p99 38 ms');
    expect(back.variants[0]!.points[3]!.load).toEqual({ kind: 'rate', value: null });
    expect(sweepsOf(back)[0]!.points[3]!.load.value).toBe(Infinity);
    expect(sweepsOf(back)[0]!.points[2]!.metrics).toEqual(s[0]!.points[2]!.metrics);
  });
});
