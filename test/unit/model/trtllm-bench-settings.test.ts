// trtllm-bench's batch-limit heuristic (src/model/data/trtllm-bench-settings.ts), checked against
// values worked by hand from tensorrt_llm/bench/build/tuning.py and bench/benchmark/utils/general.py.
import { describe, expect, it } from 'vitest';
import { finetuneSetting, trtllmBenchSettings } from '../../../src/model/data/trtllm-bench-settings.js';
import { WIDER_HELD_OUT } from '../../../src/model/data/published-wider.js';
import { findGpu } from '../../../src/model/gpus.js';

describe('trtllm-bench settings heuristic', () => {
  it('finetune_setting rounds the batch size and token budget by its bands', () => {
    expect(finetuneSetting(20, 1024, 1024, 1)).toEqual({ maxBatchSize: 64, maxNumTokens: 2048 }); // min BS 64, min tokens 2048
    expect(finetuneSetting(68.8, 8192, 1024, 1)).toEqual({ maxBatchSize: 96, maxNumTokens: 2048 }); // 619 tokens -> 2048
    expect(finetuneSetting(300, 1024, 1024, 1)).toEqual({ maxBatchSize: 384, maxNumTokens: 2048 }); // 128-step band
    expect(finetuneSetting(500, 1024, 128, 1)).toEqual({ maxBatchSize: 512, maxNumTokens: 4608 }); // 4500 tokens: 512-step band
    expect(finetuneSetting(1500, 1024, 128, 1)).toEqual({ maxBatchSize: 1536, maxNumTokens: 14336 }); // 256- and 1024-step bands
    expect(finetuneSetting(9000, 32768, 1024, 2)).toEqual({ maxBatchSize: 2048, maxNumTokens: 32768 }); // caps: 4096 requests / pp, 32768 tokens
  });

  it('Llama-3.3-70B FP8 on 2 x H200 at 8192/1024: 96 requests, and max_num_tokens raised to ISL + batch', () => {
    // engine 70.55e9 B = 65.7 GiB; 2 x 140.4 GiB; (280.8 - 65.7) x 0.9 = 193.6 GiB of KV;
    // 2 x 80 layers x 8 KV heads x 128 x 2 B = 320 KiB per token; x 9216 tokens -> 68.8 requests.
    const base = {
      model: 'meta-llama/Llama-3.3-70B-Instruct-FP8',
      gpu: findGpu('H200')!,
      tp: 2,
      isl: 8192,
      osl: 1024,
      weightBytesPerElem: 1,
      kvBytesPerElem: 2,
    };
    const s = trtllmBenchSettings(base);
    expect(s.kvCacheMaxRequests).toBeCloseTo(68.8, 1);
    expect(s).toMatchObject({ maxBatchSize: 96, maxNumTokens: 8192 + 96 });
    // With chunked prefill on, get_settings keeps the heuristic's own budget.
    expect(trtllmBenchSettings({ ...base, enableChunkedPrefill: true })).toMatchObject({ maxBatchSize: 96, maxNumTokens: 2048 });
    // FP8 KV halves the bytes per token: twice the requests.
    expect(trtllmBenchSettings({ ...base, kvBytesPerElem: 1 }).maxBatchSize).toBe(160);
  });

  it('the perf-overview rows carry the limits, per attention-DP rank as the engine and the simulator apply them', () => {
    const trt = WIDER_HELD_OUT.filter((r) => r.engine === 'trtllm');
    expect(trt.length).toBe(18);
    for (const r of trt) {
      expect(r.knobs.maxBatchedTokens).toBeGreaterThan(r.workload.kind === 'random' ? r.workload.input : 0);
      expect(r.caveat).toMatch(/trtllm-bench's own limits/);
    }
    const dsr1 = trt.find((r) => r.model.includes('DeepSeek'))!;
    // 384 requests and 2048 tokens per rank (src/sim/scheduler/rank-limits.ts multiplies by the 8 ranks).
    expect(dsr1.knobs).toMatchObject({ maxRunningSeqs: 384, maxBatchedTokens: 2048 });
  });
});
