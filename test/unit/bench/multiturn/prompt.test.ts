// Turn k's request carries the conversation so far with the server's replies; on the completions
// backend each turn's text starts with the previous turn's text and reply, byte for byte, so a
// prefix cache keeps all of it.
import { describe, expect, it } from 'vitest';
import { approximateCounter } from '../../../../src/bench/datasets/tokenizer.js';
import type { Conversation } from '../../../../src/bench/multiturn/conversations.js';
import { turnRequest } from '../../../../src/bench/multiturn/prompt.js';

const conv: Conversation = {
  id: 'c',
  system: 'be brief',
  systemLen: 2,
  turns: [
    { user: 'first question', userLen: 2, outputLen: 5, thinkS: 0 },
    { user: 'second one here', userLen: 3, outputLen: 6, thinkS: 1 },
    { user: 'third', userLen: 1, outputLen: 7, thinkS: 1 },
  ],
};
const replies = ['an answer of five', ' another reply'];

describe('turn requests', () => {
  it('chat: system, then each user message with the reply it got, then the new message', () => {
    const r = turnRequest(conv, replies, 2, 'openai-chat', approximateCounter);
    expect(r.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'an answer of five' },
      { role: 'user', content: 'second one here' },
      { role: 'assistant', content: ' another reply' },
      { role: 'user', content: 'third' },
    ]);
    expect(r.expectedOutputLen).toBe(7);
    // 2 (system) + 2 + 4 + 3 + 2 + 1 words.
    expect(r.promptLen).toBe(14);
  });

  it('completions: every turn extends the one before it by its reply and the new message', () => {
    const texts = [0, 1, 2].map((k) => turnRequest(conv, replies, k, 'openai', approximateCounter).prompt);
    expect(texts[0]).toBe('be brief\n\nUser: first question\n\nAssistant:');
    expect(texts[1]!.startsWith(texts[0]! + replies[0])).toBe(true);
    expect(texts[2]!.startsWith(texts[1]! + replies[1])).toBe(true);
    expect(turnRequest(conv, replies, 1, 'openai', approximateCounter).messages).toBeUndefined();
  });

  it('a conversation without a system prompt starts with the user', () => {
    const r = turnRequest({ ...conv, system: '', systemLen: 0 }, replies, 0, 'openai', approximateCounter);
    expect(r.prompt).toBe('User: first question\n\nAssistant:');
    const chat = turnRequest({ ...conv, system: '', systemLen: 0 }, replies, 0, 'openai-chat', approximateCounter);
    expect(chat.messages).toEqual([{ role: 'user', content: 'first question' }]);
  });
});
