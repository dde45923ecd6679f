// TensorRT-LLM applies --max_batch_size / --max_num_tokens to each attention-DP rank (the server
// holds tp_size x max_num_active_requests: executor_request_queue.py, see src/sim/scheduler/rank-limits.ts);
// SGLang splits its server-wide flags over the DP ranks instead. The simulated scheduler must admit
// accordingly: the first step of a queue of short requests shows how many it lets run at once.
import { describe, expect, it } from 'vitest';
import type { EngineName, Knobs } from '../../../src/core/variant.js';
import { resolveServer } from '../../../src/model/estimate.js';
import { findGpu } from '../../../src/model/gpus.js';
import { getModel } from '../../../src/model/models.js';
import { schedulerLimits } from '../../../src/sim/scheduler/rank-limits.js';
import { Scheduler } from '../../../src/sim/scheduler/scheduler.js';

const h200 = findGpu('H200')!;
const model = getModel('Qwen/Qwen3-235B-A22B')!;

/** Sequences admitted by the first planned step of 100 queued 64-token requests. */
function firstStepSeqs(engine: EngineName, knobs: Knobs): number {
  const cfg = resolveServer(engine, h200, 4, model, { ...knobs, kvCacheDtype: 'fp8' });
  expect(cfg.fit.fits).toBe(true);
  const s = new Scheduler(cfg, 1);
  for (let id = 0; id < 100; id++) s.add({ id, promptLen: 64, maxTokens: 16, outputTarget: 16, arrival: 0 });
  return s.plan()!.work.length;
}

describe('scheduler limits under attention DP', () => {
  const adp = { tp: 4, ep: 4, dpAttention: true, maxRunningSeqs: 6, maxBatchedTokens: 8192 };

  it('TRT-LLM: --max_batch_size holds per rank, so 4 ranks run 4 x 6 requests', () => {
    expect(firstStepSeqs('trtllm', adp)).toBe(24);
    expect(schedulerLimits(resolveServer('trtllm', h200, 4, model, adp))).toMatchObject({
      maxRunningSeqs: 24,
      maxBatchedTokens: 32768,
      ranksPerFlag: 4,
    });
  });

  it('TRT-LLM without attention DP: the flag is the whole server', () => {
    expect(firstStepSeqs('trtllm', { tp: 4, ep: 4, maxRunningSeqs: 6, maxBatchedTokens: 8192 })).toBe(6);
  });

  it('TRT-LLM: the per-rank token budget caps whole prompts per step too', () => {
    // 64-token prompts, 256 tokens per rank: 4 per rank, 16 over 4 ranks (the batch cap is far away).
    expect(firstStepSeqs('trtllm', { ...adp, maxRunningSeqs: 1000, maxBatchedTokens: 256 })).toBe(16);
  });

  it('SGLang: --max-running-requests stays server-wide under DP attention', () => {
    // An explicit fraction: SGLang's automatic one under DP attention (0.836 here, sglang-mem.ts)
    // leaves no KV pool next to 118.8 GiB of BF16 weights per GPU.
    expect(firstStepSeqs('sglang', { tp: 4, dp: 4, dpAttention: true, maxRunningSeqs: 6, memFraction: 0.88 })).toBe(6);
  });
});
