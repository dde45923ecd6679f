// FIT-REGRESSION GUARD, IN-SAMPLE. The three studies are training data (model-lab/training.ts;
// model-lab/fit.ts fits src/model/fitted.ts on them), so these checks show the fit still reproduces
// each stage decision's direction; they are not evidence that the model predicts. The size of the
// attention-backend gaps rests on one per-case constant each (the flashinfer and triton fits in
// efficiency.ts; see docs/calibration.md for what flips without them). Out-of-sample accuracy is measured in
// test/unit/model/validation.test.ts. Virtual clock, 1000 ShareGPT-shaped prompts all at once.
import { describe, expect, it } from 'vitest';
import { simulateWorkload, type SimulateOptions } from '../../../src/sim/scheduler/virtual.js';
import { sharegptLike } from '../../../src/sim/predict/workload.js';
import type { Knobs } from '../../../src/core/variant.js';

const requests = sharegptLike(1000, 42);
type Base = Omit<SimulateOptions, 'knobs' | 'requests' | 'seed'>;
const run = (base: Base, knobs: Knobs, extra: Partial<SimulateOptions> = {}) =>
  simulateWorkload({ ...base, knobs, requests, seed: 42, ...extra });
const tput = (r: ReturnType<typeof simulateWorkload>) => {
  expect(r.fit.fits, r.fit.reason).toBe(true);
  return r.metrics!.total_token_throughput;
};
const gain = (a: number, b: number) => b / a - 1;

describe('fit guard (in-sample): Qwen3-14B on 1 x H100', () => {
  const h100 = (engine: Base['engine'], model = 'Qwen/Qwen3-14B'): Base => ({ engine, gpu: 'H100', gpus: 1, model });
  const vllm = tput(run(h100('vllm'), {}));
  const sglang = tput(run(h100('sglang'), {}));
  const trtllm = tput(run(h100('trtllm'), {}));

  // Published +27% (SGLang) and +26% (TRT-LLM). The model reads +55% / +53% since vLLM's API front
  // end hands a burst over as a burst (src/sim/scheduler/front-end.ts): the published TTFTs put ~13 s of
  // vLLM's 63.5 s run in the front end, which the model now charges, while its vLLM engine stays
  // slower than the published remainder (model-lab/DIAGNOSIS.md section 6). Bound: the measured
  // margin, not the published one.
  it('SGLang and TensorRT-LLM beat vLLM (published ~+27%; the model over-states the margin)', () => {
    expect(gain(vllm, sglang)).toBeGreaterThan(0.12);
    expect(gain(vllm, sglang)).toBeLessThan(0.6);
    expect(gain(vllm, trtllm)).toBeGreaterThan(0.12);
    expect(gain(vllm, trtllm)).toBeLessThan(0.6);
  });

  it('the FP8 checkpoint helps on H100', () => {
    const fp8 = tput(run(h100('sglang', 'Qwen/Qwen3-14B-FP8'), {}));
    expect(gain(sglang, fp8)).toBeGreaterThan(0.1);
  });

  it('fa3 (the default) is the best attention backend; flashinfer loses most (held by two fits)', () => {
    const base = h100('sglang', 'Qwen/Qwen3-14B-FP8');
    const fa3 = tput(run(base, { attentionBackend: 'fa3' }));
    const fi = tput(run(base, { attentionBackend: 'flashinfer' }));
    const tr = tput(run(base, { attentionBackend: 'triton' }));
    expect(tput(run(base, {}))).toBeCloseTo(fa3, 6);
    expect(fi).toBeLessThan(tr);
    expect(tr).toBeLessThan(fa3);
    expect(gain(fa3, fi)).toBeLessThan(-0.05);
  });
});

describe('fit guard (in-sample): GLM-4.6 on 8 x A100 80GB', () => {
  const a100 = (engine: Base['engine'], model: string): Base => ({ engine, gpu: 'A100', gpus: 8, model });

  it('BF16 does not fit; SGLang and TensorRT-LLM cannot run the FP8 checkpoint on A100', () => {
    expect(run(a100('vllm', 'zai-org/GLM-4.6'), { tp: 8 }).fit).toMatchObject({ fits: false, kind: 'oom-weights' });
    expect(run(a100('sglang', 'zai-org/GLM-4.6-FP8'), { tp: 8 }).fit).toMatchObject({ fits: false, kind: 'no-fp8' });
    expect(run(a100('trtllm', 'zai-org/GLM-4.6-FP8'), { tp: 8 }).fit).toMatchObject({ fits: false, kind: 'no-fp8' });
  });

  it('expert parallel and max batched tokens move throughput by only a few percent', () => {
    const base = a100('vllm', 'zai-org/GLM-4.6-FP8');
    const tp8 = tput(run(base, { tp: 8 }));
    expect(Math.abs(gain(tp8, tput(run(base, { tp: 8, ep: 8 }))))).toBeLessThan(0.06);
    for (const mbt of [4096, 8192, 16384]) {
      const g = gain(tp8, tput(run(base, { tp: 8, maxBatchedTokens: mbt })));
      expect(Math.abs(g)).toBeLessThan(0.05);
    }
  });
});

