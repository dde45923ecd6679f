// Merging the shards of a sharded client into one run: outputs by request index, the duration
// from the global start to the last shard's end (vLLM's definition: start of the arrival loop to
// the end of the gather), client stats over all threads, and the live view. Pure: tested on
// scripted records (test/unit/bench/merge.test.ts).
import type { ClientStats, RequestOutput } from '../types.js';
import type { LiveSnapshot } from '../../core/metrics.js';

/** What a shard worker returns: outputs keyed by their index in the whole run. */
export interface ShardReport {
  outputs: [index: number, output: RequestOutput][];
  /** Epoch ms at which the shard's last request ended (its gather returned). */
  endEpochMs: number;
  client: ClientStats;
}

/** Deals request indices to shards round robin: shard k sends every k-th arrival, in order. */
export function dealRequests(n: number, shards: number): number[][] {
  const out: number[][] = Array.from({ length: Math.max(1, Math.min(shards, n)) }, () => []);
  for (let i = 0; i < n; i++) out[i % out.length]!.push(i);
  return out;
}

/** Splits `total` (warm-ups) as evenly as the deal: [count, firstId] per shard. */
export function dealCount(total: number, shards: number): [count: number, firstId: number][] {
  const out: [number, number][] = [];
  let first = 0;
  for (let k = 0; k < shards; k++) {
    const c = Math.floor(total / shards) + (k < total % shards ? 1 : 0);
    out.push([c, first]);
    first += c;
  }
  return out;
}

/** Client stats of all threads: CPU is the sum (% of one core), lag the worst, reasons per shard. */
export function mergeClientStats(stats: readonly ClientStats[]): ClientStats {
  if (stats.length === 1) return stats[0]!;
  const reasons = stats.flatMap((s, k) => s.reasons.map((r) => `client thread ${k + 1} of ${stats.length}: ${r}`));
  return {
    eventLoopLagP99Ms: Math.max(0, ...stats.map((s) => s.eventLoopLagP99Ms)),
    eventLoopLagMaxMs: Math.max(0, ...stats.map((s) => s.eventLoopLagMaxMs)),
    eventLoopLagMeanMs: stats.reduce((a, s) => a + s.eventLoopLagMeanMs, 0) / Math.max(1, stats.length),
    cpuPct: stats.reduce((a, s) => a + s.cpuPct, 0),
    peakCpuPct: stats.reduce((a, s) => a + s.peakCpuPct, 0),
    reasons,
  };
}

export interface MergedRun {
  /** In request-index order. */
  outputs: RequestOutput[];
  duration: number;
  client: ClientStats;
}

/** One run from its shards; startEpochMs is the run's time zero shared by every shard. */
export function mergeShards(reports: readonly ShardReport[], startEpochMs: number): MergedRun {
  const byIndex = new Map<number, RequestOutput>();
  for (const r of reports) {
    for (const [i, o] of r.outputs) {
      if (byIndex.has(i)) throw new Error(`request ${i} was reported by two client threads`);
      byIndex.set(i, o);
    }
  }
  const end = Math.max(startEpochMs, ...reports.map((r) => r.endEpochMs));
  return {
    outputs: [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, o]) => o),
    duration: (end - startEpochMs) / 1000,
    client: mergeClientStats(reports.map((r) => r.client)),
  };
}

/**
 * The live view of a sharded run. Counts, TTFT, TPOT and ITL come from the coordinator's tracker
 * (fed by the shards' request events, so percentiles are over all requests); the token rates of
 * the last window only exist per shard (tokens are not forwarded), so they are summed.
 */
export function mergeSnapshot(base: LiveSnapshot, latestPerShard: readonly (LiveSnapshot | undefined)[]): LiveSnapshot {
  const got = latestPerShard.filter((s): s is LiveSnapshot => s !== undefined);
  return {
    ...base,
    outputTokPerS: got.reduce((a, s) => a + s.outputTokPerS, 0),
    totalTokPerS: got.reduce((a, s) => a + s.totalTokPerS, 0),
    clientBound: base.clientBound || got.some((s) => s.clientBound),
  };
}
