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

/** Prefixes are remembered at each of the first STEP tokens, then every STEP: about 16 times fewer entries. */
const STEP = 16;

/**
 * For each prompt (in order), its longest leading run of tokens an earlier prompt of the list
 * also starts with. Every STEP-token prefix of each earlier prompt is remembered by a 52-bit
 * rolling hash with the first prompt that had it; a prompt's match is its longest remembered
 * prefix, extended token by token against that prompt (a longer match with another one is
 * missed by less than STEP tokens).
 */
function earlierPrefixLens(all: readonly ArrayLike<number>[]): number[] {
  const seen = new Map<number, number>();
  return all.map((ids, i) => {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    let matched = 0;
    let from = -1;
    let matching = true;
    const mine: number[] = [];
    for (let k = 0; k < ids.length; k++) {
      const t = ids[k]!;
      h1 = (Math.imul(h1 ^ t, 0x01000193) + k) >>> 0;
      h2 = (Math.imul(h2 + t, 0x5bd1e995) ^ (h2 >>> 13)) >>> 0;
      if (k >= STEP && (k + 1) % STEP) continue;
      const key = h1 * 0x100000 + (h2 & 0xfffff);
      const j = matching ? seen.get(key) : undefined;
      if (j !== undefined) {
        matched = k + 1;
        from = j;
      } else matching = false;
      mine.push(key);
    }
    let common = matched;
    if (from >= 0) {
      const other = all[from]!;
      while (common < ids.length && common < other.length && ids[common] === other[common]) common++;
    }
    for (const key of mine) if (!seen.has(key)) seen.set(key, i);
    return common;
  });
}

/**
 * Sets reusableLen on every request (in send order): the prefix an earlier request already sent.
 * And sharedLen: the prefix it shares with any other request, earlier or later; requests in
 * flight together reach the server in any order, so a later one may have filled the cache first.
 */
export function markReuse(requests: SampledRequest[], counter: TokenCounter): SampledRequest[] {
  const vocab = new Map<string, number>();
  const all = requests.map((r) => tokenIds(r.prompt, counter, vocab));
  const earlier = earlierPrefixLens(all);
  const later = earlierPrefixLens([...all].reverse()).reverse();
  // Special tokens the server adds in front (BOS) are shared by every prompt too.
  const withSpecial = (r: SampledRequest, common: number) => (common > 0 ? Math.min(r.promptLen, common + counter.numSpecial) : 0);
  requests.forEach((r, i) => {
    r.reusableLen = withSpecial(r, earlier[i]!);
    r.sharedLen = withSpecial(r, Math.max(earlier[i]!, later[i]!));
  });
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
