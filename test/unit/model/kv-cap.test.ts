// Engines differ when the KV pool is smaller than one max-length sequence: vLLM refuses to start,
// SGLang caps requests at the pool (tp_worker.py: max_req_len = min(context_len - 1,
// max_total_num_tokens - 1)), TRT-LLM shrinks max_seq_len. Qwen3-32B BF16 on one H100 is such a
// case (about 8.1 GiB of KV at vLLM 0.11.0, 4.5 GiB from 0.11.1, against 10 GiB for 40,960 tokens).
import { describe, expect, it } from 'vitest';
import { resolveServer } from '../../../src/model/estimate.js';
import {
  vllmSamplerBytesPerLogit,
  VLLM_FLASHINFER_SAMPLER_BYTES_PER_LOGIT,
  VLLM_SORT_SAMPLER_BYTES_PER_LOGIT,
} from '../../../src/model/kv-budget.js';
import { findGpu } from '../../../src/model/gpus.js';
import { getModel } from '../../../src/model/models.js';
import { simulateWorkload } from '../../../src/sim/scheduler/virtual.js';

const h100 = findGpu('H100')!;
const m = getModel('Qwen/Qwen3-32B')!;
/**
 * The llm-d logs below were taken with `vllm/vllm-openai:latest` in the week of 2026-01-26 (llm-d
 * commit 0282dcf6): vLLM 0.13 or 0.14, both after vllm#26859 took FlashInfer's sampler off by default.
 */
const LLM_D_LOGS_VERSION = '0.13.0';

describe("vLLM's KV budget against its own start-up logs", () => {
  // "Available KV cache memory" logged by vLLM on one H100 (79.18 GiB), --max-model-len 16000,
  // github.com/llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md: Qwen3-32B
  // 4.45 GiB, Llama-3.1-8B 51.38 GiB. The sampler's profile peak is most of the difference from
  // a weights-only budget (src/model/kv-budget.ts). Those logs are of a later release than 0.11.0
  // (LLM_D_LOGS_VERSION), whose sampler sorts.
  it.each([
    ['Qwen/Qwen3-32B', 4.45],
    ['meta-llama/Llama-3.1-8B-Instruct', 51.38],
  ])('%s: %f GiB within 0.2 GiB', (model, logged) => {
    const s = resolveServer('vllm', h100, 1, getModel(model)!, { maxModelLen: 16000 }, LLM_D_LOGS_VERSION);
    expect(s.fit.fits).toBe(true);
    expect(Math.abs(s.kvBytesPerGpu / 2 ** 30 - logged)).toBeLessThan(0.2);
  });
});

describe("the sampler's profile peak follows the release's top-k/top-p kernel", () => {
  // v0.11.0 (tag b8b302cde) samples with FlashInfer when it is installed, as in its Docker image;
  // vllm#26859 (merged 2025-10-15, first in 0.11.1) made PyTorch's sort path the default.
  it('FlashInfer bytes per logit up to 0.11.0 (and for the target release), the sort path from 0.11.1', () => {
    expect(vllmSamplerBytesPerLogit('0.11.0')).toBe(VLLM_FLASHINFER_SAMPLER_BYTES_PER_LOGIT);
    expect(vllmSamplerBytesPerLogit(undefined)).toBe(VLLM_FLASHINFER_SAMPLER_BYTES_PER_LOGIT);
    expect(vllmSamplerBytesPerLogit('0.11.1')).toBe(VLLM_SORT_SAMPLER_BYTES_PER_LOGIT);
    expect(vllmSamplerBytesPerLogit('0.14.1')).toBe(VLLM_SORT_SAMPLER_BYTES_PER_LOGIT);
  });

  it('Qwen3-32B on one H100 cannot start on either path (8.07 / 4.52 GiB against 10.00)', () => {
    for (const [v, avail] of [
      ['0.11.0', '8.07'],
      ['0.11.1', '4.52'],
    ] as const) {
      const s = resolveServer('vllm', h100, 1, m, {}, v);
      expect(s.fit.fits).toBe(false);
      expect(s.fit.reason).toContain(`10.00 GiB of KV cache; ${avail} GiB is available`);
    }
  });

  it('Qwen3-235B TP8 on 8 x H100 starts at 0.11.0 (about 14 GiB for an 11.75 GiB sequence), not from 0.11.1', () => {
    const q = getModel('Qwen/Qwen3-235B-A22B-Instruct-2507')!;
    const v0110 = resolveServer('vllm', h100, 8, q, { tp: 8 }, '0.11.0');
    expect(v0110.fit.fits).toBe(true);
    expect(v0110.kvBytesPerGpu / 2 ** 30).toBeGreaterThan(11.75);
    const v0111 = resolveServer('vllm', h100, 8, q, { tp: 8 }, '0.11.1');
    expect(v0111.fit).toMatchObject({ fits: false, kind: 'kv-too-small' });
    expect(v0111.fit.reason).toMatch(/one 262144-token sequence needs 11\.75 GiB/);
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
    const r = simulateWorkload({
      engine: 'sglang',
      gpu: 'H100',
      gpus: 1,
      model: m,
      knobs: {},
      requests: Array.from({ length: 20 }, () => ({ promptLen: 500, outputLen: 50 })),
      seed: 1,
    });
    expect(r.metrics?.completed).toBe(20);
    expect(r.kvCapacityTokens).toBeLessThan(40960);
  });
});
