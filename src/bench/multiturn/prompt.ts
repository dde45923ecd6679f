// Turn k's request: the conversation so far (system prompt, earlier user messages and the
// server's actual replies) plus the new user message. On the chat backend it is sent as messages;
// on the completions backend as one transcript that ends where the model's reply begins, so the
// next turn's text starts with this turn's text and the reply exactly as the model produced it:
// a prefix cache that matches bytes (llama.cpp's prompt cache matches tokens) keeps all of it.
import type { Backend, ChatMessage, RequestSpec } from '../http/request-shapes.js';
import type { TokenCounter } from '../datasets/tokenizer.js';
import type { Conversation } from './conversations.js';

const USER = '\n\nUser: ';
const ASSISTANT = '\n\nAssistant:';

/** The transcript of turns 0..k on the completions backend (replies[i] answered turn i). */
export function transcript(conv: Conversation, replies: readonly string[], k: number): string {
  let text = conv.system;
  for (let i = 0; i <= k; i++) {
    text += (text ? USER : 'User: ') + conv.turns[i]!.user + ASSISTANT;
    if (i < k) text += replies[i]!;
  }
  return text;
}

function chatMessages(conv: Conversation, replies: readonly string[], k: number): ChatMessage[] {
  const out: ChatMessage[] = conv.system ? [{ role: 'system', content: conv.system }] : [];
  for (let i = 0; i <= k; i++) {
    out.push({ role: 'user', content: conv.turns[i]!.user });
    if (i < k) out.push({ role: 'assistant', content: replies[i]! });
  }
  return out;
}

/**
 * The request of turn k. promptLen is the client's count: the transcript's tokens, or for chat
 * the messages' tokens (vLLM's multi-turn count; the server's template adds a few, and its usage
 * report replaces this count when it sends one).
 */
export function turnRequest(
  conv: Conversation,
  replies: readonly string[],
  k: number,
  backend: Backend,
  counter: TokenCounter,
): RequestSpec {
  const expectedOutputLen = conv.turns[k]!.outputLen;
  if (backend === 'openai') {
    const prompt = transcript(conv, replies, k);
    return { prompt, promptLen: counter.count(prompt, true), expectedOutputLen };
  }
  const messages = chatMessages(conv, replies, k);
  let promptLen = counter.numSpecial;
  for (let i = 0; i < messages.length; i++) {
    // The user messages' counts are known; the replies are counted as they come back.
    const m = messages[i]!;
    promptLen += m.role === 'assistant' ? counter.count(m.content, false) : m.role === 'system' ? conv.systemLen : 0;
  }
  for (let i = 0; i <= k; i++) promptLen += conv.turns[i]!.userLen;
  return { prompt: conv.turns[k]!.user, promptLen, expectedOutputLen, messages };
}
