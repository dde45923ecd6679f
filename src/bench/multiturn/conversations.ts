// The conversations of a multi-turn run, fixed before it starts and deterministic by seed: each
// conversation's system prompt, its user messages with their token counts, the reply length asked
// for at each turn and the think time before it. The replies are not here: the driver sends the
// server's actual replies back (driver.ts). Made from the flags (a shared system prompt, as a chat
// product prefixes every conversation), or from one of vLLM's multi-turn input files (vllm-input.ts).
import { PyRandom } from '../datasets/rng.js';
import { idsToText, textLen, textVocab } from '../datasets/synthetic-text.js';
import type { TokenCounter } from '../datasets/tokenizer.js';
import type { TokenCountMode } from '../types.js';
import type { Distribution } from './distributions.js';
import type { MultiTurnSpec } from './spec.js';
import { MULTI_TURN_DEFAULTS } from './spec.js';

export interface Turn {
  user: string;
  /** Tokens of the user message alone (the tokenizer's, or words). */
  userLen: number;
  /** Reply tokens asked for (max tokens). */
  outputLen: number;
  /** Seconds the user thinks after the previous reply before sending this turn (0 for the first). */
  thinkS: number;
}

export interface Conversation {
  id: string;
  /** System prompt ('' for none) and its tokens. */
  system: string;
  systemLen: number;
  turns: Turn[];
}

export interface MultiTurnWorkload {
  conversations: Conversation[];
  tokenCounts: TokenCountMode;
  tokenizerPath?: string;
  /** Where the conversations came from, for the header line (e.g. "generated", a file name). */
  source: string;
}

/** The shape a generator draws from: servelab's flags, or a vLLM generate_conversations config. */
export interface GenShape {
  count: number;
  /** User turns of each conversation. */
  turns: Distribution;
  /** Tokens of the system prompt all conversations share. */
  systemLen: number;
  /** Tokens of context a conversation's first message starts with (vLLM prefix_num_tokens). */
  contextLen?: Distribution;
  inputLen: Distribution;
  outputLen: Distribution;
}

/** Text of about n tokens from the generator (exact when a tokenizer is there), and its count. */
function text(rng: PyRandom, n: number, counter: TokenCounter): { text: string; len: number } {
  const vocab = textVocab(counter);
  const ids = Array.from({ length: n }, () => rng.randbelow(vocab));
  const t = idsToText(ids, counter);
  return { text: t, len: n > 0 ? textLen(t, ids, counter) : 0 };
}

/** Exponential think times with the given mean, one per turn (0 before the first). */
export function thinkTimes(rng: PyRandom, turns: number, meanS: number): number[] {
  return Array.from({ length: turns }, (_, k) => (k === 0 || meanS === 0 ? 0 : -meanS * Math.log(1 - rng.random())));
}

export function generateConversations(shape: GenShape, thinkTimeS: number, seed: number, counter: TokenCounter): Conversation[] {
  const rng = new PyRandom(seed);
  const system = text(rng, shape.systemLen, counter);
  const out: Conversation[] = [];
  for (let c = 0; c < shape.count; c++) {
    const k = Math.max(1, shape.turns(rng, 1)[0]!);
    const ins = shape.inputLen(rng, k);
    const outs = shape.outputLen(rng, k);
    const context = shape.contextLen ? Math.max(0, shape.contextLen(rng, 1)[0]!) : 0;
    const think = thinkTimes(rng, k, thinkTimeS);
    const turns: Turn[] = [];
    for (let t = 0; t < k; t++) {
      const msg = text(rng, Math.max(1, ins[t]!) + (t === 0 ? context : 0), counter);
      turns.push({ user: msg.text, userLen: msg.len, outputLen: Math.max(1, outs[t]!), thinkS: think[t]! });
    }
    out.push({ id: `conv-${c}`, system: system.text, systemLen: system.len, turns });
  }
  return out;
}

/** Lengths drawn uniformly from [len * (1 - r), len * (1 + r)] (vLLM's random-dataset rule). */
export function aroundLen(len: number, r: number): Distribution {
  const lo = Math.max(1, Math.floor(len * (1 - r)));
  const hi = Math.max(lo, Math.ceil(len * (1 + r)));
  return (rng, n) => Array.from({ length: n }, () => rng.intBetween(lo, hi));
}

/** The flags' shape: `conversations` (default one per user) of `turns` on a shared system prompt. */
export function flagShape(spec: MultiTurnSpec): GenShape {
  const turns = spec.turns ?? MULTI_TURN_DEFAULTS.turns;
  return {
    count: spec.conversations ?? spec.users,
    turns: (_rng, n) => Array.from({ length: n }, () => turns),
    systemLen: spec.systemPromptLen,
    inputLen: aroundLen(spec.inputLen, spec.rangeRatio),
    outputLen: aroundLen(spec.outputLen, spec.rangeRatio),
  };
}
