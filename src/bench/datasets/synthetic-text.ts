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
