// The Results legend for dummy-weight rows names each engine's own spelling, the winner's first.
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../src/core/events.js';
import { dummyLegend } from '../../../src/tui/panels/results/verdicts.js';
import type { ResultRow, StageTable } from '../../../src/tui/state/results.js';

const VLLM = 'dummy weights (--load-format dummy, outputs fixed by ignore_eos): same shapes and kernels, no weight load';
const TRT =
  'dummy weights (load_format: dummy in its --extra_llm_api_options YAML, outputs fixed by ignore_eos): same shapes and kernels, no weight load';

function row(id: string, why: string | null): ResultRow {
  const result = { variantId: id, ...(why ? { weights: { kind: 'dummy', why } } : {}) } as unknown as VariantResult;
  return { result, label: id, gainPct: null, dollarsPerMtok: null, isWinner: false, isCarried: false, isReference: false } as ResultRow;
}

const table = (winnerId: string, rows: ResultRow[]) => ({ stage: 'engine', winnerId, rows }) as unknown as StageTable;

describe('dummyLegend', () => {
  it("gives the winner engine's spelling first, then the others once each", () => {
    const lines = dummyLegend(table('trtllm', [row('vllm', VLLM), row('sglang', VLLM), row('trtllm', TRT)]), 400);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      '† dummy weights, not the real checkpoint (same shapes and kernels, no weight load): load_format: dummy in its --extra_llm_api_options YAML, outputs fixed by ignore_eos; --load-format dummy, outputs fixed by ignore_eos',
    );
    // Reasons of another shape are given whole.
    expect(dummyLegend(table('vllm', [row('vllm', '--load-format dummy')]), 400)).toEqual([
      '† measured with dummy weights, not the real checkpoint: --load-format dummy',
    ]);
  });

  it('keeps its tail at 80 columns: wrapped, every engine\'s reason whole (QA: it ended in "…")', () => {
    const trt = TRT.replace('(load_format', '(TensorRT-LLM: load_format');
    const lines = dummyLegend(table('trtllm', [row('vllm', VLLM), row('trtllm', trt)]), 80);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    // The shared effect is said once; each engine's spelling whole.
    expect(lines.join(' ')).toBe(
      '† dummy weights, not the real checkpoint (same shapes and kernels, no weight load): TensorRT-LLM: load_format: dummy in its --extra_llm_api_options YAML, outputs fixed by ignore_eos; --load-format dummy, outputs fixed by ignore_eos',
    );
  });

  it('is empty when no row used dummy weights', () => {
    expect(dummyLegend(table('vllm', [row('vllm', null)]), 80)).toEqual([]);
  });
});
