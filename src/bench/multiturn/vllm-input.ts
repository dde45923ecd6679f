// vLLM's multi-turn benchmark input files (benchmarks/multi_turn, vllm-project/vllm: the config
// parser bench_dataset.py@0fdcab7e, the converter convert_sharegpt_to_openai.py@045d7575), read
// as `--dataset-path FILE` of `--dataset-name multi_turn`:
// - a generate_conversations config (generate_multi_turn.json): num_conversations, and the
//   distributions of prompt_input.num_turns (messages, user and assistant, rounded up to an even
//   count as vLLM does), common_prefix_num_tokens, prefix_num_tokens and num_tokens, and of
//   prompt_output.num_tokens. Its text_files are not read: servelab makes the text itself. The
//   common prefix becomes the system prompt (vLLM prepends it to the first user message; a shared
//   prefix either way);
// - a list of conversations: vLLM's OpenAI form [{"id", "messages": [{"role", "content"}]}], or
//   ShareGPT's [{"id", "conversations": [{"from", "value"}]}] mapped as vLLM's converter maps it.
//   User messages are sent as written; each reply asks for as many tokens as the file's answer
//   (vLLM's NUM_TOKENS_FROM_DATASET), or --multi-turn-output-len when the file has none.
import { readFileSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { PyRandom } from '../datasets/rng.js';
import type { TokenCounter } from '../datasets/tokenizer.js';
import { generateConversations, thinkTimes, type Conversation, type GenShape, type Turn } from './conversations.js';
import { parseDistribution } from './distributions.js';
import type { MultiTurnSpec } from './spec.js';

type Json = Record<string, unknown>;

function configShape(conf: Json, spec: MultiTurnSpec, file: string): GenShape {
  const input = conf.prompt_input as Json | undefined;
  const output = conf.prompt_output as Json | undefined;
  if (!input || !output) throw new UserError(`${file}: a generate_conversations config needs prompt_input and prompt_output`);
  const count = conf.num_conversations;
  if (!(typeof count === 'number' && Number.isInteger(count) && count > 0))
    throw new UserError(`${file}: num_conversations must be a positive integer`);
  const messages = parseDistribution(input.num_turns, `${file}: prompt_input.num_turns`);
  const common = input.common_prefix_num_tokens
    ? parseDistribution(input.common_prefix_num_tokens, `${file}: prompt_input.common_prefix_num_tokens`)(new PyRandom(spec.seed), 1)[0]!
    : 0;
  const cap = spec.turns ?? Infinity;
  return {
    count: spec.conversations ?? count,
    // vLLM: at least 2 messages, rounded up to even; half of them are the user's.
    turns: (rng, n) => messages(rng, n).map((m) => Math.min(cap, Math.ceil(Math.max(2, m) / 2))),
    systemLen: Math.max(0, common),
    ...(input.prefix_num_tokens
      ? { contextLen: parseDistribution(input.prefix_num_tokens, `${file}: prompt_input.prefix_num_tokens`) }
      : {}),
    inputLen: parseDistribution(input.num_tokens, `${file}: prompt_input.num_tokens`),
    outputLen: parseDistribution(output.num_tokens, `${file}: prompt_output.num_tokens`),
  };
}

const ROLES: Readonly<Record<string, 'user' | 'assistant' | 'system'>> = {
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  gpt: 'assistant',
  bing: 'assistant',
  chatgpt: 'assistant',
  bard: 'assistant',
  system: 'system',
};

function messagesOf(item: Json, where: string): { role: 'user' | 'assistant' | 'system'; content: string }[] {
  const raw = (item.messages ?? item.conversations) as unknown;
  if (!Array.isArray(raw)) throw new UserError(`${where}: expected "messages" (OpenAI form) or "conversations" (ShareGPT form)`);
  return raw.map((m: Json, i) => {
    const role = ROLES[String(m.role ?? m.from)];
    const content = m.content ?? m.value;
    if (!role || typeof content !== 'string') throw new UserError(`${where}, message ${i + 1}: needs a known role and a text content`);
    return { role, content };
  });
}

/** One file conversation as turns: each user message with the answer after it, if any. */
function fileConversation(
  item: Json,
  index: number,
  file: string,
  spec: MultiTurnSpec,
  counter: TokenCounter,
  rng: PyRandom,
): Conversation {
  const id = typeof item.id === 'string' ? item.id : `conv-${index}`;
  const msgs = messagesOf(item, `${file}: conversation ${index + 1}`);
  const system = msgs.find((m) => m.role === 'system')?.content ?? '';
  const turns: Turn[] = [];
  for (let i = 0; i < msgs.length && turns.length < (spec.turns ?? Infinity); i++) {
    if (msgs[i]!.role !== 'user') continue;
    const answer = msgs[i + 1]?.role === 'assistant' ? msgs[i + 1]!.content : undefined;
    const outputLen = answer !== undefined ? Math.max(1, counter.count(answer, false)) : spec.outputLen;
    turns.push({ user: msgs[i]!.content, userLen: counter.count(msgs[i]!.content, false), outputLen, thinkS: 0 });
  }
  const think = thinkTimes(rng, turns.length, spec.thinkTimeS);
  turns.forEach((t, k) => (t.thinkS = think[k]!));
  return { id, system, systemLen: system ? counter.count(system, false) : 0, turns };
}

/** The input file's JSON, read before anything else so a bad file is the only line printed. */
export function readVllmInputFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UserError(`${file}: not a readable JSON file (${(e as Error).message.split('\n')[0]})`);
  }
}

/** The conversations a vLLM input file describes (a UserError naming the file when it is neither form). */
export function vllmConversations(data: unknown, file: string, spec: MultiTurnSpec, counter: TokenCounter): Conversation[] {
  if (data && typeof data === 'object' && !Array.isArray(data) && (data as Json).filetype === 'generate_conversations')
    return generateConversations(configShape(data as Json, spec, file), spec.thinkTimeS, spec.seed, counter);
  if (!Array.isArray(data)) throw new UserError(`${file}: expected vLLM's generate_conversations config or a JSON list of conversations`);
  const rng = new PyRandom(spec.seed);
  const all = data.map((item: Json, i) => fileConversation(item, i, file, spec, counter, rng)).filter((c) => c.turns.length > 0);
  if (all.length === 0) throw new UserError(`${file}: no conversation has a user message`);
  return all.slice(0, spec.conversations ?? all.length);
}
