// The prefix cache's block identity: each full block of 16 tokens is known by a hash of its tokens
// and of every token before it (vLLM's block hash chains the parent's hash the same way), so two
// requests share a cached block only when everything up to its end is the same.
import { HARDWARE } from '../../model/efficiency.js';

const BLOCK = HARDWARE.kvBlockTokens;

/** FNV-1a of a word: the token id of the simulator's one-word-one-token convention. */
export function wordId(w: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Chained hashes of a token sequence's full blocks, added token by token. Keys are 52-bit integers. */
export class BlockHasher {
  private h1 = 0x811c9dc5;
  private h2 = 0x9747b28c;
  private n = 0;
  readonly keys: number[] = [];

  push(token: number): void {
    this.h1 = Math.imul(this.h1 ^ token, 0x01000193) >>> 0;
    this.h2 = (Math.imul(this.h2 + token, 0x5bd1e995) ^ (this.h2 >>> 13)) >>> 0;
    if (++this.n % BLOCK === 0) {
      this.keys.push(this.h1 * 0x100000 + (this.h2 & 0xfffff));
      // The next block starts from this one's hash: a block's key covers every token before it.
      this.h1 = Math.imul(this.h1 ^ 0x5bd1e995, 0x01000193) >>> 0;
    }
  }
}

/** Block keys of whitespace-separated words (the prompt as the simulator counts it), then more words. */
export function wordBlocks(...texts: readonly (string | readonly string[])[]): number[] {
  const h = new BlockHasher();
  for (const t of texts) {
    const words = typeof t === 'string' ? t.split(/\s+/) : t;
    for (const w of words) if (w) h.push(wordId(w));
  }
  return h.keys;
}
