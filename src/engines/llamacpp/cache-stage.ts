// llama.cpp's cache-stage candidates (llama-server 80fb11a, llamacpp/knobs.ts rows): the prompt
// cache off (--no-cache-prompt; on by default), reuse of cached chunks by KV shifting
// (--cache-reuse, default 0 = off), the RAM prompt cache off or unbounded (-cram, default 8192 MiB),
// slot choice by prompt similarity off or stricter (-sps, default 0.10), and one KV buffer for all
// slots against one per slot (-kvu / -no-kvu; unified is the default only when -np is auto).
import type { CacheCandidate, CacheStageInput, CacheStageOut } from '../kit/cache-stage-types.js';

/** The smallest chunk --cache-reuse shifts into place: a few blocks, far above a chance match of a few tokens. */
const CACHE_REUSE_CHUNK = 256;
const SPS = [0, 0.5];

export function llamacppCacheStage({ knobs }: CacheStageInput): CacheStageOut {
  const c: CacheCandidate[] = [];
  if (knobs.prefixCaching !== false) c.push({ knobs: { prefixCaching: false }, change: 'prompt cache off', needs: ['prefixCaching'] });
  if (!knobs.cacheReuse)
    c.push({ knobs: { cacheReuse: CACHE_REUSE_CHUNK }, change: `cache-reuse=${CACHE_REUSE_CHUNK}`, needs: ['cacheReuse'] });
  for (const mib of [0, -1])
    if (knobs.cacheRamMiB !== mib)
      c.push({
        knobs: { cacheRamMiB: mib },
        change: mib === 0 ? 'RAM prompt cache off' : 'RAM prompt cache unbounded',
        needs: ['cacheRamMiB'],
      });
  for (const s of SPS)
    if (knobs.slotPromptSimilarity !== s)
      c.push({ knobs: { slotPromptSimilarity: s }, change: `sps=${s}`, needs: ['slotPromptSimilarity'] });
  const unified = knobs.kvUnified ?? knobs.maxRunningSeqs === undefined;
  c.push({ knobs: { kvUnified: !unified }, change: unified ? 'KV per slot' : 'KV unified', needs: ['kvUnified'] });
  return {
    candidates: c,
    notes: [
      "llama-server keeps each slot's last prompt in its KV: a request reuses it when it goes to the same slot, which -sps decides; -cram keeps prompts of other slots in RAM.",
    ],
  };
}
