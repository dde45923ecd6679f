// The prefix reuse a workload makes possible, computed from the prompts themselves: for each
// request, the leading tokens that an earlier request of the same workload already sent (the
// most a prefix cache with room for everything could serve). Every dataset goes through here,
// so the figure set beside the measured hit rate means the same thing for all of them.
import type { SampledRequest } from '../types.js';
import type { TokenCounter } from './tokenizer.js';

/** The prompt as token ids: the tokenizer's, or one id per whitespace-separated word. */
function tokenIds(prompt: string, counter: TokenCounter, vocab: Map<string, number>): ArrayLike<number> {
  if (counter.mode === 'exact' && counter.encode) return counter.encode(prompt, false);
  const words = prompt.split(/\s+/).filter((w) => w.length > 0);
  return words.map((w) => {
    let id = vocab.get(w);
    if (id === undefined) vocab.set(w, (id = vocab.size));
    return id;
  });
}

/**
 * Sets reusableLen on every request (in send order) and returns them. Each prefix of every
 * earlier prompt is remembered by a 52-bit rolling hash, so a request's reuse is the longest of
 * its own prefixes seen before: memory grows with the workload's total prompt tokens.
 */
export function markReuse(requests: SampledRequest[], counter: TokenCounter): SampledRequest[] {
  const seen = new Set<number>();
  const vocab = new Map<string, number>();
  for (const r of requests) {
    const ids = tokenIds(r.prompt, counter, vocab);
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    let common = 0;
    let matching = true;
    const keys: number[] = new Array<number>(ids.length);
    for (let k = 0; k < ids.length; k++) {
      const t = ids[k]!;
      h1 = (Math.imul(h1 ^ t, 0x01000193) + k) >>> 0;
      h2 = (Math.imul(h2 + t, 0x5bd1e995) ^ (h2 >>> 13)) >>> 0;
      const key = h1 * 0x100000 + (h2 & 0xfffff);
      keys[k] = key;
      if (matching && seen.has(key)) common = k + 1;
      else matching = false;
    }
    for (const key of keys) seen.add(key);
    // Special tokens the server adds in front (BOS) are shared by every prompt too.
    r.reusableLen = common > 0 ? Math.min(r.promptLen, common + counter.numSpecial) : 0;
  }
  return requests;
}

/** Share of the workload's prompt tokens an earlier request already sent (0..1). */
export function possibleReuse(requests: readonly Pick<SampledRequest, 'promptLen' | 'reusableLen'>[]): number {
  let total = 0;
  let reusable = 0;
  for (const r of requests) {
    total += r.promptLen;
    reusable += r.reusableLen ?? 0;
  }
  return total > 0 ? reusable / total : 0;
}
