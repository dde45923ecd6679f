// Cache accounting of a run: the measured prefix-cache hit rate (prompt tokens the server says it
// served from cache, over all prompt tokens of the requests it reported on) beside the reuse the
// workload made possible (reuse.ts, from the prompts themselves), and TTFT split into requests
// that hit the cache and requests that missed it. Computed from the outputs, so a simulated run's
// scaled TTFTs carry through. Keys say "cache" or "hit"; they follow vLLM's in the result JSON.
import { mean, median, percentileSorted, sortedCopy } from '../../core/stats.js';
import type { RequestOutput } from '../types.js';
import { hitBeforeRun, WARM_SHARE } from './cache-warm.js';

export interface CacheMetrics {
  /** Share of prompt tokens an earlier request of the workload had already sent (0..1). */
  cache_possible_reuse: number;
  /** Successful requests counted for the hit rate (all of them once any response reported its cache). */
  cache_reported_requests: number;
  /** Cached prompt tokens over the prompt tokens of the reporting requests (0..1); null when none reported. */
  cache_hit_rate: number | null;
  total_cached_tokens: number;
  /** Reporting requests with at least one cached token, and with none. */
  cache_hit_requests: number;
  cache_miss_requests: number;
  mean_ttft_cache_hit_ms: number | null;
  median_ttft_cache_hit_ms: number | null;
  p99_ttft_cache_hit_ms: number | null;
  mean_ttft_cache_miss_ms: number | null;
  median_ttft_cache_miss_ms: number | null;
  p99_ttft_cache_miss_ms: number | null;
  /** Prompt tokens served from a cache this run had not filled, over the reporting requests' prompt tokens (0..1; cache-warm.ts). */
  cache_hit_before_run: number;
  /** The cache was warm before the run: the hit rate is above this workload's own reuse (by more than WARM_SHARE). */
  cache_warm_before_run: boolean;
}

function ttftStats(outs: readonly RequestOutput[]): [number | null, number | null, number | null] {
  if (outs.length === 0) return [null, null, null];
  const ms = outs.map((o) => o.ttft * 1000);
  return [mean(ms), median(ms), percentileSorted(sortedCopy(ms), 99)];
}

/** The run's cache figures, or undefined when the workload had (almost) no reuse and no response reported a cache. */
export function cacheMetrics(outputs: readonly RequestOutput[]): CacheMetrics | undefined {
  const ok = outputs.filter((o) => o.success);
  let prompt = 0;
  let reusable = 0;
  for (const o of ok) {
    prompt += o.promptLen;
    reusable += Math.min(o.reusableLen ?? 0, o.promptLen);
  }
  // Once any response reported its cache, one without a report counts as a miss: SGLang leaves
  // prompt_tokens_details out when nothing was cached (usage_processor.py _details_if_cached).
  const anyReport = ok.some((o) => o.cachedTokens !== undefined);
  // A chance match of a few leading tokens (random prompts share a first word now and then) is
  // no workload reuse: below 1% of the prompt tokens, and with no report, vLLM's block stays as it is.
  if (reusable < 0.01 * prompt && !anyReport) return undefined;
  const reported = anyReport ? ok.map((o) => (o.cachedTokens === undefined ? { ...o, cachedTokens: 0 } : o)) : [];
  let reportedPrompt = 0;
  let cached = 0;
  for (const o of reported) {
    reportedPrompt += o.promptLen;
    cached += o.cachedTokens!;
  }
  const hits = reported.filter((o) => o.cachedTokens! > 0);
  const misses = reported.filter((o) => o.cachedTokens === 0);
  const [mh, dh, ph] = ttftStats(hits);
  const [mm, dm, pm] = ttftStats(misses);
  const before = hitBeforeRun(reported);
  return {
    cache_possible_reuse: prompt > 0 ? reusable / prompt : 0,
    cache_reported_requests: reported.length,
    cache_hit_rate: reported.length > 0 && reportedPrompt > 0 ? cached / reportedPrompt : null,
    total_cached_tokens: cached,
    cache_hit_requests: hits.length,
    cache_miss_requests: misses.length,
    mean_ttft_cache_hit_ms: mh,
    median_ttft_cache_hit_ms: dh,
    p99_ttft_cache_hit_ms: ph,
    mean_ttft_cache_miss_ms: mm,
    median_ttft_cache_miss_ms: dm,
    p99_ttft_cache_miss_ms: pm,
    cache_hit_before_run: before,
    cache_warm_before_run: before > WARM_SHARE,
  };
}
