// Synthetic prompt text from token ids: the tokenizer's own pieces when token counts are exact,
// else a fixed word list (one word = one token, as the simulator counts). Shared by the random,
// prefix_repetition and mooncake_trace workloads so their prompts are made the same way.
import type { TokenCounter } from './tokenizer.js';

// A fixed word list for approximate prompts: one word = one token for the simulator.
const SYLLABLES = ['ka', 'lo', 'mi', 'su', 're', 'ta', 'no', 've', 'pi', 'du', 'ge', 'ro', 'shi', 'ba', 'fen', 'zo'];
let WORDS: string[] | undefined;
export function words(): string[] {
  if (!WORDS) {
    WORDS = [];
    for (const a of SYLLABLES) for (const b of SYLLABLES) for (const c of ['', 'n', 'r', 'l']) WORDS.push(a + b + c);
  }
  return WORDS;
}

/**
 * Ids the random workload's consecutive runs are laid out in without a tokenizer. vLLM's random
 * prompt i is the ids offset_i + i, offset_i + i + 1, ... modulo the vocabulary: two prompts whose
 * runs start at the same id are the same text. Over 1,024 words a run started where an earlier
 * one had in a third of 1,000 prompts (35.6% of their tokens reusable, where a tokenizer's
 * vocabulary gives none), and a server's prefix cache read it as reuse. Laid out over 2^20 ids,
 * each mapped to a word by a mixing hash, runs almost never start alike and no two read the same.
 */
export const APPROX_RUN_IDS = 1 << 20;

/** The word standing for id `id` of the APPROX_RUN_IDS space: Fibonacci hashing, whose high bits mix (its low bits repeat with the id's). */
export function approxRunWord(id: number): string {
  const w = words();
  return w[Math.floor(((Math.imul(id + 1, 0x9e3779b1) >>> 0) / 2 ** 32) * w.length)]!;
}

/** How many distinct ids text may be made of with this counter. */
export function textVocab(counter: TokenCounter): number {
  return exactIds(counter) ? counter.sampleIds!.length : words().length;
}

function exactIds(counter: TokenCounter): boolean {
  return counter.mode === 'exact' && !!counter.encode && !!counter.decode && !!counter.sampleIds?.length;
}

/** Text of ids in [0, textVocab): decoded sample ids, or words joined by spaces. */
export function idsToText(ids: readonly number[], counter: TokenCounter): string {
  if (exactIds(counter)) return counter.decode!(ids.map((k) => counter.sampleIds![k]!));
  const w = words();
  return ids.map((id) => w[id]!).join(' ');
}

/** Prompt length of text made by idsToText: re-encoded when exact, else one per id. */
export function textLen(text: string, ids: readonly number[], counter: TokenCounter): number {
  return exactIds(counter) ? counter.encode!(text, false).length : ids.length;
}
