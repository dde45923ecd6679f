// Engines differ when the KV pool is smaller than one max-length sequence: vLLM refuses to start,
// SGLang caps requests at the pool (tp_worker.py: max_req_len = min(context_len - 1,
// max_total_num_tokens - 1)), TRT-LLM shrinks max_seq_len. Qwen3-32B BF16 on one H100 is such a
// case (about 4.5 GiB of KV against 10 GiB for 40,960 tokens).
import { describe, expect, it } from 'vitest';
import { resolveServer } from '../../src/model/estimate.js';
import { findGpu } from '../../src/model/gpus.js';
import { getModel } from '../../src/model/models.js';
import { simulateWorkload } from '../../src/sim/virtual.js';

const h100 = findGpu('H100')!;
const m = getModel('Qwen/Qwen3-32B')!;

describe("vLLM's KV budget against its own start-up logs", () => {
  // "Available KV cache memory" logged by vLLM on one H100 (79.18 GiB), --max-model-len 16000,
  // github.com/llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md: Qwen3-32B
  // 4.45 GiB, Llama-3.1-8B 51.38 GiB. The sampler's profile peak is most of the difference from
  // a weights-only budget (src/model/kv-budget.ts).
  it.each([
    ['Qwen/Qwen3-32B', 4.45],
    ['meta-llama/Llama-3.1-8B-Instruct', 51.38],
  ])('%s: %f GiB within 0.2 GiB', (model, logged) => {
    const s = resolveServer('vllm', h100, 1, getModel(model)!, { maxModelLen: 16000 });
    expect(s.fit.fits).toBe(true);
    expect(Math.abs(s.kvBytesPerGpu / 2 ** 30 - logged)).toBeLessThan(0.2);
  });
});

describe('a KV pool smaller than the context', () => {
  it('vLLM refuses with the numbers; SGLang and TRT-LLM start', () => {
    const v = resolveServer('vllm', h100, 1, m, {});
    expect(v.fit).toMatchObject({ fits: false, kind: 'kv-too-small' });
    expect(v.fit.reason).toMatch(/one 40960-token sequence needs 10\.00 GiB/);
    expect(resolveServer('sglang', h100, 1, m, {}).fit.fits).toBe(true);
    expect(resolveServer('trtllm', h100, 1, m, {}).fit.fits).toBe(true);
    // A shorter --max-model-len makes vLLM fit.
    expect(resolveServer('vllm', h100, 1, m, { maxModelLen: 16384 }).fit.fits).toBe(true);
  });

  it('SGLang serves requests within its pool', () => {
    const r = simulateWorkload({ engine: 'sglang', gpu: 'H100', gpus: 1, model: m, knobs: {}, requests: Array.from({ length: 20 }, () => ({ promptLen: 500, outputLen: 50 })), seed: 1 });
    expect(r.metrics?.completed).toBe(20);
    expect(r.kvCapacityTokens).toBeLessThan(40960);
  });
});
