// Startup-cost knobs: per-session cache env per engine, and when dummy weights may be used.
import { describe, expect, it } from 'vitest';
import { cacheEnv, CACHE_KNOBS, DUMMY_WEIGHTS, dummyWeightsVerdict } from '../../../src/engines/startup-cache.js';

describe('cacheEnv', () => {
  it('points each engine at its own sub-folders of the session cache; unreleased knobs only on request', () => {
    expect(cacheEnv('vllm', 'run/cache')).toEqual({
      VLLM_CACHE_ROOT: 'run/cache/vllm',
      TORCHINDUCTOR_CACHE_DIR: 'run/cache/torchinductor',
      TRITON_CACHE_DIR: 'run/cache/triton',
    });
    expect(cacheEnv('sglang', 'run/cache')).not.toHaveProperty('SGLANG_JIT_CACHE_ROOT');
    expect(cacheEnv('sglang', 'run/cache', true)).toHaveProperty('SGLANG_JIT_CACHE_ROOT', 'run/cache/sglang-jit');
    expect(cacheEnv('trtllm', 'run/cache')).toEqual({});
  });
  it('every knob names its source', () => {
    for (const k of CACHE_KNOBS) expect(k.source.length).toBeGreaterThan(10);
  });
});

describe('dummy weights', () => {
  const base = { engine: 'vllm' as const, speculative: false, moe: false, finalValidation: false };
  it('used for a dense model in tuning stages, with --load-format dummy', () => {
    expect(dummyWeightsVerdict(base).use).toBe(true);
    expect(DUMMY_WEIGHTS.sglang?.flags).toEqual(['--load-format', 'dummy']);
  });
  it('never for speculative decoding, MoE routing or final validation, whatever the engine', () => {
    expect(dummyWeightsVerdict({ ...base, speculative: true })).toMatchObject({ use: false, why: expect.stringMatching(/acceptance/) });
    expect(dummyWeightsVerdict({ ...base, moe: true }).use).toBe(false);
    expect(dummyWeightsVerdict({ ...base, finalValidation: true }).use).toBe(false);
    expect(dummyWeightsVerdict({ ...base, engine: 'trtllm', speculative: true }).use).toBe(false);
    expect(dummyWeightsVerdict({ ...base, engine: 'trtllm', moe: true }).use).toBe(false);
    expect(dummyWeightsVerdict({ ...base, engine: 'trtllm', finalValidation: true }).use).toBe(false);
  });
  it('TensorRT-LLM: through its YAML (no flag), and the verdict says so', () => {
    expect(DUMMY_WEIGHTS.trtllm?.flags).toEqual([]);
    expect(dummyWeightsVerdict({ ...base, engine: 'trtllm' })).toEqual({
      use: true,
      why: expect.stringContaining('load_format: dummy in its --extra_llm_api_options YAML'),
    });
    expect(dummyWeightsVerdict(base).why).toContain('(--load-format dummy,');
  });
});
