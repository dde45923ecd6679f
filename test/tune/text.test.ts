import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../src/core/events.js';
import { parseAutoArgs } from '../../src/tune/args.js';
import type { SessionOutcome } from '../../src/tune/session.js';
import { progressLine, summaryText, textTable } from '../../src/tune/text.js';

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
    metrics: { total_token_throughput: total, output_throughput: total / 2, mean_ttft_ms: 900, mean_tpot_ms: 40, completed: 10 } as unknown as VariantResult['metrics'],
    startupS: 61,
    predicted: { totalTokPerS: total * 1.1, meanTtftMs: 800, meanTpotMs: 35 },
    startedAt: 'a',
    finishedAt: 'b',
    ...extra,
  };
}

describe('text views', () => {
  it('pads tables with numbers right-aligned', () => {
    expect(textTable(['name', 'tok/s'], [['a', '5.0'], ['long', '123.4']])).toBe('name  tok/s\n----  -----\na       5.0\nlong  123.4');
  });

  it('summary: per-stage rows with prediction error, $/Mtok, failure reasons, winner command and before/after', () => {
    const config = parseAutoArgs(['--sim', '--gpus', '2', '--model', 'Qwen/Qwen3-14B', '--gpu-hour-price', '3.6']).config!;
    const winner = ok('sglang', 2000);
    const failed: VariantResult = { ...ok('trtllm', 0), status: 'pruned', metrics: undefined, failure: { kind: 'unsupported', reason: 'FP8 is not supported on this GPU' } };
    const outcome = {
      exitCode: 0,
      runDir: '/runs/x',
      plan: { host: { gpuCount: 2 } },
      stages: [{ name: 'engine', winnerId: 'sglang', gainPct: 25, results: [ok('vllm', 1600), winner, failed] }, { name: 'parallelism', winnerId: 'sglang', gainPct: null, skipped: 'nothing to try', results: [] }],
      winner,
      baseline: ok('vllm', 1600),
      validation: [{ scenario: 'sharegpt-like', baseline: { totalTokPerS: 1600, meanTpotMs: 40 }, optimized: { totalTokPerS: 2000, meanTpotMs: 40 }, gainPct: 25 }],
      profilePath: '/p.json',
      reportPath: '/p.md',
      profile: null,
      interrupted: false,
    } as unknown as SessionOutcome;
    const text = summaryText(outcome, config);
    // 2 GPUs at $3.6/h = $0.002/s; at 2000 tok/s: $1 per million tokens.
    expect(text).toMatch(/sglang \*\s+ok\s+2000\.0\s+1000\.0\s+900\s+40\.0\s+61\.0\s+2200\.0 \(\+10\.0%\)\s+\$1\.000/);
    expect(text).toMatch(/trtllm\s+pruned: unsupported/);
    expect(text).toContain('  trtllm: FP8 is not supported on this GPU');
    expect(text).toContain('Stage parallelism: skipped (nothing to try)');
    expect(text).toContain('$ VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve m');
    expect(text).toMatch(/sharegpt-like\s+1600\.0\s+40\.0\s+2000\.0\s+40\.0\s+\+25\.0%/);
    expect(text).toContain('Profile: /p.json');
  });

  it('progress lines: one per step, silent for logs and live snapshots', () => {
    expect(progressLine({ type: 'variant-launching', variantId: 'vllm', stage: 'engine', argv: [], port: 8100 })).toBe('  vllm: launching on port 8100');
    expect(progressLine({ type: 'stage-started', stage: 'parallelism', index: 2, variants: [], skipped: 'single GPU' })).toBe('stage 3 parallelism: skipped (single GPU)');
    expect(progressLine({ type: 'server-log', variantId: 'vllm', line: 'x', stream: 'stdout' })).toBeNull();
    expect(progressLine({ type: 'variant-finished', result: ok('vllm', 1000, { simulated: true, clientBound: true }) })).toBe(
      '  vllm: 1000.0 tok/s total, 500.0 out, TTFT 900 ms, TPOT 40.0 ms (simulated) [client-bound]',
    );
  });
});
