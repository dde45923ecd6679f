// The quality check's measures and requests: agreement and accuracy on known texts, then greedy
// requests to real sim-serve processes: the same server twice agrees exactly; an FP8-KV server
// told to drift (SERVELAB_SIM_DRIFT, the simulator's test hook) does not, and the measures say so.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agreement, agreementText, exactMatchAccuracy } from '../../../src/quality/agreement.js';
import { greedyOutputs, numericsChanges, readQualityEval } from '../../../src/quality/greedy.js';
import { reapAll, startReady } from '../../helpers/sim/helpers.js';

afterAll(reapAll);

describe('agreement', () => {
  it('counts exact matches and the shared prefix in tokens', () => {
    const a = agreement(['a b c d', 'x y', 'p q r'], ['a b c d', 'x z', 'q']);
    expect(a).toEqual({ prompts: 3, exactMatch: 1 / 3, meanSharedPrefix: (4 + 1 + 0) / 3, meanBaselineTokens: 3 });
    expect(agreementText(a)).toBe('exact match 33% (1/3), mean shared prefix 1.7 of 3.0 tokens');
    expect(exactMatchAccuracy([' Paris ', 'four'], ['paris', '4'])).toBe(0.5);
  });

  it('names what changes numerics against the baseline', () => {
    const base = { model: 'Qwen/Qwen3-14B', knobs: {} };
    expect(numericsChanges(base, { model: 'Qwen/Qwen3-14B', knobs: { maxRunningSeqs: 64 } })).toEqual([]);
    expect(
      numericsChanges(base, { model: 'Qwen/Qwen3-14B-FP8', knobs: { kvCacheDtype: 'fp8', speculative: { method: 'eagle3' } } }),
    ).toEqual(['weights Qwen/Qwen3-14B-FP8', 'KV cache fp8', 'speculative eagle3']);
    // llama.cpp: another GGUF is another quantization; the V cache has its own type.
    expect(
      numericsChanges({ model: 'm-f16.gguf', knobs: {} }, { model: 'm-q4_0.gguf', knobs: { kvCacheDtype: 'q8_0', vCacheDtype: 'q4_0' } }),
    ).toEqual(['weights m-q4_0.gguf', 'KV cache q8_0', 'V cache q4_0']);
  });

  it('reads the eval file; a bad line is one line naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'servelab-quality-'));
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, '{"prompt": "2+2?", "expected": "4"}\n\n{"prompt": "capital of France?", "expected": "Paris"}\n');
    expect(readQualityEval(good)).toEqual([
      { prompt: '2+2?', expected: '4' },
      { prompt: 'capital of France?', expected: 'Paris' },
    ]);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"prompt": "a", "expected": "b"}\n{"prompt": 3}\n');
    expect(() => readQualityEval(bad)).toThrow(/bad\.jsonl:2: needs a string "prompt" and a string "expected"$/);
  });
});

describe('greedy requests to sim-serve', () => {
  it('agree exactly on the same server, and drift where the simulator is told to', async () => {
    const args = ['--engine', 'vllm', '--gpu', 'H100', '--model', 'Qwen/Qwen3-14B', '--speed', '20'];
    const drift = { SERVELAB_SIM_DRIFT: 'kv-cache-dtype=fp8:0.05' };
    const [base, same, fp8] = await Promise.all([
      startReady(args, drift),
      startReady(args, drift),
      startReady([...args, '--kv-cache-dtype', 'fp8'], drift),
    ]);
    const prompts = Array.from({ length: 20 }, (_, i) => `question ${i}: what does the cache hold for request ${i * 7}?`);
    const ask = (url: string) => greedyOutputs({ baseUrl: url, model: 'Qwen/Qwen3-14B' }, prompts, 32);
    const [a, b, c] = await Promise.all([ask(base.url), ask(same.url), ask(fp8.url)]);
    expect([a.failed, b.failed, c.failed]).toEqual([0, 0, 0]);
    // Greedy, no ignore_eos: an output may stop early at EOS, the same on every server.
    expect(Math.max(...a.texts.map((t) => t.split(' ').length))).toBe(32);
    const twice = agreement(a.texts, b.texts);
    expect(twice.exactMatch).toBe(1);
    expect(twice.meanSharedPrefix).toBe(twice.meanBaselineTokens);
    const drifted = agreement(a.texts, c.texts);
    // 5% a token: about one output in five reaches 32 tokens undrifted.
    expect(drifted.exactMatch).toBeLessThan(0.6);
    expect(drifted.meanSharedPrefix).toBeLessThan(twice.meanBaselineTokens - 4);
  });
});
