import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { reapAll, spawnSim, startReady } from '../../helpers/sim/helpers.js';

afterEach(reapAll);

async function chat(url: string, body: Record<string, unknown>) {
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as any };
}

describe('sim-serve over HTTP', () => {
  it('serves a streamed chat completion to the official openai client (sglang, H100, Qwen3-14B)', async () => {
    const { url } = await startReady(['--engine', 'sglang', '--gpu', 'H100', '--model', 'Qwen/Qwen3-14B', '--speed', '20']);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'none' });
    const stream = await client.chat.completions.create({
      model: 'Qwen/Qwen3-14B',
      messages: [{ role: 'user', content: 'one two three four' }],
      max_tokens: 12,
      stream: true,
      stream_options: { include_usage: true },
      // vLLM/SGLang extension, not in the OpenAI types.
      ...({ ignore_eos: true } as object),
    });
    let text = '';
    let finish: string | null = null;
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    let chunks = 0;
    for await (const c of stream) {
      chunks++;
      if (c.choices[0]?.delta?.content) text += c.choices[0].delta.content;
      if (c.choices[0]?.finish_reason) finish = c.choices[0].finish_reason;
      if (c.usage) usage = c.usage;
    }
    expect(text.trim().split(/\s+/)).toHaveLength(12);
    expect(finish).toBe('length');
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 12 });
    expect(chunks).toBeGreaterThanOrEqual(12);
  });

  it('serves /health, /v1/models, models, /metrics and /sim/gpus named like vLLM', async () => {
    const proc = spawnSim([
      '--engine',
      'vllm',
      '--gpu',
      'A100',
      '--gpus',
      '2',
      '--tp',
      '2',
      '--model',
      'meta-llama/Llama-3.1-8B-Instruct',
      '--port',
      '0',
      '--load-time',
      '1',
      '--speed',
      '1',
    ]);
    await proc.waitFor(/Model loading took/);
    const m = await proc.waitFor(/Starting vLLM API server 0 on (http:\/\/[\d.:]+)/);
    await proc.waitFor(/Application startup complete\./);
    const url = m[1]!;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const models = (await (await fetch(`${url}/v1/models`)).json()) as any;
    expect(models.data[0].id).toBe('meta-llama/Llama-3.1-8B-Instruct');
    await chat(url, { messages: [{ role: 'user', content: 'a b c' }], max_tokens: 3 });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/^vllm:num_requests_running\{.*\} \d/m);
    expect(metrics).toMatch(/^vllm:kv_cache_usage_perc\{/m);
    expect(metrics).toMatch(/^vllm:generation_tokens_total\{.*\} [1-9]/m);
    const gpus = (await (await fetch(`${url}/sim/gpus`)).json()) as any[];
    expect(gpus).toHaveLength(2);
    expect(gpus[0]).toMatchObject({ index: 0, name: 'NVIDIA A100-SXM4-80GB', memTotalMiB: 81920 });
    expect(gpus[1].memUsedMiB).toBeGreaterThan(8000);
  });

  it('answers /health with 503 during the simulated load (sglang)', async () => {
    const proc = spawnSim(['--engine', 'sglang', '--model', 'Qwen/Qwen3-14B', '--port', '0', '--load-time', '600', '--speed', '1']);
    const m = await proc.waitFor(/port=(\d+)/);
    const port = Number(m[1]);
    expect(port).toBeGreaterThan(0);
    const r = await fetch(`http://127.0.0.1:${port}/health`);
    expect(r.status).toBe(503);
    const gpus = (await (await fetch(`http://127.0.0.1:${port}/sim/gpus`)).json()) as any[];
    expect(gpus[0].name).toBe('NVIDIA H100 80GB HBM3');
    // SIGTERM ends it promptly.
    proc.child.kill('SIGTERM');
    const exit = await proc.exited;
    expect(exit.code).toBe(0);
  });

  it('metrics carry SGLang and TRT-LLM names; errors look like vLLM errors', async () => {
    const a = await startReady(['--engine', 'sglang', '--model', 'Qwen/Qwen3-14B', '--speed', '50']);
    expect(await (await fetch(`${a.url}/metrics`)).text()).toMatch(/^sglang:num_running_reqs\{/m);
    const b = await startReady(['--engine', 'trtllm', '--model', 'Qwen/Qwen3-14B', '--speed', '50']);
    expect(await (await fetch(`${b.url}/metrics`)).text()).toMatch(/^trtllm_num_requests_running\{/m);
    const bad = await chat(b.url, { model: 'nope', messages: [{ role: 'user', content: 'x' }] });
    expect(bad.status).toBe(404);
    const long = await chat(b.url, { model: 'Qwen/Qwen3-14B', messages: [{ role: 'user', content: 'x' }], max_tokens: 10_000_000 });
    expect(long.status).toBe(400);
    expect(long.json.message).toMatch(/maximum context length is \d+ tokens/);
  });

  it('is deterministic for a seed: same texts and token counts across two servers', async () => {
    const run = async () => {
      const { url, proc } = await startReady(['--engine', 'vllm', '--model', 'Qwen/Qwen3-14B', '--speed', '100', '--seed', '7']);
      const outs = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          chat(url, { messages: [{ role: 'user', content: `prompt number ${i} ${'x '.repeat(i * 5)}` }], max_tokens: 40 }).then((r) => ({
            text: r.json.choices[0].message.content as string,
            n: r.json.usage.completion_tokens as number,
          })),
        ),
      );
      proc.kill();
      return outs;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    // Without ignore_eos some requests may stop early, but never past max_tokens.
    for (const o of a) {
      expect(o.n).toBeLessThanOrEqual(40);
      expect(o.text.split(' ')).toHaveLength(o.n);
    }
  });
});
