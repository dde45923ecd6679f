// sim-serve's prefix cache over real HTTP: a second request that starts with what the first one
// sent (and with the reply it got back, as a conversation's next turn does) reports the prompt
// tokens served from cache the way the imitated engine reports them; the cache knobs arrive as
// sim-serve argv, built by the same sim adapter every tuning launch uses.
import { afterEach, describe, expect, it } from 'vitest';
import { reapAll, startReady } from '../../helpers/sim/helpers.js';
import { sim } from '../../../src/engines/sim/adapter.js';
import type { Knobs } from '../../../src/core/variant.js';

afterEach(reapAll);

const MODEL = 'Qwen/Qwen3-14B';
const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

async function chat(url: string, messages: { role: string; content: string }[], stream: boolean) {
  const body = {
    model: MODEL,
    messages,
    max_tokens: 40,
    ignore_eos: true,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!stream) {
    const j = (await r.json()) as { choices: { message: { content: string } }[]; usage: Record<string, unknown> };
    return { text: j.choices[0]!.message.content, usage: j.usage };
  }
  const text = await r.text();
  let content = '';
  let usage: Record<string, unknown> | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const j = JSON.parse(line.slice(6)) as { choices: { delta?: { content?: string } }[]; usage?: Record<string, unknown> | null };
    content += j.choices[0]?.delta?.content ?? '';
    if (j.usage) usage = j.usage;
  }
  return { text: content, usage: usage! };
}

/** sim-serve argv for a variant, from the sim adapter (the launch path's own command), without host and port. */
function simArgv(engine: 'vllm' | 'sglang' | 'trtllm', knobs: Knobs): string[] {
  const spec = sim.command(
    { id: 'x', engine, model: MODEL, knobs },
    { host: '127.0.0.1', port: 1, runDir: '/tmp', runtime: { kind: 'native' } },
  );
  const argv = spec.argv.slice(spec.argv.indexOf('sim-serve') + 1);
  const at = argv.indexOf('--port');
  argv.splice(at, 2, '--port', '0');
  argv.splice(argv.indexOf('--speed'), 2, '--speed', '20');
  return [...argv, '--load-time', '0'];
}

/** Two turns of one conversation: turn 2 resends turn 1 (a 600-word system prompt and a question) and its reply. */
async function twoTurns(url: string, stream: boolean) {
  const system = { role: 'system', content: words(600, 's') };
  const q1 = { role: 'user', content: words(20, 'a') };
  const t1 = await chat(url, [system, q1], stream);
  const t2 = await chat(url, [system, q1, { role: 'assistant', content: t1.text }, { role: 'user', content: words(20, 'b') }], stream);
  return { t1, t2 };
}

describe('sim-serve prefix cache over HTTP', () => {
  it('vLLM: turn 2 reports usage.prompt_tokens_details.cached_tokens covering turn 1 and its reply; turn 1 reports none', async () => {
    const { url } = await startReady(simArgv('vllm', {}));
    const { t1, t2 } = await twoTurns(url, true);
    expect(t1.usage.prompt_tokens).toBe(620);
    expect(t1.usage.prompt_tokens_details).toBeUndefined();
    // 620 prompt + 40 reply tokens, the reply's last without KV: 659 tokens, 41 whole blocks.
    expect(t2.usage).toMatchObject({ prompt_tokens: 680, prompt_tokens_details: { cached_tokens: 656 } });
  });

  it('SGLang reports the same field (non-streaming body too); TensorRT-LLM reports none', async () => {
    const sg = await startReady(simArgv('sglang', {}));
    expect((await twoTurns(sg.url, false)).t2.usage).toMatchObject({ prompt_tokens_details: { cached_tokens: 656 } });
    const trt = await startReady(simArgv('trtllm', {}));
    const { t2 } = await twoTurns(trt.url, true);
    expect(t2.usage.prompt_tokens).toBe(680);
    expect(t2.usage.prompt_tokens_details).toBeUndefined();
  });

  it('prefix caching off (the launch path gives --no-prefix-caching) serves nothing from cache', async () => {
    const argv = simArgv('vllm', { prefixCaching: false });
    expect(argv).toContain('--no-prefix-caching');
    const { url } = await startReady(argv);
    const { t2 } = await twoTurns(url, true);
    expect(t2.usage.prompt_tokens).toBe(680);
    expect(t2.usage.prompt_tokens_details).toBeUndefined();
  });
});
