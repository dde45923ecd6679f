// A multi-turn run's own figures: conversations per second, and per turn index the requests,
// TTFT (mean, median, p99), prompt length, the reuse a prefix cache could serve and the measured
// hit rate. Computed from the outputs' turn tags and the run's duration, so a simulated run's
// scaled figures carry through. Per-turn keys say "turn", hit rates "cache" or "hit"; in the
// result JSON they follow vLLM's keys.
import { mean, median, percentileSorted, sortedCopy } from '../../core/stats.js';
import type { BenchResult, RequestOutput } from '../types.js';

export interface TurnMetrics {
  multi_turn_users: number;
  conversations: number;
  completed_conversations: number;
  /** Conversations that ran every turn, per second of the run. */
  conversation_throughput: number;
  /** Turn numbers (1-based) the lists below are indexed by. */
  turn_index: number[];
  turn_completed: number[];
  turn_mean_ttft_ms: number[];
  turn_median_ttft_ms: number[];
  turn_p99_ttft_ms: number[];
  turn_mean_input_len: number[];
  /** Share of the turn's prompt tokens an earlier request had already sent (0..1). */
  turn_cache_possible_reuse: number[];
  /** Cached prompt tokens over prompt tokens (0..1); null where no response reported its cache. */
  turn_cache_hit_rate: (number | null)[];
}

function share(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

function hitRate(outs: readonly RequestOutput[], anyReport: boolean): number | null {
  if (!anyReport) return null;
  let cached = 0;
  let prompt = 0;
  for (const o of outs) {
    cached += o.cachedTokens ?? 0;
    prompt += o.promptLen;
  }
  return prompt > 0 ? cached / prompt : null;
}

/** The run's multi-turn figures, or undefined for a single-turn run. */
export function turnMetrics(r: Pick<BenchResult, 'outputs' | 'conversations' | 'metrics'>): TurnMetrics | undefined {
  if (!r.conversations) return undefined;
  const ok = r.outputs.filter((o) => o.success && o.turn);
  // As in the run's cache figures: once any response reported its cache, a silent one is a miss.
  const anyReport = ok.some((o) => o.cachedTokens !== undefined);
  const last = ok.reduce((m, o) => Math.max(m, o.turn!.index), 0);
  const m: TurnMetrics = {
    multi_turn_users: r.conversations.users,
    conversations: r.conversations.total,
    completed_conversations: r.conversations.completed,
    conversation_throughput: share(r.conversations.completed, r.metrics.duration),
    turn_index: [],
    turn_completed: [],
    turn_mean_ttft_ms: [],
    turn_median_ttft_ms: [],
    turn_p99_ttft_ms: [],
    turn_mean_input_len: [],
    turn_cache_possible_reuse: [],
    turn_cache_hit_rate: [],
  };
  for (let k = 1; k <= last; k++) {
    const outs = ok.filter((o) => o.turn!.index === k);
    const ttfts = outs.map((o) => o.ttft * 1000);
    const prompt = outs.reduce((a, o) => a + o.promptLen, 0);
    m.turn_index.push(k);
    m.turn_completed.push(outs.length);
    m.turn_mean_ttft_ms.push(mean(ttfts));
    m.turn_median_ttft_ms.push(median(ttfts));
    m.turn_p99_ttft_ms.push(ttfts.length ? percentileSorted(sortedCopy(ttfts), 99) : 0);
    m.turn_mean_input_len.push(share(prompt, outs.length));
    m.turn_cache_possible_reuse.push(
      share(
        outs.reduce((a, o) => a + Math.min(o.reusableLen ?? 0, o.promptLen), 0),
        prompt,
      ),
    );
    m.turn_cache_hit_rate.push(hitRate(outs, anyReport));
  }
  return m;
}
