// Adaptive repeats on scripted results: rerun the best two while within the margin, decide on
// medians, and the stated tie-break once the repeats are spent.
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../../src/core/events.js';
import { breakTie, nextRepeatStep, runSpreadPct } from '../../../../src/tune/decide/repeats.js';

const opts = { objective: 'total' as const, slo: [], marginPct: 2, repeatsMax: 3 };
function run(
  id: string,
  tput: number,
  extra: { p99Tpot?: number; startupS?: number; status?: VariantResult['status'] } = {},
): VariantResult {
  return {
    variantId: id,
    stage: 'engine',
    scenario: 'x',
    status: extra.status ?? 'ok',
    variant: { id, label: id } as unknown as VariantResult['variant'],
    argv: [],
    metrics: {
      completed: 100,
      total_token_throughput: tput,
      output_throughput: tput,
      request_throughput: 1,
      request_goodput: null,
      p99_tpot_ms: extra.p99Tpot ?? 20,
    } as unknown as VariantResult['metrics'],
    ...(extra.startupS !== undefined ? { startupS: extra.startupS } : {}),
    startedAt: '',
    finishedAt: '',
  };
}
const runs = (entries: [string, VariantResult[]][]) => new Map(entries);

describe('nextRepeatStep', () => {
  it('with the carried winner in the pair, no rerun when the measured spread cannot carry the gap past the margin', () => {
    // 0.1% apart, spread 0.5% measured earlier: at most 0.6% after another run, short of the 2% a challenger needs.
    const pair = runs([
      ['kept', [run('kept', 1000)]],
      ['challenger', [run('challenger', 1001)]],
    ]);
    const s = nextRepeatStep(pair, { ...opts, spreadPct: 0.5, keptId: 'kept' });
    expect(s).toMatchObject({ action: 'decide', tied: true });
    expect(s.why).toMatch(/cannot carry the gap past the margin/);
    // A wider spread could: rerun. Without a carried winner (engine stage) any separation decides: rerun.
    expect(nextRepeatStep(pair, { ...opts, spreadPct: 1.95, keptId: 'kept' })).toMatchObject({ action: 'rerun' });
    expect(nextRepeatStep(pair, { ...opts, spreadPct: 0.5 })).toMatchObject({ action: 'rerun' });
    // A pair without the carried winner is not decided by the greedy keep rule: rerun.
    expect(nextRepeatStep(pair, { ...opts, spreadPct: 0.5, keptId: 'other' })).toMatchObject({ action: 'rerun' });
  });

  it('with the carried winner third, no rerun of the two challengers when neither can beat it by the margin', () => {
    // Both challengers within 0.2% of the carried winner, spread 0.4% measured earlier: a rerun of
    // the two cannot make either beat the carried one by 2%, so it decides nothing (DeepSeek-R1's
    // batching stage in bench/tuning-cost spent 4 reruns on such a pair).
    const three = runs([
      ['kept', [run('kept', 1000)]],
      ['mbt16k', [run('mbt16k', 1002)]],
      ['mbt8k', [run('mbt8k', 1001)]],
    ]);
    const s = nextRepeatStep(three, { ...opts, spreadPct: 0.4, keptId: 'kept' });
    expect(s).toMatchObject({ action: 'decide', tied: false });
    expect(s.why).toMatch(/the carried winner stays, no further run/);
    // A challenger that a rerun could carry past the margin (1.8% + 0.4%): rerun the best two.
    const near = runs([
      ['kept', [run('kept', 1000)]],
      ['mbt16k', [run('mbt16k', 1018)]],
      ['mbt8k', [run('mbt8k', 1017)]],
    ]);
    expect(nextRepeatStep(near, { ...opts, spreadPct: 0.4, keptId: 'kept' })).toMatchObject({
      action: 'rerun',
      variantIds: ['mbt16k', 'mbt8k'],
    });
    // No spread measured yet: rerun (the first pair within the margin always is).
    expect(nextRepeatStep(three, { ...opts, keptId: 'kept' })).toMatchObject({ action: 'rerun' });
  });

  it('decides at once when the best leads the second by more than the margin', () => {
    const s = nextRepeatStep(
      runs([
        ['sglang', [run('sglang', 1000)]],
        ['trt', [run('trt', 1100)]],
        ['vllm', [run('vllm', 900)]],
      ]),
      opts,
    );
    expect(s).toMatchObject({ action: 'decide', tied: false });
    expect(s.action === 'decide' && s.ranked.map((r) => r.variantId)).toEqual(['trt', 'sglang', 'vllm']);
  });

  it('reruns the best two when they are within the margin (TensorRT-LLM +0.5% over SGLang)', () => {
    const s = nextRepeatStep(
      runs([
        ['vllm', [run('vllm', 900)]],
        ['sglang', [run('sglang', 1000)]],
        ['trt', [run('trt', 1005)]],
      ]),
      opts,
    );
    expect(s).toMatchObject({ action: 'rerun', variantIds: ['trt', 'sglang'] });
    expect(s.why).toMatch(/0\.5% apart, within the 2% noise margin: run 2 of 3/);
  });

  it('decides on the medians: an outlier first run does not decide', () => {
    // trt: 1005, 960, 965 -> median 965; sglang: 1000, 1002, 998 -> median 1000 (+3.6%).
    const s = nextRepeatStep(
      runs([
        ['sglang', [run('sglang', 1000), run('sglang', 1002), run('sglang', 998)]],
        ['trt', [run('trt', 1005), run('trt', 960), run('trt', 965)]],
      ]),
      opts,
    );
    expect(s).toMatchObject({ action: 'decide', tied: false });
    expect(s.action === 'decide' && s.ranked[0]!.variantId).toBe('sglang');
    expect(s.why).toMatch(/medians of 3 and 3 runs/);
  });

  it('after repeatsMax runs still within the margin and the measured spread: tied within noise, lower p99 TPOT wins', () => {
    // Medians 1000 and 1005 (0.5% apart); the runs themselves spread 2.2% and 1.5%.
    const s = nextRepeatStep(
      runs([
        ['sglang', [run('sglang', 1000, { p99Tpot: 18 }), run('sglang', 1012, { p99Tpot: 18 }), run('sglang', 990, { p99Tpot: 18 })]],
        ['trt', [run('trt', 1005, { p99Tpot: 21 }), run('trt', 995, { p99Tpot: 21 }), run('trt', 1010, { p99Tpot: 21 })]],
      ]),
      opts,
    );
    expect(s).toMatchObject({ action: 'decide', tied: true });
    expect(s.action === 'decide' && s.ranked[0]!.variantId).toBe('sglang');
    expect(s.why).toMatch(/tied within noise .* sglang wins on lower p99 TPOT \(18\.00 vs 21\.00 ms\)/);
  });

  it('stops repeating once the medians are further apart than the run-to-run spread the reruns measured', () => {
    // 1.5% apart (within the 2% margin), each variant's two runs within 0.1% of each other.
    const s = nextRepeatStep(
      runs([
        ['sglang', [run('sglang', 1000), run('sglang', 1001)]],
        ['trt', [run('trt', 1015), run('trt', 1016)]],
      ]),
      opts,
    );
    expect(s).toMatchObject({ action: 'decide', tied: false });
    expect(s.action === 'decide' && s.ranked[0]!.variantId).toBe('trt');
    expect(s.why).toMatch(/within the 2% margin but beyond the 0\.1% run-to-run spread measured/);
    // The same medians with noisier runs (1.5% spread) go on to run 3.
    const noisy = nextRepeatStep(
      runs([
        ['sglang', [run('sglang', 993), run('sglang', 1008)]],
        ['trt', [run('trt', 1015), run('trt', 1016)]],
      ]),
      opts,
    );
    expect(noisy).toMatchObject({ action: 'rerun' });
  });

  it('a spread measured earlier in the session decides single runs; none measured yet: rerun once', () => {
    const single = runs([
      ['sglang', [run('sglang', 1000)]],
      ['trt', [run('trt', 1015)]],
    ]);
    expect(nextRepeatStep(single, opts)).toMatchObject({ action: 'rerun' });
    expect(nextRepeatStep(single, { ...opts, spreadPct: 0.5 })).toMatchObject({ action: 'decide', tied: false });
    expect(nextRepeatStep(single, { ...opts, spreadPct: 3 })).toMatchObject({ action: 'rerun' });
  });

  it('runSpreadPct: the largest (max - min) / median of any variant run twice or more, failures left out', () => {
    expect(runSpreadPct(runs([['a', [run('a', 1000)]]]), 'total')).toBeUndefined();
    expect(runSpreadPct(runs([['a', [run('a', 1000)]]]), 'total', 1.5)).toBe(1.5);
    expect(
      runSpreadPct(
        runs([
          ['a', [run('a', 990), run('a', 1000), run('a', 1010)]],
          ['b', [run('b', 500), run('b', 0, { status: 'failed' })]],
        ]),
        'total',
      ),
    ).toBeCloseTo(2, 9);
  });

  it('repeatsMax 1 never reruns', () => {
    const s = nextRepeatStep(
      runs([
        ['a', [run('a', 1000)]],
        ['b', [run('b', 1001)]],
      ]),
      { ...opts, repeatsMax: 1 },
    );
    expect(s).toMatchObject({ action: 'decide', tied: true });
  });

  it('failed and pruned (stopped early) results take no part', () => {
    const s = nextRepeatStep(
      runs([
        ['a', [run('a', 1000)]],
        ['b', [run('b', 1001, { status: 'pruned' })]],
        ['c', [run('c', 0, { status: 'failed' })]],
      ]),
      opts,
    );
    expect(s).toMatchObject({ action: 'decide', tied: false });
    expect(s.action === 'decide' && s.ranked.map((r) => r.variantId)).toEqual(['a']);
  });
});

