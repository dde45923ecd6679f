import { describe, expect, it } from 'vitest';
import type { TuneEvent, VariantResult } from '../../../src/core/events.js';
import { projectSession } from '../../../src/core/view.js';
import { type SessionView } from '../../../src/core/session-view.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { progressLine, summaryText, textTable } from '../../../src/cli/text.js';

function ok(id: string, total: number, extra: Partial<VariantResult> = {}): VariantResult {
  return {
    variantId: id,
    stage: 'engine',
    scenario: 'sharegpt-like',
    status: 'ok',
    variant: { id, engine: 'vllm', model: 'm', knobs: {} },
    argv: ['sim'],
    engineArgv: ['vllm', 'serve', 'm'],
    env: { VLLM_ATTENTION_BACKEND: 'FLASHINFER' },
    metrics: {
      total_token_throughput: total,
      output_throughput: total / 2,
      mean_ttft_ms: 900,
      mean_tpot_ms: 40,
      completed: 10,
    } as unknown as VariantResult['metrics'],
    startupS: 61,
    predicted: { totalTokPerS: total * 1.1, meanTtftMs: 800, meanTpotMs: 35 },
    startedAt: 'a',
    finishedAt: 'b',
    ...extra,
  };
}

describe('text views', () => {
  it('pads tables with numbers right-aligned', () => {
    expect(
      textTable(
        ['name', 'tok/s'],
        [
          ['a', '5.0'],
          ['long', '123.4'],
        ],
      ),
    ).toBe('name  tok/s\n----  -----\na       5.0\nlong  123.4');
  });

  it('summary: per-stage rows with prediction error, $/Mtok, failure reasons, winner command and before/after', () => {
    const config = parseAutoArgs(['--sim', '--gpus', '2', '--model', 'Qwen/Qwen3-14B', '--gpu-hour-price', '3.6']).config!;
    const winner = { ...ok('sglang', 2000), variant: { id: 'sglang', engine: 'sglang' as const, model: 'm', knobs: {} } };
    const failed: VariantResult = {
      ...ok('trtllm', 0),
      status: 'pruned',
      metrics: undefined,
      failure: { kind: 'unsupported', reason: 'FP8 is not supported on this GPU' },
    };
    const events: TuneEvent[] = [
      { type: 'session-started', runDir: '/runs/x', simulated: true, at: 'a' },
      { type: 'stage-started', stage: 'engine', index: 0, variants: ['vllm', 'sglang', 'trtllm'], carriedId: null },
      ...[ok('vllm', 1600), winner, failed].map((result) => ({ type: 'variant-finished' as const, result })),
      {
        type: 'stage-finished',
        stage: 'engine',
        winnerId: 'sglang',
        carriedId: null,
        referenceId: 'vllm',
        baselineId: 'vllm',
        gainPct: 25,
        gains: { vllm: 0, sglang: 25, trtllm: null },
        why: 'sglang is the fastest',
      },
      { type: 'stage-started', stage: 'parallelism', index: 1, variants: [], carriedId: 'sglang', skipped: 'nothing to try' },
      {
        type: 'stage-finished',
        stage: 'parallelism',
        winnerId: 'sglang',
        carriedId: 'sglang',
        referenceId: null,
        baselineId: 'vllm',
        gainPct: null,
        gains: {},
        why: 'skipped: nothing to try',
        skipped: 'nothing to try',
      },
      { type: 'validation-started', scenarios: ['sharegpt-like'], baselineId: 'vllm', winnerId: 'sglang' },
      {
        type: 'validation-finished',
        rows: [
          {
            scenario: 'sharegpt-like',
            baseline: { totalTokPerS: 1600, meanTpotMs: 40 },
            optimized: { totalTokPerS: 2000, meanTpotMs: 40 },
            gainPct: 25,
          },
        ],
      },
      { type: 'session-finished', profilePath: '/p.json', reportPath: '/p.md', exitCode: 0 },
    ];
    const view = { ...projectSession(events), plan: { host: { gpuCount: 2 } } } as SessionView;
    const text = summaryText(view, config);
    // 2 GPUs at $3.6/h = $0.002/s; at 2000 tok/s: $1 per million tokens.
    expect(text).toMatch(/sglang \*\s+ok\s+2000\.0\s+1000\.0\s+900\s+40\.0\s+61\.0\s+-\s+2200\.0 \(\+10\.0%\)\s+\+25\.0%\s+\$1\.000/);
    expect(text).toMatch(/vllm\s+ok\s+1600\.0.*\sref\s/);
    expect(text).toContain('stage gain: +25.0% vs the baseline vllm; kept sglang (sglang is the fastest)');
    expect(text).toMatch(/trtllm\s+pruned: unsupported/);
    expect(text).toContain('  trtllm: FP8 is not supported on this GPU');
    expect(text).toContain('Stage parallelism: skipped (nothing to try)');
    expect(text).toContain('$ VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve m');
    expect(text).toMatch(/sharegpt-like\s+1600\.0\s+40\.0\s+2000\.0\s+40\.0\s+\+25\.0%/);
    expect(text).toContain('Profile: /p.json');
  });

  it('progress lines: one per step, silent for logs and live snapshots', () => {
    expect(progressLine({ type: 'variant-launching', variantId: 'vllm', stage: 'engine', argv: [], port: 8100 })).toBe(
      '  vllm: launching on port 8100',
    );
    expect(
      progressLine({ type: 'variant-launching', variantId: 'vllm', stage: 'engine', argv: [], port: 8100, run: { n: 2, of: 3 } }),
    ).toBe('  vllm: launching on port 8100 (run 2 of 3)');
    // A stopped run reads "stopped early", with its bound, never "pruned (pruned)".
    const stopped = {
      variantId: 'vllm',
      stage: 'engine',
      scenario: 's',
      status: 'pruned',
      partial: true,
      failure: { kind: 'pruned', reason: 'stopped early: at least 4% below the leader at 600/1000 requests' },
    } as unknown as VariantResult;
    expect(progressLine({ type: 'variant-finished', result: stopped })).toBe(
      '  vllm: stopped early: at least 4% below the leader at 600/1000 requests (figures partial: the requests finished before the stop)',
    );
    expect(progressLine({ type: 'stage-started', stage: 'parallelism', index: 2, variants: [], skipped: 'single GPU' })).toBe(
      'stage 3 parallelism: skipped (single GPU)',
    );
    expect(progressLine({ type: 'server-log', variantId: 'vllm', line: 'x', stream: 'stdout' })).toBeNull();
    const verdict = {
      type: 'stage-finished' as const,
      stage: 'engine',
      winnerId: 'sglang',
      carriedId: null,
      referenceId: 'vllm',
      baselineId: 'vllm',
      gainPct: 26.5,
      gains: {},
      why: 'sglang is the fastest',
    };
    expect(progressLine(verdict)).toBe('stage engine: carrying sglang (+26.5% vs vllm)');
    expect(
      progressLine({
        ...verdict,
        stage: 'attention',
        carriedId: 'sglang',
        referenceId: 'sglang',
        gainPct: -4.9,
        why: 'best challenger is -4.9%',
      }),
    ).toBe('stage attention: keeping sglang (best challenger is -4.9%)');
    expect(progressLine({ type: 'variant-finished', result: ok('vllm', 1000, { simulated: true, clientBound: true }) })).toBe(
      '  vllm: 1000.0 tok/s total, 500.0 out, TTFT 900 ms, TPOT 40.0 ms (simulated) [client-bound]',
    );
  });
});

