// vLLM's API server preprocesses a burst of requests before any of them reaches the engine
// (src/sim/scheduler/front-end.ts): GPUStack's vLLM 0.11 runs of 1000 requests sent at once put the mean TTFT
// at 0.73-0.92 of the run (model-lab/DIAGNOSIS.md section 6). The engine must see such a burst as
// a burst, after the whole front-end time, not one request per front-end slot.
import { describe, expect, it } from 'vitest';
import { ENGINE_EFFICIENCY } from '../../../src/model/efficiency.js';
import { BurstFrontEnd } from '../../../src/sim/scheduler/front-end.js';
import { simulateWorkload } from '../../../src/sim/scheduler/virtual.js';

describe('API front end', () => {
  it('hands a burst over when its last request is preprocessed; a request sent while a batch is worked on waits for the next', () => {
    const f = new BurstFrontEnd();
    const a = f.send(0, 0, 0.01);
    const b = f.send(1, 0, 0.01);
    expect(a.fresh).toBe(true);
    expect(b.batch).toBe(a.batch);
    // Sent while the worker is on [0, 1]: a new batch that starts when that one ends (0.02).
    const c = f.send(2, 0.005, 0.01);
    const d = f.send(3, 0.006, 0.01);
    expect(c.fresh).toBe(true);
    expect(d.batch).toBe(c.batch);
    expect(a.batch.at).toBeCloseTo(0.02, 12);
    expect(a.batch.ids).toEqual([0, 1]);
    expect(c.batch.at).toBeCloseTo(0.04, 12);
    expect(c.batch.ids).toEqual([2, 3]);
    const e = f.send(4, 1, 0.01);
    expect(e.fresh).toBe(true);
    expect(e.batch.at).toBeCloseTo(1.01, 12);
  });

  it('spread-out (Poisson) traffic at 86% front-end load waits about as long as in a serial queue, not seconds', () => {
    const cost = 0.01226;
    const rate = 0.86 / cost;
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) + 0.5) / 2147483648;
    const f = new BurstFrontEnd();
    const sent: { at: number; batch: { at: number } }[] = [];
    let t = 0;
    for (let i = 0; i < 5000; i++) {
      t += -Math.log(1 - next()) / rate;
      sent.push({ at: t, batch: f.send(i, t, cost).batch });
    }
    const waits = sent.map((s) => s.batch.at - s.at).sort((x, y) => x - y);
    const p99 = waits[Math.floor(0.99 * waits.length)]!;
    // An M/D/1 queue at this load has a p99 wait of a few tenths of a second (the reviewer measured
    // 0.195 s for the serial model); letting arrivals extend the batch in progress gave 2.66 s.
    expect(p99).toBeLessThan(0.6);
    expect(waits[0]).toBeGreaterThanOrEqual(cost - 1e-12);
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
