// sim-serve streams /v1/completions and exits promptly on SIGTERM with a long stream in flight.
// "Promptly" is a bound on the wall clock, so this file runs in the timing pass.
import { afterEach, describe, expect, it } from 'vitest';
import { reapAll, startReady } from '../../helpers/sim/helpers.js';

afterEach(reapAll);

describe('sim-serve over HTTP', () => {
  it('streams /v1/completions with a usage chunk, and exits promptly on SIGTERM mid-stream', async () => {
    const { url, proc } = await startReady(['--engine', 'trtllm', '--model', 'Qwen/Qwen3-14B', '--speed', '1']);
    const r = await fetch(`${url}/v1/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'Qwen/Qwen3-14B',
        prompt: 'a b c d e',
        max_tokens: 5,
        stream: true,
        stream_options: { include_usage: true },
        ignore_eos: true,
      }),
    });
    const events = (await r.text()).split('\n\n').filter((e) => e.startsWith('data: '));
    expect(events.at(-1)).toBe('data: [DONE]');
    const json = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(
      json
        .filter((j) => j.choices.length > 0)
        .map((j) => j.choices[0].text)
        .join('')
        .trim()
        .split(' '),
    ).toHaveLength(5);
    expect(json.at(-1).usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 });
    // A long stream in flight must not keep the process alive after SIGTERM.
    const ctrl = new AbortController();
    const long = fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }], max_tokens: 5000, stream: true, ignore_eos: true }),
      signal: ctrl.signal,
    })
      .then((res) => res.text())
      .catch(() => 'closed');
    await new Promise((res) => setTimeout(res, 300));
    const t0 = Date.now();
    proc.child.kill('SIGTERM');
    const exit = await proc.exited;
    expect(exit.code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    ctrl.abort();
    await long;
  });
});
