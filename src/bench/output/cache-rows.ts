// The printed block's prefix-cache section (servelab's, after vLLM's sections): the reuse the
// workload made possible, the measured hit rate, and TTFT of hits and misses.
import { pyCenter } from './pyformat.js';
import type { CacheMetrics } from '../metrics/cache.js';

export function cacheRows(
  c: CacheMetrics,
  row: (label: string, v: number) => string,
  text: (label: string, v: string) => string,
): string[] {
  const lines = [pyCenter('Prefix Cache', 50, '-')];
  lines.push(row('Possible prefix reuse (%):', c.cache_possible_reuse * 100));
  if (c.cache_hit_rate === null) {
    lines.push(text('Measured cache hit rate (%):', 'not reported by the server'));
    return lines;
  }
  lines.push(row('Measured cache hit rate (%):', c.cache_hit_rate * 100));
  // A hit rate above the possible reuse is no miracle: the server had cached some of it before the run.
  if (c.cache_warm_before_run) {
    lines.push(text('Cache warm before the run:', "yes (hit rate above this workload's own reuse)"));
    lines.push(row('Hits cached before the run (%):', c.cache_hit_before_run * 100));
  }
  lines.push(text('Requests hit / missed:', `${c.cache_hit_requests} / ${c.cache_miss_requests}`));
  if (c.mean_ttft_cache_hit_ms !== null) {
    lines.push(row('Mean TTFT, cache hits (ms):', c.mean_ttft_cache_hit_ms));
    lines.push(row('P99 TTFT, cache hits (ms):', c.p99_ttft_cache_hit_ms!));
  }
  if (c.mean_ttft_cache_miss_ms !== null) {
    lines.push(row('Mean TTFT, cache misses (ms):', c.mean_ttft_cache_miss_ms));
    lines.push(row('P99 TTFT, cache misses (ms):', c.p99_ttft_cache_miss_ms!));
  }
  return lines;
}
