// sim-serve on this year's parts: a real sim-serve process on 8 simulated MI355X (and one RTX PRO
// 6000) answers over HTTP, reports the part as amd-smi / nvidia-smi names it with its catalogue
// memory, and serves a completion.
import { afterEach, describe, expect, it } from 'vitest';
import { reapAll, startReady } from '../../helpers/sim/helpers.js';

afterEach(reapAll);

async function complete(url: string, model: string) {
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'a b c' }], max_tokens: 5, ignore_eos: true }),
  });
  return { status: r.status, json: (await r.json()) as { usage: { completion_tokens: number } } };
}

describe('sim-serve on the new parts', () => {
  it('8 x MI355X, vLLM TP8: the GPUs as amd-smi names them, and a completion', async () => {
    const model = 'meta-llama/Llama-3.3-70B-Instruct';
    const { url } = await startReady([
      '--engine',
      'vllm',
      '--gpu',
      'MI355X',
      '--gpus',
      '8',
      '--tp',
      '8',
      '--model',
      model,
      '--speed',
      '20',
    ]);
    const gpus = (await (await fetch(`${url}/sim/gpus`)).json()) as { name: string; memTotalMiB: number; memUsedMiB: number }[];
    expect(gpus).toHaveLength(8);
    expect(gpus[0]).toMatchObject({ name: 'AMD Instinct MI355X', memTotalMiB: 294896 });
    expect(gpus[7]!.memUsedMiB).toBeGreaterThan(10_000);
    const r = await complete(url, model);
    expect(r.status).toBe(200);
    expect(r.json.usage.completion_tokens).toBe(5);
  });

  it('one RTX PRO 6000 Blackwell, SGLang: named as nvidia-smi prints it', async () => {
    const model = 'Qwen/Qwen3-14B';
    const { url } = await startReady(['--engine', 'sglang', '--gpu', 'RTX-PRO-6000', '--model', model, '--speed', '20']);
    const gpus = (await (await fetch(`${url}/sim/gpus`)).json()) as { name: string; memTotalMiB: number }[];
    expect(gpus).toEqual([expect.objectContaining({ name: 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition', memTotalMiB: 97887 })]);
    expect((await complete(url, model)).status).toBe(200);
  });
});
