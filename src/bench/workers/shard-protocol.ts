// Messages between the sharded client's coordinator (sharded.ts) and its shard workers
// (shard-worker.ts). Structured-clone data only.
import type { LogLevel } from '../../core/logger.js';
import type { ShardReport } from './merge.js';
import type { CheckedRun } from '../load/run-options.js';
import type { BenchEvent, SampledRequest } from '../types.js';
import type { WorkerError } from './worker-protocol.js';

export interface ShardInput {
  /** Module the boot file imports (worker-boot.mjs). */
  entry: './shard-worker.ts';
  run: CheckedRun;
  requests: SampledRequest[];
  /** This shard's request indices (in the whole run), ascending. */
  indices: number[];
  /** The whole run's arrival schedule (seconds after the start). */
  delays: number[];
  /** Warm-ups this shard sends, and the id of its first one. */
  warmups: number;
  firstWarmupId: number;
  /** The run's warm-up requests (RunOptions.warmupRequests); absent: copies of the first. */
  warmupRequests?: SampledRequest[];
  /** The run's shared concurrency cap; none when the run has no cap. */
  gate?: SharedArrayBuffer;
  wantEvents: boolean;
  /** The coordinator recounts responses without a usage report (its own token counter). */
  recount: boolean;
  snapshotIntervalMs: number;
  aborted: boolean;
}

/** Coordinator to shard. */
export type ToShard = { type: 'go'; startEpochMs: number } | { type: 'abort' };

/** Shard to coordinator. */
export type FromShard =
  | { type: 'ready'; warmups: { success: boolean; error: string }[] }
  | { type: 'events'; events: BenchEvent[] }
  | { type: 'log'; level: LogLevel; message: string }
  | { type: 'done'; report: ShardReport }
  | { type: 'error'; error: WorkerError };
