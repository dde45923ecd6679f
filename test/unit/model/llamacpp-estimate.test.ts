// llama.cpp's CPU estimate (src/model/llamacpp-estimate.ts): facts read from real random-weight
// GGUF files, decode cost following the bytes streamed, KV type changing KV bytes, slots capping
// the batch, the output head running once per prompt, corrections multiplying the rates, threads
// beyond the free cores slowing the graphs, and CPU facts read from cpuinfo and /proc/stat text
// (src/host/cpu.ts, their one reader).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { str, u32, ValueType, type GgufValue } from '../../../src/gguf/format.js';
import { makeRandomGguf } from '../../../src/gguf/make.js';
import { readGgufHeader } from '../../../src/gguf/read.js';
import { writeGguf } from '../../../src/gguf/write.js';
import { cpuFactsFrom } from '../../../src/model/cpu.js';
import { cpuIdentityFrom, statTimes } from '../../../src/host/cpu.js';
import { effectiveCores, ggufFacts, kvElemBytes, llamacppEstimate, oversubscribed } from '../../../src/model/llamacpp-estimate.js';
import { useLlamacppCpu } from '../../../src/sim/predict/llamacpp-calibrated.js';
import { NEUTRAL } from '../../../src/model/calibration/corrections.js';
import { simPredictor, type SimObservation } from '../../../src/sim/predict/calibrated.js';

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

const CPUINFO =
  'processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\ncpu MHz\t\t: 2600.0\nflags\t\t: fpu avx2 fma avx512f\nprocessor\t: 1\n';
const CPU = cpuFactsFrom(cpuIdentityFrom(CPUINFO));
const busy = (busyCores: number, loadAvg1 = busyCores) => cpuFactsFrom(cpuIdentityFrom(CPUINFO), { busyCores, loadAvg1, source: 'test' });
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

  it('a prompt runs the output head for its last token only; decode runs it for every token', () => {
    // the test vocabulary holds 4 tokens; random-gguf writes a separate output.weight
    expect(small.headParams).toBe(64 * 4);
    const P = big.matmulParams * 1000;
    const layersHeavy = { ...big, streamedBytes: big.streamedBytes * 1000, matmulParams: P, headParams: 0 };
    const headHeavy = { ...layersHeavy, headParams: P * 0.9 };
    const k = { maxRunningSeqs: 2, threads: 2 };
    const a = llamacppEstimate(layersHeavy, k, CPU, W);
    const b = llamacppEstimate(headHeavy, k, CPU, W);
    expect(b.prefillTokPerS).toBeGreaterThan(a.prefillTokPerS * 3);
    expect(b.meanTpotMs).toBeCloseTo(a.meanTpotMs, 6);
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
    expect(cpuFactsFrom(cpuIdentityFrom('processor : 0\ncpu MHz : 1000\nflags : sse2\n')).flopsPerCore).toBe(1000e6 * 4 * 1 * 2);
    expect(CPU.source).toMatch(/estimated/);
    expect(CPU.modelName).toBe('Intel(R) Xeon(R) Processor');
    expect(cpuIdentityFrom('').logicalCpus).toBe(0);
    expect(cpuFactsFrom(cpuIdentityFrom('')).cores).toBe(1);
  });

  it('busy cores come from the aggregate cpu line of /proc/stat (iowait idle)', () => {
    expect(statTimes('cpu  10 2 3 100 5 1 1 0 0 0\ncpu0 1 1 1 1 1 1 1 1\n')).toEqual({ busy: 17, total: 122 });
    expect(statTimes('')).toEqual({ busy: 0, total: 0 });
  });

  it('threads compute on the free cores or their fair share, whichever is more', () => {
    expect(effectiveCores(2, busy(0))).toBe(2);
    expect(effectiveCores(1, busy(0))).toBe(1);
    expect(effectiveCores(2, busy(1.5, 0))).toBe(2); // no runnable task waiting: a fair share of all of it
    expect(effectiveCores(2, busy(1.5, 3))).toBeCloseTo(0.8); // 2 x 2 / (3 + 2) beats the 0.5 free
    expect(effectiveCores(1, busy(2, 10))).toBeCloseTo(2 / 11);
    expect(effectiveCores(1, busy(0.2, 10))).toBe(1);
  });

  it('threads beyond the free cores slow decode and prefill; one thread, or an idle host, does not', () => {
    expect(oversubscribed(2, busy(0))).toBe(0);
    expect(oversubscribed(2, busy(0.5, 0.5))).toBeCloseTo(0.4);
    expect(oversubscribed(2, busy(2, 10))).toBe(1);
    expect(oversubscribed(1, busy(2, 10))).toBe(0);
    // a model big enough that graph compute, not the 2 ms host step, sets the step time
    const m = { ...big, streamedBytes: big.streamedBytes * 1000, matmulParams: big.matmulParams * 1000 };
    const t2 = { maxRunningSeqs: 2, threads: 2 };
    const t1 = { maxRunningSeqs: 2, threads: 1 };
    expect(llamacppEstimate(m, t1, busy(0.5), W).totalTokPerS).toBeCloseTo(llamacppEstimate(m, t1, CPU, W).totalTokPerS);
    const loaded = llamacppEstimate(m, t2, busy(1.5), W);
    const idle = llamacppEstimate(m, t2, CPU, W);
    expect(loaded.meanTpotMs).toBeGreaterThan(idle.meanTpotMs * 2);
    expect(loaded.prefillTokPerS).toBeLessThan(idle.prefillTokPerS / 2);
    // on an idle host two threads beat one; on a busy one they lose
    expect(idle.totalTokPerS).toBeGreaterThan(llamacppEstimate(m, t1, CPU, W).totalTokPerS);
    expect(loaded.totalTokPerS).toBeLessThan(llamacppEstimate(m, t1, busy(1.5), W).totalTokPerS);
    // the contention correction scales the slowdown
    expect(llamacppEstimate(m, t2, busy(1.5), W, { ...NEUTRAL, contention: 0.1 }).totalTokPerS).toBeGreaterThan(loaded.totalTokPerS);
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
    useLlamacppCpu(busy(0.7));
    expect(p(obs(file), NEUTRAL)!.totalTokPerS).toBeCloseTo(llamacppEstimate(big, { maxRunningSeqs: 2 }, busy(0.7), W).totalTokPerS);
    expect(p(obs(path.join(dir, 'none.gguf')), NEUTRAL)).toBeUndefined();
    // an observation that records the load its variant was launched under is predicted on that load
    const t2 = obs(file);
    t2.run.knobs = { maxRunningSeqs: 2, threads: 2 };
    const loaded = { ...t2, run: { ...t2.run, cpuLoad: { busyCores: 2, loadAvg1: 10, source: 'test' } } };
    expect(p(loaded, NEUTRAL)!.totalTokPerS).toBeCloseTo(llamacppEstimate(big, t2.run.knobs, busy(2, 10), W).totalTokPerS);
    expect(p(loaded, NEUTRAL)!.totalTokPerS).toBeLessThan(p(t2, NEUTRAL)!.totalTokPerS);
  });
});
