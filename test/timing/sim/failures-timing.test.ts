// sim-serve's start-up failures: each prints the engine's own error and exits as the engine does,
// within seconds even with a 60 s simulated load. That bound is on the wall clock, so this file
// runs in the timing pass.
import { afterEach, describe, expect, it } from 'vitest';
import { reapAll, spawnSim } from '../../helpers/sim/helpers.js';

afterEach(reapAll);

const cases: { name: string; args: string[]; stderr: RegExp; exit: { code?: number; signal?: string } }[] = [
  {
    name: 'GLM-4.6 BF16 does not fit 8 x A100 80GB (vLLM OOM)',
    args: ['--engine', 'vllm', '--gpu', 'A100', '--gpus', '8', '--tp', '8', '--model', 'zai-org/GLM-4.6'],
    stderr: /torch\.OutOfMemoryError: CUDA out of memory[\s\S]*RuntimeError: Engine core initialization failed/,
    exit: { code: 1 },
  },
  {
    name: 'SGLang FP8 on A100 fails with the Triton fp8e4nv error and is killed like SGLang',
    args: ['--engine', 'sglang', '--gpu', 'A100', '--gpus', '8', '--tp', '8', '--model', 'zai-org/GLM-4.6-FP8'],
    stderr:
      /ValueError\("type fp8e4nv not supported in this architecture\. The supported fp8 dtypes are \('fp8e4b15', 'fp8e5'\)"\)[\s\S]*Received sigquit from a child process/,
    exit: { signal: 'SIGKILL' },
  },
  {
    name: 'SGLang weights larger than the static memory fraction',
    args: ['--engine', 'sglang', '--gpu', 'H100', '--model', 'Qwen/Qwen3-14B', '--mem-fraction', '0.3'],
    stderr: /RuntimeError: Not enough memory\. Please try to increase --mem-fraction-static\./,
    exit: { signal: 'SIGKILL' },
  },
  {
    name: 'TP that does not divide the attention heads (vLLM)',
    args: ['--engine', 'vllm', '--gpu', 'H100', '--gpus', '4', '--tp', '3', '--model', 'Qwen/Qwen3-14B'],
    stderr: /ValueError: Total number of attention heads \(40\) must be divisible by tensor parallel size \(3\)\./,
    exit: { code: 1 },
  },
  {
    name: 'an unknown flag is an argparse-style usage error',
    args: ['--engine', 'vllm', '--model', 'Qwen/Qwen3-14B', '--tensor-parallel', '2'],
    stderr: /^usage: servelab sim-serve[\s\S]*error: unrecognized arguments: --tensor-parallel 2/,
    exit: { code: 2 },
  },
  {
    name: 'an unknown model (vLLM text)',
    args: ['--engine', 'vllm', '--model', 'no-such-org/no-such-model'],
    stderr: /ValueError: Invalid repository ID or local directory specified: 'no-such-org\/no-such-model'/,
    exit: { code: 1 },
  },
];

describe('sim-serve start-up failures', () => {
  it.each(cases)('$name', async (c) => {
    const t0 = Date.now();
    const p = spawnSim([...c.args, '--port', '0', '--load-time', '60']);
    const exit = await p.exited;
    expect(p.stderr()).toMatch(c.stderr);
    if (c.exit.code !== undefined) expect(exit.code).toBe(c.exit.code);
    if (c.exit.signal) expect(exit.signal).toBe(c.exit.signal);
    // "Within seconds" even with a 60 s simulated load (generous bound for a loaded CI machine).
    expect(Date.now() - t0).toBeLessThan(20_000);
  });
});