describe('summary under --dummy-weights', () => {
  it('marks the dummy rows, says why the others are real, and serves the winner on real weights', () => {
    const dummy = { kind: 'dummy' as const, why: 'dummy weights' };
    const winner = ok('vllm', 2000, { engineArgv: ['vllm', 'serve', 'm', '--load-format', 'dummy'], weights: dummy });
    const spec = ok('vllm-spec', 1500, {
      weights: { kind: 'real', why: 'speculative decoding: draft acceptance depends on the real weights' },
    });
    const events: TuneEvent[] = [
      { type: 'stage-started', stage: 'engine', index: 0, variants: ['vllm', 'vllm-spec'], carriedId: null },
      ...[winner, spec].map((result) => ({ type: 'variant-finished' as const, result })),
      {
        type: 'stage-finished',
        stage: 'engine',
        winnerId: 'vllm',
        carriedId: null,
        referenceId: 'vllm',
        baselineId: 'vllm',
        gainPct: 0,
        gains: {},
        why: 'fastest',
      },
    ];
    const text = summaryText({ ...projectSession(events), plan: { host: { gpuCount: 1 } } } as SessionView);
    expect(text).toMatch(/^vllm \* \[dummy\]\s+ok/m);
    expect(text).toMatch(/^vllm-spec\s+ok/m);
    expect(text).toContain('Winner: vllm (tuned on dummy weights; the command loads the real ones)');
    expect(text).toMatch(/\$ VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve m\n/);
    expect(text).toContain(
      '[dummy] = Dummy weights (--dummy-weights, --load-format dummy; every tuning benchmark sent ignore_eos): vllm. Real weights for vllm-spec: speculative decoding',
    );
  });
});
