// The multi-turn driver over real HTTP against a scripted server that answers every request with
// a reply of its own: each turn carries the replies the server actually sent, users never
// overlap more than asked, turns of one conversation never overlap, the reuse each turn could get
// is the previous turn's prompt, and a failed turn ends its conversation.
import { afterEach, describe, expect, it } from 'vitest';
import { approximateCounter } from '../../../src/bench/datasets/tokenizer.js';
import { flagShape, generateConversations } from '../../../src/bench/multiturn/conversations.js';
import { runMultiTurn } from '../../../src/bench/multiturn/driver.js';
import { checkMultiTurn } from '../../../src/bench/multiturn/spec.js';
import type { RequestOutput } from '../../../src/bench/types.js';
import { startScriptedServer, type ScriptedServer, type Script } from '../../fixtures/bench/scripted-server.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** A reply unique to the n-th request, with usage (prompt words) and a cache report. */
function reply(body: Record<string, unknown>, n: number, ttftMs = 15): Script {
  const msgs = body.messages as { content: string }[] | undefined;
  const promptTokens = msgs ? msgs.reduce((a, m) => a + words(m.content), 0) : words(String(body.prompt));
  const text = `r${n}a r${n}b`;
  const choice = msgs ? { index: 0, delta: { content: text } } : { index: 0, text };
  const usage = { prompt_tokens: promptTokens, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 1 } };
  return {
    ttftMs,
    gapMs: 0,
    raw: `data: ${JSON.stringify({ choices: [choice] })}\n\ndata: ${JSON.stringify({ choices: [], usage })}\n\ndata: [DONE]\n\n`,
  };
}

function workload(given: Parameters<typeof checkMultiTurn>[0]) {
  const spec = checkMultiTurn({ systemPromptLen: 20, inputLen: 6, outputLen: 2, ...given });
  return {
    conversations: generateConversations(flagShape(spec), spec.thinkTimeS, spec.seed, approximateCounter),
    tokenCounts: 'approximate' as const,
    source: 'generated',
  };
}

const byConversation = (outs: RequestOutput[]) => {
  const m = new Map<number, RequestOutput[]>();
  for (const o of outs) m.set(o.turn!.conversation, [...(m.get(o.turn!.conversation) ?? []), o]);
  return m;
};

describe('multi-turn driver', () => {
  it('sends the conversation so far with the replies the server gave, closed-loop, under the user cap', async () => {
    srv = await startScriptedServer((body, n) => reply(body, n));
    const w = workload({ users: 3, conversations: 5, turns: 3, thinkTimeS: 0.03 });
    const r = await runMultiTurn({ baseUrl: srv.url, model: 'm', workload: w, users: 3, counter: approximateCounter });
    expect(r.conversations).toEqual({ total: 5, completed: 5, users: 3 });
    expect(r.metrics.completed).toBe(15);
    expect(r.config.maxConcurrency).toBe(3);

    // Each request's assistant messages are the replies served to its conversation's earlier turns.
    const sent = srv.served.map((s, n) => ({ msgs: s.body.messages as { role: string; content: string }[], reply: `r${n}a r${n}b` }));
    for (const s of sent) {
      const first = s.msgs.find((m) => m.role === 'user')!.content;
      const earlier = sent.filter((o) => o.msgs.find((m) => m.role === 'user')!.content === first && o.msgs.length < s.msgs.length);
      earlier.sort((a, b) => a.msgs.length - b.msgs.length);
      expect(s.msgs.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(earlier.map((o) => o.reply));
      expect(s.msgs[0]).toEqual({ role: 'system', content: w.conversations[0]!.system });
    }

    // At most 3 requests in flight, and more than one at some point.
    const edges = r.outputs.flatMap((o) => [
      [o.startTime, 1],
      [o.startTime + o.latency, -1],
    ]);
    edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    let now = 0;
    let peak = 0;
    for (const [, d] of edges) peak = Math.max(peak, (now += d!));
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);

    for (const [, turns] of byConversation(r.outputs)) {
      expect(turns.map((o) => o.turn!.index)).toEqual([1, 2, 3]);
      for (let k = 1; k < turns.length; k++) {
        // Closed loop: the next turn leaves after the reply ended; it could reuse the whole previous prompt.
        expect(turns[k]!.startTime).toBeGreaterThanOrEqual(turns[k - 1]!.startTime + turns[k - 1]!.latency);
        expect(turns[k]!.reusableLen).toBe(turns[k - 1]!.promptLen);
      }
      expect(turns.every((o) => o.cachedTokens === 1 && o.serverCounted)).toBe(true);
    }
    // The first three start together with nothing cached; the two that start later find the shared system prompt sent.
    const firsts = r.outputs.filter((o) => o.turn!.index === 1).map((o) => o.reusableLen);
    expect(firsts).toEqual([0, 0, 0, 20, 20]);
  }, 30_000);

  it('completions: every turn extends the previous one by its reply', async () => {
    srv = await startScriptedServer((body, n) => reply(body, n));
    const w = workload({ users: 1, conversations: 1, turns: 3, thinkTimeS: 0 });
    await runMultiTurn({ baseUrl: srv.url, model: 'm', backend: 'openai', workload: w, users: 1, counter: approximateCounter });
    const prompts = srv.served.map((s) => String(s.body.prompt));
    expect(prompts).toHaveLength(3);
    expect(prompts[1]!.startsWith(`${prompts[0]}r0a r0b\n\nUser: `)).toBe(true);
    expect(prompts[2]!.startsWith(`${prompts[1]}r1a r1b\n\nUser: `)).toBe(true);
  }, 30_000);

  it('a failed turn ends its conversation; the others run on', async () => {
    let victim = '';
    srv = await startScriptedServer((body, n) => {
      const msgs = body.messages as { role: string; content: string }[];
      const first = msgs.find((m) => m.role === 'user')!.content;
      if (n === 0) victim = first;
      return first === victim && msgs.length > 3 ? { ttftMs: 1, gapMs: 0, status: 500 } : reply(body, n, 1);
    });
    const w = workload({ users: 2, conversations: 3, turns: 3, thinkTimeS: 0 });
    const r = await runMultiTurn({ baseUrl: srv.url, model: 'm', workload: w, users: 2, counter: approximateCounter });
    expect(r.conversations).toMatchObject({ total: 3, completed: 2 });
    expect(r.metrics.completed).toBe(7);
    expect(r.metrics.failed).toBe(1);
    expect(srv.served).toHaveLength(8);
  }, 30_000);
});
