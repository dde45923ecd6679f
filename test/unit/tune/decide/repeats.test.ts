// Tied sets on scripted results: a rerun in reverse order while the noise is unknown or the best
// two cannot be told apart, intervals under the measured noise, and a tie broken by the declared
// order of properties (never by a measured figure such as p99 TPOT).
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../../src/core/events.js';
import type { Knobs } from '../../../../src/core/variant.js';
import { nextRepeatStep } from '../../../../src/tune/decide/repeats.js';
import { decideStageVerdict } from '../../../../src/tune/decide/stage-verdict.js';

const opts = { objective: 'total' as const, slo: [], marginPct: 2, repeatsMax: 3 };
const noise = (pct: number) => ({ pct, runs: 6, source: 'test runs', df: 4 });
function run(
  id: string,
  tput: number,
  extra: { p99Tpot?: number; status?: VariantResult['status']; at?: string; knobs?: Knobs } = {},
): VariantResult {
  return {
    variantId: id,
    stage: 'engine',
    scenario: 'x',
    status: extra.status ?? 'ok',
    variant: { id, label: id, engine: 'llamacpp', model: 'm', knobs: extra.knobs ?? {} },
    argv: [],
    metrics: {
      completed: 100,
      total_token_throughput: tput,
      output_throughput: tput,
      request_throughput: 1,
      request_goodput: null,
      p99_tpot_ms: extra.p99Tpot ?? 20,
    } as unknown as VariantResult['metrics'],
    startedAt: extra.at ?? '',
    finishedAt: '',
  };
}
const runs = (entries: [string, VariantResult[]][]) => new Map(entries);

