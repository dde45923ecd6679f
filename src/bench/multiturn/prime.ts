// Priming a server for a multi-turn run: one request per system prompt the conversations share,
// sent before the clock starts, so the run meets what a server in steady state holds (the system
// prompt every user shares, in its prefix cache) and nothing of the conversations themselves.
// A capacity probe on a freshly launched server (`replay --capacity`) and one after earlier probes
// (the search) then start alike: without it, the fresh server's first wave of users all
// prefilled the system prompt at once and read a tail-TTFT SLO as broken where the search held.
import type { TokenCounter } from '../datasets/tokenizer.js';
import type { Backend, RequestSpec } from '../http/request-shapes.js';
import type { Sender } from '../load/sender.js';
import { checkWarmups } from '../load/warmup.js';
import type { Conversation } from './conversations.js';
import { turnRequest } from './prompt.js';

/** The priming request for a system prompt: it and a one-line message, one token of reply. */
function primeRequest(system: Conversation, backend: Backend, counter: TokenCounter): RequestSpec {
  const conv: Conversation = {
    id: 'prime',
    system: system.system,
    systemLen: system.systemLen,
    turns: [{ user: 'Say hello.', userLen: counter.count('Say hello.', false), outputLen: 1, thinkS: 0 }],
  };
  return turnRequest(conv, [], 0, backend, counter);
}

/** Sends one priming request per distinct system prompt, one after another; throws when every one failed. */
export async function primeSystems(
  conversations: readonly Conversation[],
  o: { send: Sender['send']; backend: Backend; counter: TokenCounter; idPrefix: string; aborted: () => boolean },
): Promise<void> {
  const systems = new Map<string, Conversation>();
  for (const c of conversations) if (c.system && !systems.has(c.system)) systems.set(c.system, c);
  const outs = [];
  for (const [i, c] of [...systems.values()].entries())
    outs.push(await o.send(primeRequest(c, o.backend, o.counter), `${o.idPrefix}prime-${i}`, {}));
  checkWarmups(outs, outs.length, o.aborted());
}
