// The multi-turn workload before any request: deterministic by seed, the defaults that need no
// flag, vLLM's two input forms read as vLLM reads them, bad input as one line.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { approximateCounter } from '../../../../src/bench/datasets/tokenizer.js';
import { flagShape, generateConversations } from '../../../../src/bench/multiturn/conversations.js';
import { checkMultiTurn } from '../../../../src/bench/multiturn/spec.js';
import { readVllmInputFile, vllmConversations } from '../../../../src/bench/multiturn/vllm-input.js';

const readVllmInput = (file: string, spec: ReturnType<typeof checkMultiTurn>, counter: typeof approximateCounter) =>
  vllmConversations(readVllmInputFile(file), file, spec, counter);
import { UserError } from '../../../../src/core/errors.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../../fixtures/bench/${name}`, import.meta.url));
const generated = (given = {}) => {
  const spec = checkMultiTurn(given);
  return generateConversations(flagShape(spec), spec.thinkTimeS, spec.seed, approximateCounter);
};

describe('generated conversations', () => {
  it('with no flag: 8 conversations of 6 turns on one 1,000-token system prompt', () => {
    const convs = generated();
    expect(convs).toHaveLength(8);
    expect(convs.every((c) => c.turns.length === 6)).toBe(true);
    expect(new Set(convs.map((c) => c.system)).size).toBe(1);
    expect(convs[0]!.systemLen).toBe(1000);
    const lens = convs.flatMap((c) => c.turns.map((t) => t.userLen));
    expect(Math.min(...lens)).toBeGreaterThanOrEqual(96);
    expect(Math.max(...lens)).toBeLessThanOrEqual(160);
    expect(new Set(lens).size).toBeGreaterThan(5);
    // Think time only between turns, and on average near the asked mean.
    const think = convs.flatMap((c) => c.turns.map((t) => t.thinkS));
    expect(convs.every((c) => c.turns[0]!.thinkS === 0)).toBe(true);
    const later = think.filter((_, i) => i % 6 !== 0);
    expect(later.reduce((a, b) => a + b, 0) / later.length).toBeGreaterThan(0.6);
    expect(later.reduce((a, b) => a + b, 0) / later.length).toBeLessThan(1.5);
  });

  it('is the same for the same seed and differs for another', () => {
    expect(generated({ seed: 3 })).toEqual(generated({ seed: 3 }));
    expect(generated({ seed: 3 })[0]!.turns[0]!.user).not.toBe(generated({ seed: 4 })[0]!.turns[0]!.user);
  });

  it('counts users, conversations and turns as asked', () => {
    const convs = generated({ users: 2, conversations: 5, turns: 3, systemPromptLen: 0, thinkTimeS: 0 });
    expect(convs).toHaveLength(5);
    expect(convs.every((c) => c.turns.length === 3 && c.system === '' && c.turns.every((t) => t.thinkS === 0))).toBe(true);
  });

  it.each([
    [{ users: 0 }, /--max-concurrency \(multi_turn: concurrent users\) must be an integer >= 1/],
    [{ turns: 0 }, /--multi-turn-turns must be an integer >= 1, got 0/],
    [{ rangeRatio: 1 }, /--multi-turn-range-ratio must be in \[0, 1\)/],
    [{ thinkTimeS: -1 }, /--multi-turn-think-time must be a number of seconds >= 0/],
  ])('refuses %j with one line', (given, message) => {
    expect(() => checkMultiTurn(given)).toThrow(UserError);
    expect(() => checkMultiTurn(given)).toThrow(message);
  });
});

describe("vLLM's multi-turn input files", () => {
  it('a generate_conversations config: its count, turns (messages / 2, rounded up), common prefix and lengths', () => {
    const convs = readVllmInput(fixture('multi-turn-generate.json'), checkMultiTurn({ thinkTimeS: 0 }), approximateCounter);
    expect(convs).toHaveLength(5);
    for (const c of convs) {
      // 3..8 messages: at least 2, rounded up to even, half the user's: 2..4 user turns.
      expect(c.turns.length).toBeGreaterThanOrEqual(2);
      expect(c.turns.length).toBeLessThanOrEqual(4);
      expect(c.systemLen).toBe(40);
      // The first message carries the conversation's own context (prefix_num_tokens, at most 60).
      expect(c.turns[0]!.userLen).toBeGreaterThan(c.turns[1]!.userLen);
      expect(c.turns.slice(1).every((t) => t.userLen >= 10 && t.userLen <= 20)).toBe(true);
      expect(c.turns.every((t) => t.outputLen >= 4 && t.outputLen <= 8)).toBe(true);
    }
    expect(new Set(convs.map((c) => c.system)).size).toBe(1);
  });

  it("a conversations list, OpenAI or ShareGPT form: user messages as written, replies as long as the file's answers", () => {
    const convs = readVllmInput(fixture('multi-turn-conversations.json'), checkMultiTurn({ outputLen: 33 }), approximateCounter);
    expect(convs.map((c) => [c.id, c.turns.length])).toEqual([
      ['chat-a', 3],
      ['chat-b', 2],
      ['chat-c', 1],
    ]);
    expect(convs[0]!.system).toBe('You are a terse assistant for a bicycle shop.');
    expect(convs[0]!.turns[0]).toMatchObject({ user: 'Which tyre pressure suits a 28 mm road tyre?', userLen: 9, outputLen: 13 });
    // The last user message has no answer in the file: --multi-turn-output-len.
    expect(convs[0]!.turns[2]!.outputLen).toBe(33);
    expect(convs[1]!.turns[1]).toMatchObject({ user: 'What should I pack for rain?', outputLen: 10 });
  });

  it('--multi-turn-turns and --multi-turn-conversations cap what a file gives', () => {
    const convs = readVllmInput(
      fixture('multi-turn-conversations.json'),
      checkMultiTurn({ turns: 1, conversations: 2 }),
      approximateCounter,
    );
    expect(convs.map((c) => c.turns.length)).toEqual([1, 1]);
  });

  it('a file that is neither form is one line naming it', () => {
    expect(() => readVllmInput(fixture('mooncake-small.jsonl'), checkMultiTurn({}), approximateCounter)).toThrow(
      /mooncake-small\.jsonl: not a readable JSON file/,
    );
    expect(() => readVllmInput(fixture('tiny-tokenizer/tokenizer.json'), checkMultiTurn({}), approximateCounter)).toThrow(
      /expected vLLM's generate_conversations config or a JSON list of conversations/,
    );
  });
});