describe('nextRepeatStep', () => {
  it('measures the noise first: the best two again, the one that ran last first (A B then B A)', () => {
    const s = nextRepeatStep(
      runs([
        ['a', [run('a', 1000, { at: '2026-01-01T00:00:00Z' })]],
        ['b', [run('b', 1500, { at: '2026-01-01T00:05:00Z' })]],
      ]),
      opts,
    );
    expect(s).toMatchObject({ action: 'rerun', variantIds: ['b', 'a'] });
    expect(s.why).toMatch(/measuring this host's noise/);
  });

  it('keeps measuring while the noise rests on fewer than 4 degrees of freedom, then decides on it', () => {
    const pair = runs([
      ['a', [1000, 1300].map((v) => run('a', v))],
      ['b', [1500, 1200].map((v) => run('b', v))],
    ]);
    const thin = nextRepeatStep(pair, { ...opts, noise: { ...noise(46), df: 2 } });
    expect(thin).toMatchObject({ action: 'rerun' });
    expect(thin.why).toMatch(
      /^measuring this host's noise: .* \(±46\.0% \(test runs\) rests on 2 degrees of freedom: too few to decide on\)$/,
    );
    // The same runs with the noise on 4 degrees of freedom: no noise run is asked for (a confirmation may be).
    expect(nextRepeatStep(pair, { ...opts, noise: noise(46) }).why).not.toMatch(/measuring this host's noise/);
  });

  it('a lead beyond the effective margin decides, and the why names that margin and the noise', () => {
    const s = nextRepeatStep(
      runs([
        ['a', [run('a', 1000)]],
        ['b', [run('b', 1500)]],
      ]),
      { ...opts, noise: noise(5) },
    );
    expect(s).toMatchObject({ action: 'decide', tied: false, tiedIds: ['b'] });
    if (s.action !== 'decide') return;
    // One run each: the intervals' half-widths add up to 2 x 5%.
    expect(s.marginPct).toBeCloseTo(10);
    expect(s.why).toMatch(/b leads a by 33\.3% .*beyond the ±10\.0% effective margin \(noise ±5\.0% \(test runs\), --margin 2%\)/);
    expect(s.intervals['a']).toMatchObject({ mean: 1000, halfPct: 5, runs: 1 });
  });

  it('within the margin with runs to spare: confirms in reverse order of the last runs', () => {
    const s = nextRepeatStep(
      runs([
        ['a', [run('a', 1000, { at: '2026-01-01T00:09:00Z' })]],
        ['b', [run('b', 1060, { at: '2026-01-01T00:01:00Z' })]],
      ]),
      { ...opts, noise: noise(5) },
    );
    expect(s).toMatchObject({ action: 'rerun', variantIds: ['a', 'b'] });
    expect(s.why).toMatch(/^confirming: b and a are 5\.7% apart, within the ±10\.0% margin; a then b in reverse order/);
  });

  it('a tied set is broken by the declared order: fewest slots, whatever p99 TPOT says', () => {
    const s8 = [1000, 1010, 990].map((v) => run('s8', v, { p99Tpot: 30, knobs: { maxRunningSeqs: 8 } }));
    const s16 = [1020, 1030, 1000].map((v) => run('s16', v, { p99Tpot: 10, knobs: { maxRunningSeqs: 16 } }));
    const s32 = [1015, 1000, 1020].map((v) => run('s32', v, { p99Tpot: 12, knobs: { maxRunningSeqs: 32 } }));
    const s = nextRepeatStep(
      runs([
        ['s16', s16],
        ['s8', s8],
        ['s32', s32],
      ]),
      { ...opts, noise: noise(6) },
    );
    expect(s).toMatchObject({ action: 'decide', tied: true, tiedIds: ['s16', 's8', 's32'], tieBreak: 'holds the fewest slots' });
    if (s.action !== 'decide') return;
    expect(s.ranked[0]!.variantId).toBe('s8');
    expect(s.why).toMatch(
      /^tied within noise: ±6\.9% with s16 and s32 \(after 3, 3, 3 runs, noise ±6\.0% \(test runs\)\): s8 holds the fewest slots$/,
    );
  });

  it('a lead the tie-break set aside says how many runs of each would tell it from the noise; none within --margin', () => {
    const s8 = [1000, 1010, 990].map((v) => run('s8', v, { knobs: { maxRunningSeqs: 8 } }));
    const s16 = [1240, 1250, 1230].map((v) => run('s16', v, { knobs: { maxRunningSeqs: 16 } }));
    const pair = runs([
      ['s8', s8],
      ['s16', s16],
    ]);
    const s = nextRepeatStep(pair, { ...opts, noise: noise(24) });
    expect(s).toMatchObject({ action: 'decide', tied: true, tiedIds: ['s8', 's16'], tieBreak: 'holds the fewest slots' });
    // 19.4% apart; the margin at n runs each is 24% x 2 / sqrt(n): 7 runs (18.1%) is the first below the gap.
    expect(s.why).toMatch(/: s8 holds the fewest slots \(--repeats-max 7 would tell s16's 19\.4% lead from this noise\)$/);
    // A gap no number of runs can make count (within --margin 25%): no hint.
    const wide = nextRepeatStep(pair, { ...opts, marginPct: 25, noise: noise(24) });
    expect(wide.why).toMatch(/s8 holds the fewest slots$/);
  });

  it('a member in the tied set on one run, which the tie-break would keep, runs again even where a preferred one at its --repeats-max fell out', () => {
    const s16 = [1240, 1250, 1230].map((v) => run('s16', v, { knobs: { maxRunningSeqs: 16 } }));
    // At --repeats-max, 20% below: outside the set (margin 15% x 2 / sqrt(3) = 17.3%).
    const s4 = [1000, 990, 980].map((v) => run('s4', v, { knobs: { maxRunningSeqs: 4 } }));
    // One run, 20.6% below: inside on its wide interval (15% x (1 + 1 / sqrt(3)) = 23.7%).
    const s8 = [run('s8', 985, { knobs: { maxRunningSeqs: 8 } })];
    const s = nextRepeatStep(
      runs([
        ['s4', s4],
        ['s16', s16],
        ['s8', s8],
      ]),
      { ...opts, noise: noise(15) },
    );
    expect(s).toMatchObject({ action: 'rerun', variantIds: ['s8'] });
    expect(s.why).toMatch(/^confirming: s16 and s8 are 20\.6% apart, within the ±23\.7% margin; s8 once more, beside s16's 3 runs/);
  });

  it('stops early when even --repeats-max runs could not separate the two', () => {
    const s = nextRepeatStep(
      runs([
        ['a', [run('a', 1000)]],
        ['b', [run('b', 1005)]],
      ]),
      { ...opts, noise: noise(5) },
    );
    expect(s).toMatchObject({ action: 'decide', tied: true });
  });

  it('repeatsMax 1 never reruns; failed results take no part', () => {
    const s = nextRepeatStep(
      runs([
        ['a', [run('a', 1000)]],
        ['b', [run('b', 1001)]],
        ['c', [run('c', 5000, { status: 'failed' })]],
      ]),
      { ...opts, repeatsMax: 1 },
    );
    expect(s.action).toBe('decide');
    if (s.action === 'decide') expect(s.tiedIds).toEqual(['a', 'b']);
  });
});

describe('the edge of the tied set is measured before the tie-break decides on it', () => {
  const slots = (n: number): Knobs => ({ maxRunningSeqs: n });
  const cut = (id: string, bound: number, knobs: Knobs): VariantResult => ({
    ...run(id, bound / 2, { status: 'pruned', knobs }),
    partial: true,
    stopBound: bound,
    failure: { kind: 'pruned', reason: 'stopped early: at least 30% below the leader at 16/24 requests' },
  });
  const leader = [1000, 1020, 990].map((v) => run('s16', v, { knobs: slots(16) }));

  it('a variant stopped early that the tie-break would keep, its bound within twice the margin, runs once in full', () => {
    const s = nextRepeatStep(
      runs([
        ['s16', leader],
        ['s8', [cut('s8', 800, slots(8))]],
        ['s32', [run('s32', 990, { knobs: slots(32) })]],
      ]),
      { ...opts, noise: noise(10) },
    );
    expect(s).toMatchObject({ action: 'rerun', variantIds: ['s8'] });
    expect(s.why).toMatch(
      /^confirming: s8 was stopped early: at least 30% below .*, and the tie-break would keep it \(holds the fewest slots\): one run in full$/,
    );
  });

  it('not when its bound lies beyond twice the margin, nor when the tie-break would not keep it', () => {
    const far = nextRepeatStep(
      runs([
        ['s16', leader],
        ['s8', [cut('s8', 600, slots(8))]],
      ]),
      { ...opts, noise: noise(10) },
    );
    expect(far).toMatchObject({ action: 'decide', tiedIds: ['s16'] });
    const more = nextRepeatStep(
      runs([
        ['s16', leader],
        ['s64', [cut('s64', 990, slots(64))]],
      ]),
      { ...opts, noise: noise(10) },
    );
    expect(more).toMatchObject({ action: 'decide', tiedIds: ['s16'] });
  });

  it('once run in full it is judged on that run; a second cut is not asked for', () => {
    const full = run('s8', 900, { knobs: slots(8), at: '2026-01-01T00:09:00Z' });
    const s = nextRepeatStep(
      runs([
        ['s16', leader],
        ['s8', [cut('s8', 800, slots(8)), full]],
      ]),
      { ...opts, noise: noise(10) },
    );
    // 10.3% behind a leader at its 3 runs, within the margin: confirmed alone (the cut run counts toward --repeats-max).
    expect(s).toMatchObject({ action: 'rerun', variantIds: ['s8'] });
    expect(s.why).toMatch(/s8 once more, beside s16's 3 runs \(run 3 of 3\)$/);
  });

  it('a leader at --repeats-max does not hold back the pick: the member the tie-break keeps is confirmed alone', () => {
    const s = nextRepeatStep(
      runs([
        ['s16', leader],
        ['s8', [run('s8', 940, { knobs: slots(8) })]],
      ]),
      { ...opts, noise: noise(10) },
    );
    expect(s).toMatchObject({ action: 'rerun', variantIds: ['s8'] });
    const done = nextRepeatStep(
      runs([
        ['s16', leader],
        ['s8', [940, 930, 950].map((v) => run('s8', v, { knobs: slots(8) }))],
      ]),
      { ...opts, noise: noise(10) },
    );
    expect(done).toMatchObject({ action: 'decide', tied: true, tiedIds: ['s16', 's8'] });
    if (done.action === 'decide') expect(done.ranked[0]!.variantId).toBe('s8');
  });
});

describe('a later stage whose carried winner ties with a challenger', () => {
  it('the declared order decides among them, the carried winner included, and the why names the property', () => {
    // The carried winner sets threads (t=8); the challenger t=4 ties with it: fewer threads wins.
    const kept = [1000, 980, 1010].map((v) => run('t8', v, { knobs: { threads: 8 } }));
    const t4 = [1004, 990, 1000].map((v) => run('t4', v, { knobs: { threads: 4 } }));
    const step = nextRepeatStep(
      runs([
        ['t8', kept],
        ['t4', t4],
      ]),
      { ...opts, noise: noise(4) },
    );
    expect(step).toMatchObject({ action: 'decide', tied: true });
    if (step.action !== 'decide') return;
    const out = decideStageVerdict('threads', kept[0]!, null, [t4[0]!], { ...opts, repeats: step, noise: noise(4) });
    expect(out.winner?.variantId).toBe('t4');
    expect(out.verdict).toMatchObject({ tied: true, tiedIds: ['t8', 't4'], tieBreak: 'uses the fewest threads', noise: { pct: 4 } });
    expect(out.verdict.why).toMatch(/t4 uses the fewest threads$/);
  });
});