describe('fit guard (in-sample): DeepSeek-R1-0528 on 8 x H200', () => {
  const h200 = (engine: Base['engine']): Base => ({ engine, gpu: 'H200', gpus: 8, model: 'deepseek-ai/DeepSeek-R1-0528' });
  const dpa: Knobs = { tp: 8, dp: 8, dpAttention: true };
  const sglangRun = run(h200('sglang'), { tp: 8 });
  const sglang = tput(sglangRun);
  const dpRun = run(h200('sglang'), dpa);
  const dp = tput(dpRun);

  it('SGLang wins the engine stage (~+21% over vLLM), TensorRT-LLM is last (with the MoE factor all engines share)', () => {
    const vllm = tput(run(h200('vllm'), { tp: 8 }));
    const trt = tput(run(h200('trtllm'), { tp: 8, ep: 8 }));
    expect(gain(vllm, sglang)).toBeGreaterThan(0.08);
    expect(gain(vllm, sglang)).toBeLessThan(0.4);
    expect(trt).toBeLessThan(vllm);
  });

  it('DP-attention helps (throughput and TPOT)', () => {
    expect(gain(sglang, dp)).toBeGreaterThan(0.01);
    expect(dpRun.metrics!.mean_tpot_ms).toBeLessThan(sglangRun.metrics!.mean_tpot_ms);
  });

  it('torch.compile gives nothing at this concurrency', () => {
    expect(gain(dp, tput(run(h200('sglang'), { ...dpa, torchCompile: true })))).toBeLessThan(0.02);
  });

  it('MTP at 1000 concurrent requests cuts TPOT but collapses total throughput', () => {
    const mtp = run(h200('sglang'), { ...dpa, speculative: { method: 'eagle', numSteps: 1, topk: 1, draftTokens: 2 } });
    expect(mtp.metrics!.mean_tpot_ms).toBeLessThan(dpRun.metrics!.mean_tpot_ms * 0.6);
    expect(tput(mtp)).toBeLessThan(dp * 0.7);
  });

  it('at low concurrency the same MTP cuts TPOT and raises throughput', () => {
    const low = { requests: sharegptLike(100, 42), maxConcurrency: 4 };
    const plain = run(h200('sglang'), dpa, low);
    const mtp = run(h200('sglang'), { ...dpa, speculative: { method: 'eagle', numSteps: 1, topk: 1, draftTokens: 2 } }, low);
    expect(mtp.metrics!.mean_tpot_ms).toBeLessThan(plain.metrics!.mean_tpot_ms);
    expect(tput(mtp)).toBeGreaterThan(tput(plain));
  });
});

// The engine-stage directions come from mechanisms (overlap scheduling, schedule policy), not a
// per-case constant, so they must hold for other workload draws too, not only seed 42's.
describe('fit guard over workload seeds 1-3: engine stage on Qwen3-14B / H100', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: SGLang and TensorRT-LLM beat vLLM`, () => {
      const reqs = sharegptLike(1000, seed);
      const t = (engine: Base['engine']) =>
        tput(simulateWorkload({ engine, gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B', knobs: {}, requests: reqs, seed }));
      const v = t('vllm');
      expect(gain(v, t('sglang'))).toBeGreaterThan(0.1);
      expect(gain(v, t('trtllm'))).toBeGreaterThan(0.1);
    });
  }
});

describe('virtual clock', () => {
  it('is deterministic to the token for a seed and workload', () => {
    const opts: SimulateOptions = {
      engine: 'vllm',
      gpu: 'H100',
      gpus: 1,
      model: 'Qwen/Qwen3-14B',
      knobs: { maxRunningSeqs: 64 },
      requests: sharegptLike(300, 3),
      seed: 5,
    };
    const a = simulateWorkload(opts);
    const b = simulateWorkload(opts);
    expect(a).toEqual(b);
    expect(a.metrics!.completed).toBe(300);
  });

  it('preempts when KV runs out, and TTFT grows with queueing while TPOT grows with batch', () => {
    const base = { engine: 'vllm' as const, gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B', seed: 1 };
    const big = Array.from({ length: 200 }, () => ({ promptLen: 1000, outputLen: 1000 }));
    const tight = simulateWorkload({ ...base, knobs: { memFraction: 0.5 }, requests: big });
    expect(tight.preemptions).toBeGreaterThan(0);
    const small = simulateWorkload({ ...base, knobs: { maxRunningSeqs: 16 }, requests: sharegptLike(200, 1) });
    const wide = simulateWorkload({ ...base, knobs: { maxRunningSeqs: 256 }, requests: sharegptLike(200, 1) });
    expect(small.metrics!.mean_ttft_ms).toBeGreaterThan(wide.metrics!.mean_ttft_ms);
    expect(small.metrics!.mean_tpot_ms).toBeLessThan(wide.metrics!.mean_tpot_ms);
  });

  it('low concurrency: max-concurrency 4 gives a small batch and low TPOT', () => {
    const r = simulateWorkload({
      engine: 'vllm',
      gpu: 'H200',
      gpus: 8,
      model: 'deepseek-ai/DeepSeek-R1-0528',
      knobs: { tp: 8 },
      requests: sharegptLike(100, 42),
      seed: 42,
      maxConcurrency: 4,
    });
    expect(r.metrics!.max_concurrent_requests).toBeLessThanOrEqual(4);
    // Published: 19.36 ms mean TPOT at concurrency 4; within a factor of two.
    expect(r.metrics!.mean_tpot_ms).toBeGreaterThan(10);
    expect(r.metrics!.mean_tpot_ms).toBeLessThan(40);
  });
});
