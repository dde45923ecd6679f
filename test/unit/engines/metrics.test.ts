// /metrics of each engine -> running, waiting, KV usage, preemptions.
import { describe, expect, it } from 'vitest';
import { sglang } from '../../../src/engines/sglang/adapter.js';
import { sim } from '../../../src/engines/sim/adapter.js';
import { trtllm } from '../../../src/engines/trtllm/adapter.js';
import { vllm } from '../../../src/engines/vllm/adapter.js';

const VLLM = `# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="Qwen/Qwen3-14B"} 212.0
vllm:num_requests_running{engine="1",model_name="Qwen/Qwen3-14B"} 200.0
vllm:num_requests_waiting{engine="0",model_name="Qwen/Qwen3-14B"} 37.0
vllm:num_requests_waiting{engine="1",model_name="Qwen/Qwen3-14B"} 3.0
vllm:kv_cache_usage_perc{engine="0",model_name="Qwen/Qwen3-14B"} 0.9
vllm:kv_cache_usage_perc{engine="1",model_name="Qwen/Qwen3-14B"} 0.7
# TYPE vllm:num_preemptions_total counter
vllm:num_preemptions_total{engine="0",model_name="Qwen/Qwen3-14B"} 4.0
vllm:num_preemptions_total{engine="1",model_name="Qwen/Qwen3-14B"} 1.0
vllm:generation_tokens_total{engine="0",model_name="Qwen/Qwen3-14B"} 123456.0
`;

const SGLANG = `# TYPE sglang:num_running_reqs gauge
sglang:num_running_reqs{model_name="Qwen/Qwen3-14B-FP8",tp_rank="0"} 180.0
sglang:num_queue_reqs{model_name="Qwen/Qwen3-14B-FP8",tp_rank="0"} 820.0
sglang:token_usage{model_name="Qwen/Qwen3-14B-FP8",tp_rank="0"} 0.97
sglang:gen_throughput{model_name="Qwen/Qwen3-14B-FP8",tp_rank="0"} 5019.6
`;

describe('parseMetrics', () => {
  it('vLLM: sums engines, averages KV use', () => {
    expect(vllm.parseMetrics(VLLM)).toEqual({ running: 412, waiting: 40, kvUsage: 0.8, preemptions: 5 });
  });

  it('SGLang', () => {
    expect(sglang.parseMetrics(SGLANG)).toEqual({ running: 180, waiting: 820, kvUsage: 0.97 });
  });

  it('TRT-LLM JSON iteration stats: the latest entry', () => {
    const json = JSON.stringify([
      { iter: 1, numActiveRequests: 10, numQueuedRequests: 5, kvCacheStats: { usedNumBlocks: 10, maxNumBlocks: 100 } },
      { iter: 2, numActiveRequests: 64, numQueuedRequests: 2, kvCacheStats: { usedNumBlocks: 50, maxNumBlocks: 200 } },
    ]);
    expect(trtllm.parseMetrics(json)).toEqual({ running: 64, waiting: 2, kvUsage: 0.25 });
    expect(trtllm.parseMetrics('[]')).toEqual({});
    expect(trtllm.parseMetrics('[not json')).toEqual({});
  });

  it('sim reads whichever engine it imitates', () => {
    expect(sim.parseMetrics(SGLANG).running).toBe(180);
    expect(sim.parseMetrics(VLLM).running).toBe(412);
  });

  it('garbage gives nothing rather than wrong numbers', () => {
    expect(vllm.parseMetrics('<html>502 Bad Gateway</html>')).toEqual({});
    expect(vllm.parseMetrics('vllm:num_requests_running{engine="0"} NaN-ish')).toEqual({});
  });
});
