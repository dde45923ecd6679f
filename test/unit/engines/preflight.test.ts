// Preflight rules on the studies' hosts and models.
import { describe, expect, it } from 'vitest';
import type { EngineName, Knobs, Variant } from '../../../src/core/variant.js';
import { preflight, PREFLIGHT_RULES } from '../../../src/engines/preflight.js';
import { gpusHeld } from '../../../src/model/layout.js';
import { simulatedHost } from '../../../src/host/gpus.js';
import { getModel } from '../../../src/model/models.js';

const v = (engine: EngineName, model: string, knobs: Knobs = {}): Variant => ({ id: 'x', engine, model, knobs });
const check = (variant: Variant, host = simulatedHost('H100', 1)) => preflight(variant, host, getModel(variant.model));
const H100 = simulatedHost('H100', 1);
const A100x8 = simulatedHost('A100', 8);
const H200x8 = simulatedHost('H200', 8);

describe('preflight', () => {
  it("passes the studies' winners", () => {
    expect(check(v('sglang', 'Qwen/Qwen3-14B-FP8'), H100)).toEqual({ ok: true, warnings: [] });
    expect(check(v('vllm', 'zai-org/GLM-4.6-FP8', { tp: 8, maxBatchedTokens: 8192 }), A100x8).ok).toBe(true);
    expect(check(v('sglang', 'deepseek-ai/DeepSeek-R1-0528', { tp: 8, dp: 8, dpAttention: true }), H200x8)).toEqual({
      ok: true,
      warnings: [],
    });
  });

  it('SGLang FP8 on A100 is pruned with the GPU named (Study B)', () => {
    const r = check(v('sglang', 'zai-org/GLM-4.6-FP8', { tp: 8 }), A100x8);
    expect(r.ok).toBe(false);
    expect(r.rule).toBe('fp8-needs-sm89');
    expect(r.pruned).toMatchObject({ kind: 'pruned' });
    expect(r.pruned!.reason).toMatch(/^FP8 is not supported on this GPU \(A100, compute capability 8\.0\)/);
    expect(check(v('trtllm', 'zai-org/GLM-4.6-FP8', { tp: 8 }), A100x8).rule).toBe('fp8-needs-sm89');
    // Online FP8 quantization counts too.
    expect(check(v('sglang', 'Qwen/Qwen3-14B', { quantization: 'fp8' }), simulatedHost('A100', 1)).rule).toBe('fp8-needs-sm89');
  });

  it('vLLM FP8 on Ampere runs, with a Marlin warning', () => {
    const r = check(v('vllm', 'zai-org/GLM-4.6-FP8', { tp: 8 }), A100x8);
    expect(r.ok).toBe(true);
    expect(r.warnings.join('\n')).toMatch(/weight-only Marlin/);
    expect(check(v('vllm', 'Qwen/Qwen3-14B-FP8'), H100).warnings).toEqual([]);
  });

  it('warns that SGLang DP-attention is silently off without --dp-size > 1 (Study C winner)', () => {
    const r = check(v('sglang', 'deepseek-ai/DeepSeek-R1-0528', { tp: 8, dpAttention: true }), H200x8);
    expect(r.ok).toBe(true);
    expect(r.warnings).toEqual([expect.stringMatching(/turns --enable-dp-attention off silently unless --dp-size > 1/)]);
  });

  it('SGLang ngram / draft speculative decoding after a DP-attention winner is pruned with the reason (engine audit G1)', () => {
    const dpa = { tp: 8, dp: 8, dpAttention: true };
    const ngram = check(v('sglang', 'deepseek-ai/DeepSeek-R1-0528', { ...dpa, speculative: { method: 'ngram' } }), H200x8);
    expect([ngram.ok, ngram.rule]).toEqual([false, 'sglang-spec-dp-attention']);
    expect(ngram.pruned!.reason).toMatch(/Currently ngram speculative decoding does not support dp attention/);
    const draft = check(
      v('sglang', 'deepseek-ai/DeepSeek-R1-0528', { ...dpa, speculative: { method: 'draft', draftModel: 'x/y' } }),
      H200x8,
    );
    expect(draft.rule).toBe('sglang-spec-dp-attention');
    // EAGLE/MTP with DP attention, and ngram without it, are not this rule's business.
    expect(check(v('sglang', 'deepseek-ai/DeepSeek-R1-0528', { ...dpa, speculative: { method: 'mtp' } }), H200x8).rule).toBeUndefined();
    expect(check(v('sglang', 'deepseek-ai/DeepSeek-R1-0528', { tp: 8, speculative: { method: 'ngram' } }), H200x8).ok).toBe(true);
  });

  it('SGLang ngram with a paged attention backend (page size > 1) is pruned; flashinfer and fa3 pass', () => {
    for (const b of ['flashmla', 'cutlass_mla', 'trtllm_mla', 'fa4']) {
      const r = check(
        v('sglang', 'deepseek-ai/DeepSeek-R1-0528', { tp: 8, attentionBackend: b, speculative: { method: 'ngram' } }),
        H200x8,
      );
      expect([r.rule, r.pruned?.reason]).toEqual([
        'sglang-ngram-paged-backend',
        expect.stringContaining(`the ${b} attention backend, whose page size is larger than 1`),
      ]);
    }
    for (const b of ['flashinfer', 'fa3'])
      expect(
        check(v('sglang', 'deepseek-ai/DeepSeek-R1-0528', { tp: 8, attentionBackend: b, speculative: { method: 'ngram' } }), H200x8).ok,
      ).toBe(true);
  });

  it('TP must divide the attention heads, and the KV-head rule', () => {
    // Qwen3-14B: 40 heads, 8 KV heads.
    const three = check(v('vllm', 'Qwen/Qwen3-14B', { tp: 3 }), simulatedHost('H100', 4));
    expect(three.rule).toBe('tp-divides-heads');
    expect(three.pruned!.reason).toBe('40 attention heads are not divisible by tensor parallel size 3');
    // 40 % 5 == 0 but 8 KV heads and 5 do not divide each other.
    const five = check(v('vllm', 'Qwen/Qwen3-14B', { tp: 5 }), simulatedHost('H100', 8));
    expect(five.rule).toBe('tp-divides-heads');
    expect(five.pruned!.reason).toBe('8 KV heads and tensor parallel size 5 do not divide each other');
    expect(check(v('vllm', 'Qwen/Qwen3-14B', { tp: 8 }), simulatedHost('H100', 8)).ok).toBe(true);
  });

  it('tp x pp (x dp) must fit the GPUs; SGLang DP-attention counts tp only', () => {
    const r = check(v('vllm', 'Qwen/Qwen3-14B', { tp: 2, dp: 4 }), simulatedHost('H100', 4));
    expect(r.rule).toBe('gpu-count');
    expect(r.pruned!.reason).toBe('needs 8 GPUs (tp 2 x pp 1 x dp 4), the host has 4');
    expect(gpusHeld('sglang', { tp: 8, dp: 8, dpAttention: true })).toBe(8);
    expect(gpusHeld('sglang', { tp: 8, dp: 8 })).toBe(64);
    expect(check(v('sglang', 'deepseek-ai/DeepSeek-R1-0528', { tp: 8, dp: 8, dpAttention: true }), H200x8).ok).toBe(true);
  });

  it('expert parallel and DP-attention only for MoE models', () => {
    expect(check(v('vllm', 'Qwen/Qwen3-14B', { tp: 2, ep: 2 }), simulatedHost('H100', 2)).rule).toBe('moe-only-ep');
    expect(check(v('sglang', 'Qwen/Qwen3-14B', { tp: 2, dp: 2, dpAttention: true }), simulatedHost('H100', 2)).rule).toBe(
      'moe-only-dp-attention',
    );
    expect(check(v('vllm', 'Qwen/Qwen3-30B-A3B', { tp: 2, ep: 2 }), simulatedHost('H100', 2)).ok).toBe(true);
  });

  it('never asks an engine for a knob it lacks', () => {
    const r = check(v('trtllm', 'Qwen/Qwen3-14B', { quantization: 'fp8' }), H100);
    expect(r.rule).toBe('engine-supports-knob');
    expect(r.pruned!.reason).toBe('TensorRT-LLM cannot set quantization');
    expect(check(v('vllm', 'deepseek-ai/DeepSeek-R1-0528', { tp: 8, dpAttention: true }), H200x8).rule).toBe('engine-supports-knob');
    // A knob at its default value is not a request.
    expect(check(v('trtllm', 'Qwen/Qwen3-14B', { dp: 1, kvCacheDtype: 'auto' }), H100).ok).toBe(true);
  });

  it('the model must fit in memory (shared estimate)', () => {
    const r = check(v('vllm', 'deepseek-ai/DeepSeek-R1-0528', { tp: 1 }), H100);
    expect(r.rule).toBe('memory-fit');
    expect(r.pruned!.reason).toMatch(/^does not fit in GPU memory: weights need [\d.]+ GiB per GPU/);
  });

  it('an unknown model is checked for what can be checked, with a warning', () => {
    const r = preflight(v('sglang', 'someone/Secret-70B-FP8'), simulatedHost('A100', 1), undefined);
    expect(r.rule).toBe('fp8-needs-sm89');
    const ok = preflight(v('vllm', 'someone/Secret-7B'), H100, undefined);
    expect(ok.ok).toBe(true);
    expect(ok.warnings[0]).toMatch(/unknown: head, MoE and memory checks skipped/);
  });

  it('rules have unique ids', () => {
    expect(new Set(PREFLIGHT_RULES.map((r) => r.id)).size).toBe(PREFLIGHT_RULES.length);
  });
});
