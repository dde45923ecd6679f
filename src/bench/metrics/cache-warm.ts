// Was the server's prefix cache warm before the run? A request can only find cached what another
// request of the same run sent or was sent back (RequestOutput.ownCacheLen); tokens
// served from cache beyond that were there before the clock started: warm-up copies of the first
// request, an earlier benchmark on the same server. The hit rate is then above what this
// workload can reuse by itself, and says so instead of reading as impossible.
import type { RequestOutput } from '../types.js';

/**
 * Hits beyond the run's own reuse, as a share of prompt tokens, below which the cache counts as
 * cold: a multi-turn reply retokenized in the next turn's history, the chat template's markers
 * after a shared system prompt, a chance match of leading words, none of which the client counts.
 * On llama-server 80fb11a, freshly launched for every run, 2 users x 3 turns on a 64-token system
 * prompt read 66% hit of 62% possible: 4 points past the client's count, in every one of 8 runs.
 * 5 points is also the tolerance the measured hit rate is held to against the possible reuse
 * (perf/multiturn-llamacpp.ts); a cache warmed by an earlier run serves whole prompts, far past it.
 */
export const WARM_SHARE = 0.05;

/** The most of a request's prompt its own run could have left in a cache. */
const ownCacheLen = (o: Pick<RequestOutput, 'promptLen' | 'reusableLen' | 'ownCacheLen'>) =>
  Math.min(o.promptLen, o.ownCacheLen ?? o.reusableLen ?? 0);

/** Share of the reporting requests' prompt tokens served from a cache this run had not filled (0..1). */
export function hitBeforeRun(
  reported: readonly Pick<RequestOutput, 'promptLen' | 'reusableLen' | 'ownCacheLen' | 'cachedTokens'>[],
): number {
  let prompt = 0;
  let beyond = 0;
  for (const o of reported) {
    prompt += o.promptLen;
    beyond += Math.max(0, (o.cachedTokens ?? 0) - ownCacheLen(o));
  }
  return prompt > 0 ? beyond / prompt : 0;
}