describe('breakTie', () => {
  it('lower p99 TPOT, then lower startup, then the one listed first', () => {
    expect(breakTie(run('a', 1, { p99Tpot: 30 }), run('b', 1, { p99Tpot: 20 }))[0].variantId).toBe('b');
    const [w, , why] = breakTie(run('a', 1, { startupS: 300 }), run('b', 1, { startupS: 120 }));
    expect(w.variantId).toBe('b');
    expect(why).toMatch(/faster startup \(120 vs 300 s\)/);
    expect(breakTie(run('a', 1), run('b', 1))[0].variantId).toBe('a');
  });
});

describe('a later stage whose carried winner ties with a challenger', () => {
  it("keeps the carried winner and does not say the tie rule's pick won", async () => {
    const { decideStageVerdict } = await import('../../../../src/tune/decide/stage-verdict.js');
    // Three runs each, 0.4% apart, spread 3% (wider than the margin): the tie rule would pick the
    // challenger on its lower p99 TPOT, but a challenger must beat the carried winner by the margin.
    const kept = [run('kept', 1000, { p99Tpot: 21 }), run('kept', 970, { p99Tpot: 21 }), run('kept', 1000, { p99Tpot: 21 })];
    const flash = [run('flash', 1004, { p99Tpot: 20 }), run('flash', 1004, { p99Tpot: 20 }), run('flash', 1000, { p99Tpot: 20 })];
    const step = nextRepeatStep(
      runs([
        ['kept', kept],
        ['flash', flash],
      ]),
      { ...opts, keptId: 'kept' },
    );
    expect(step).toMatchObject({ action: 'decide', tied: true });
    if (step.action !== 'decide') return;
    expect(step.why).toMatch(/flash wins on lower p99 TPOT/);
    const out = decideStageVerdict('attention', kept[0]!, null, step.ranked, { ...opts, repeats: step });
    expect(out.winner?.variantId).toBe('kept');
    expect(out.verdict.why).toMatch(
      /kept the carried winner; flash and kept tied within noise \(0\.4% apart after 3 and 3 runs, margin 2%, run-to-run spread 3\.\d%\): a tie keeps the carried winner$/,
    );
    expect(out.verdict.why).not.toMatch(/wins on/);
  });
});
