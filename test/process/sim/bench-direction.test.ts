// Over HTTP the benchmark client must see the knobs move throughput and latency the right way
// (direction only, never close numbers: the host may be busy).
import { afterEach, describe, expect, it } from 'vitest';
import { promptOfLength, sharegptLike } from '../../../src/sim/predict/workload.js';
import { reapAll, startReady } from '../../helpers/sim/helpers.js';
import { runBenchmark } from '../../../src/bench/load/run.js';
import { toSimulated } from '../../../src/bench/metrics/simulated.js';

afterEach(reapAll);

const SPEED = 4;
const requests = sharegptLike(32, 9).map((r, i) => ({
  prompt: promptOfLength(r.promptLen, i),
  promptLen: r.promptLen,
  expectedOutputLen: Math.min(r.outputLen, 32),
}));

async function measure(extra: string[]) {
  const { url, proc } = await startReady([
    '--engine',
    'vllm',
    '--gpu',
    'H100',
    '--model',
    'Qwen/Qwen3-14B',
    '--speed',
    String(SPEED),
    ...extra,
  ]);
  const res = await runBenchmark({ baseUrl: url, model: 'Qwen/Qwen3-14B', requests, ignoreEos: true, numWarmups: 0 });
  proc.kill();
  expect(res.metrics.completed).toBe(requests.length);
  // usage-reported counts follow the one-word-one-token convention exactly.
  expect(res.metrics.total_output_tokens).toBe(requests.reduce((a, r) => a + r.expectedOutputLen, 0));
  return toSimulated(res, SPEED).metrics;
}

describe('servelab bench against sim-serve', () => {
  it('a cap of 4 running sequences cuts throughput and inflates TTFT', async () => {
    const open = await measure([]);
    const capped = await measure(['--max-running-seqs', '4']);
    expect(open.total_token_throughput).toBeGreaterThan(capped.total_token_throughput * 2);
    expect(capped.mean_ttft_ms).toBeGreaterThan(open.mean_ttft_ms * 2);
    // Fewer sequences per step: each step is cheaper, so TPOT drops.
    expect(capped.mean_tpot_ms).toBeLessThan(open.mean_tpot_ms);
  });
});
