// Which file each engine served: the core names it on each row (servedName: the model id,
// or llama.cpp's GGUF file and weight type), the projection keeps it for a stage whose rows differ,
// and the summary table and the Results page say it from there.
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../src/core/events.js';
import { applyToView, emptyView } from '../../../src/core/view.js';
import { summaryText } from '../../../src/cli/text.js';
import { servedName } from '../../../src/engines/index.js';
import { stageTables } from '../../../src/tui/state/results.js';
import { servedLines } from '../../../src/tui/panels/results/verdicts.js';
import { LLAMA_SKIP, testGguf } from '../../helpers/llamacpp-fixture.js';
import { skipNote } from '../../helpers/skip.js';

const row = (variantId: string, engine: 'vllm' | 'llamacpp', model: string, served: string, tokS: number): VariantResult => ({
  variantId,
  stage: 'engine',
  scenario: 's',
  status: 'ok',
  variant: { id: variantId, engine, model, knobs: {}, label: variantId },
  argv: [],
  served,
  metrics: {
    total_token_throughput: tokS,
    output_throughput: tokS / 2,
    mean_ttft_ms: 10,
    mean_tpot_ms: 5,
  } as unknown as VariantResult['metrics'],
  startedAt: '2026-12-01T00:00:00Z',
  finishedAt: '2026-12-01T00:00:01Z',
});

const viewOf = (rows: VariantResult[]) =>
  rows.reduce(
    (v, result) => applyToView(v, { type: 'variant-finished', result }),
    applyToView(emptyView(), { type: 'session-started', runDir: '/r', simulated: false, at: '2026-12-01T00:00:00Z' } as never),
  );

describe('the comparison table says which file each engine served', () => {
  it.skipIf(LLAMA_SKIP !== undefined)(`names a GGUF by file and weight type, a checkpoint by its id${skipNote(LLAMA_SKIP)}`, () => {
    expect(servedName({ engine: 'llamacpp', model: testGguf() })).toBe('qwen3-256x4.gguf (F16)');
    expect(servedName({ engine: 'vllm', model: 'Qwen/Qwen3-14B' })).toBe('Qwen/Qwen3-14B');
  });

  it('an engine stage serving different files shows them in the summary and on the Results page', () => {
    const view = viewOf([
      row('vllm', 'vllm', 'Qwen/Qwen3-14B', 'Qwen/Qwen3-14B', 900),
      row('llamacpp', 'llamacpp', '/m/q.gguf', 'q.gguf (Q4_K_M)', 300),
    ]);
    expect(view.stages[0]!.served).toEqual({ vllm: 'Qwen/Qwen3-14B', llamacpp: 'q.gguf (Q4_K_M)' });
    const text = summaryText(view);
    expect(text).toMatch(/^variant\s+serves\s+status/m);
    expect(text).toMatch(/^vllm\s+Qwen\/Qwen3-14B\s+ok/m);
    expect(text).toMatch(/^llamacpp\s+q\.gguf \(Q4_K_M\)\s+ok/m);
    const [table] = stageTables(view, { labels: {}, gpus: 1 });
    expect(servedLines(table, 200)).toEqual(['serves: vllm Qwen/Qwen3-14B · llamacpp q.gguf (Q4_K_M)']);
  });

  it('rows that all served the same file add no column', () => {
    const view = viewOf([row('a', 'llamacpp', '/m/q.gguf', 'q.gguf (F16)', 1), row('b', 'llamacpp', '/m/q.gguf', 'q.gguf (F16)', 2)]);
    expect(view.stages[0]!.served).toBeUndefined();
    expect(summaryText(view)).not.toMatch(/serves/);
    expect(servedLines(stageTables(view, { labels: {}, gpus: 1 })[0], 200)).toEqual([]);
  });
});
