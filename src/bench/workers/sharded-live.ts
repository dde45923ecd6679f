// The coordinator's live view of a sharded run: one LiveTracker fed by the shards' request
// events (so TTFT/TPOT/ITL percentiles are over all requests), token rates summed from the
// shards' own snapshots (per-token events are not forwarded). See mergeSnapshot.
import { LiveTracker } from '../metrics/live.js';
import { mergeSnapshot } from './merge.js';
import type { BenchEvent, SampledRequest } from '../types.js';
import type { LiveSnapshot } from '../../core/metrics.js';

export class ShardedLive {
  private readonly live: LiveTracker;
  private readonly latest: (LiveSnapshot | undefined)[];

  constructor(
    private readonly requests: readonly SampledRequest[],
    shards: number,
  ) {
    this.live = new LiveTracker(requests.length);
    this.latest = new Array<LiveSnapshot | undefined>(shards).fill(undefined);
  }

  /** Takes one shard event; returns it when the caller should forward it (snapshots are merged instead). */
  take(shard: number, e: BenchEvent): BenchEvent | undefined {
    const live = this.live;
    switch (e.type) {
      case 'snapshot':
        this.latest[shard] = e.snapshot;
        return undefined;
      case 'request-started':
        live.running++;
        break;
      case 'first-token':
        live.firstToken(e.t, e.ttft, this.requests[e.index]?.promptLen ?? 0);
        break;
      case 'request-finished':
        live.running--;
        live.finished(e.output);
        for (const gap of e.output.itl) live.itl(gap);
        break;
      case 'request-failed':
        live.running--;
        live.failed++;
        break;
      default:
        break;
    }
    return e;
  }

  /** The merged view at `elapsedS` seconds after the run's start. */
  snapshot(elapsedS: number, clientBound = false): LiveSnapshot {
    return mergeSnapshot(this.live.snapshot(elapsedS, elapsedS, clientBound), this.latest);
  }
}
