// vLLM's API server preprocesses a burst of requests before any of them reaches the engine
// (src/sim/front-end.ts): GPUStack's vLLM 0.11 runs of 1000 requests sent at once put the mean TTFT
// at 0.73-0.92 of the run (docs/model-diagnosis.md section 6). The engine must see such a burst as
// a burst, after the whole front-end time, not one request per front-end slot.
import { describe, expect, it } from 'vitest';
import { ENGINE_EFFICIENCY } from '../../src/model/efficiency.js';
import { BurstFrontEnd } from '../../src/sim/front-end.js';
import { simulateWorkload } from '../../src/sim/virtual.js';

describe('API front end', () => {
  it('hands a burst over when its last request is preprocessed, and spread-out requests one by one', () => {
    const f = new BurstFrontEnd();
    const a = f.send(0, 0, 0.01);
    const b = f.send(1, 0, 0.01);
    const c = f.send(2, 0.005, 0.01);
    expect(a.fresh).toBe(true);
    expect(b.batch).toBe(a.batch);
    expect(c.batch).toBe(a.batch);
    expect(a.batch.at).toBeCloseTo(0.03, 12);
    expect(a.batch.ids).toEqual([0, 1, 2]);
    const d = f.send(3, 1, 0.01);
    expect(d.fresh).toBe(true);
    expect(d.batch.at).toBeCloseTo(1.01, 12);
  });

  it('vLLM, 200 short requests at once: no first token before the front end has worked through all 200', () => {
    const n = 200;
    const eff = ENGINE_EFFICIENCY.vllm;
    const frontS = n * (eff.frontEndPerRequestS + eff.frontEndPerPromptTokenS * 128);
    const requests = Array.from({ length: n }, () => ({ promptLen: 128, outputLen: 4 }));
    const sim = simulateWorkload({ engine: 'vllm', gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B', knobs: {}, requests, seed: 1 });
    const m = sim.metrics!;
    // A one-by-one hand-off lets the first requests finish after one slot: the median TTFT would be
    // about half the front-end time.
    expect(m.median_ttft_ms).toBeGreaterThanOrEqual(frontS * 1000);
    expect(m.duration).toBeGreaterThan(frontS);
  });
});
