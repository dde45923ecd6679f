// llama.cpp's CPU estimate (src/model/llamacpp-estimate.ts): facts read from real random-weight
// GGUF files, decode cost following the bytes streamed, KV type changing KV bytes, slots capping
// the batch, corrections multiplying the rates, and CPU facts read from cpuinfo text.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { str, u32, ValueType, type GgufValue } from '../../src/model/gguf/format.js';
import { makeRandomGguf } from '../../src/model/gguf/make.js';
import { readGgufHeader } from '../../src/model/gguf/read.js';
import { writeGguf } from '../../src/model/gguf/write.js';
import { cpuFactsFrom } from '../../src/model/cpu.js';
import { ggufFacts, kvElemBytes, llamacppEstimate } from '../../src/model/llamacpp-estimate.js';
import { NEUTRAL } from '../../src/model/calibration/corrections.js';
import { simPredictor, type SimObservation } from '../../src/sim/calibrated.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-llest-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function model(name: string, hidden: number, layers: number): string {
  const vocab = path.join(dir, 'v.gguf');
  if (!fs.existsSync(vocab)) {
    const meta = new Map<string, GgufValue>([
      ['general.architecture', str('gpt2')],
      ['tokenizer.ggml.model', str('gpt2')],
      ['tokenizer.ggml.tokens', { type: ValueType.ARRAY, elemType: ValueType.STRING, value: ['<|endoftext|>', 'a', 'b', 'c'] }],
      ['tokenizer.ggml.token_type', { type: ValueType.ARRAY, elemType: ValueType.INT32, value: [3, 1, 1, 1] }],
      ['tokenizer.ggml.eos_token_id', u32(0)],
    ]);
    writeGguf(vocab, { metadata: meta, tensors: [] }, () => Buffer.alloc(0));
  }
  const out = path.join(dir, name);
  makeRandomGguf({ out, vocab, shape: { arch: 'qwen3', hidden, layers } });
  return out;
}

const CPU = cpuFactsFrom('processor\t: 0\nprocessor\t: 1\ncpu MHz\t\t: 2600.0\nflags\t\t: fpu avx2 fma avx512f\n');
const W = { numPrompts: 8, inputLen: 128, outputLen: 32, maxConcurrency: 2 };

describe('llama.cpp estimate', () => {
  const small = ggufFacts(readGgufHeader(model('s.gguf', 64, 1)));
  const big = ggufFacts(readGgufHeader(model('b.gguf', 64, 4)));

  it('reads layers and the streamed bytes from the header', () => {
    expect(small.layers).toBe(1);
    expect(big.layers).toBe(4);
    expect(big.streamedBytes).toBeGreaterThan(small.streamedBytes);
    expect(small.kvElemsPerTokenLayer).toBeGreaterThan(0);
  });

  it('decode time grows with the bytes a step streams', () => {
    const k = { maxRunningSeqs: 2, threads: 2 };
    const heavy = { ...small, streamedBytes: small.streamedBytes * 10 };
    const a = llamacppEstimate(small, k, CPU, W);
    const b = llamacppEstimate(heavy, k, CPU, W);
    expect(b.meanTpotMs).toBeGreaterThan(a.meanTpotMs);
    expect(b.decodeTokPerSPerSlot).toBeLessThan(a.decodeTokPerSPerSlot);
  });

  it('the KV cache type changes the KV bytes per token', () => {
    expect(kvElemBytes('q8_0')).toBeCloseTo(34 / 32);
    expect(kvElemBytes('auto')).toBe(2);
    const f16 = llamacppEstimate(big, { kvCacheDtype: 'f16' }, CPU, W);
    const q8 = llamacppEstimate(big, { kvCacheDtype: 'q8_0' }, CPU, W);
    expect(f16.kvBytesPerToken).toBe(big.layers * big.kvElemsPerTokenLayer * 2);
    expect(q8.kvBytesPerToken / f16.kvBytesPerToken).toBeCloseTo(34 / 64);
  });

  it('the batch is the smaller of concurrency and slots', () => {
    expect(llamacppEstimate(big, { maxRunningSeqs: 1 }, CPU, W).batch).toBe(1);
    expect(llamacppEstimate(big, { maxRunningSeqs: 8 }, CPU, W).batch).toBe(2);
    expect(llamacppEstimate(big, {}, CPU, { ...W, maxConcurrency: 16 }).batch).toBe(4);
  });

  it('corrections multiply the rates: more bandwidth, faster decode; more host overhead, slower', () => {
    const k = { maxRunningSeqs: 2 };
    const base = llamacppEstimate(big, k, CPU, W);
    expect(llamacppEstimate(big, k, CPU, W, { ...NEUTRAL, bandwidth: 2 }).meanTpotMs).toBeLessThan(base.meanTpotMs);
    expect(llamacppEstimate(big, k, CPU, W, { ...NEUTRAL, hostOverhead: 3 }).totalTokPerS).toBeLessThan(base.totalTokPerS);
    expect(llamacppEstimate(big, k, CPU, W, { ...NEUTRAL, gemm: 2 }).prefillTokPerS).toBeGreaterThan(base.prefillTokPerS);
  });

  it('CPU facts come from cpuinfo: cores, clock and SIMD width', () => {
    expect(CPU.cores).toBe(2);
    expect(CPU.flopsPerCore).toBe(2600e6 * 16 * 2 * 2);
    expect(cpuFactsFrom('processor : 0\ncpu MHz : 1000\nflags : sse2\n').flopsPerCore).toBe(1000e6 * 4 * 1 * 2);
    expect(CPU.source).toMatch(/estimated/);
  });

  it('a llamacpp observation gets a figure in the calibration predictor (not dropped); a missing file gets none', () => {
    const file = path.join(dir, 'b.gguf');
    const obs = (model: string): SimObservation => ({
      id: 'x',
      engine: 'llamacpp',
      measured: { totalTokPerS: 100, meanTtftMs: 100, meanTpotMs: 10 },
      run: {
        engine: 'llamacpp',
        model,
        gpu: 'cpu',
        gpus: 0,
        knobs: { maxRunningSeqs: 2 },
        workload: {
          name: 'r',
          dataset: 'random',
          numPrompts: 8,
          inputLen: 128,
          outputLen: 32,
          seed: 0,
          maxConcurrency: 2,
          requestRate: null,
        },
      },
    });
    const p = simPredictor();
    expect(p(obs(file), NEUTRAL)!.totalTokPerS).toBeCloseTo(
      llamacppEstimate(big, { maxRunningSeqs: 2 }, cpuFactsFrom(fs.readFileSync('/proc/cpuinfo', 'utf8')), W).totalTokPerS,
    );
    expect(p(obs(path.join(dir, 'none.gguf')), NEUTRAL)).toBeUndefined();
  });
});
