// --client-threads N|auto: how many worker threads the benchmark client shards its requests over
// (sharded.ts). auto = one per core the client may use (os.availableParallelism(), or the core
// budget a caller gives, e.g. a parallel-variant scheduler sharing the host between clients), never
// more than there are requests or concurrent slots (an idle thread only costs).
import os from 'node:os';
import { UserError } from '../../core/errors.js';

export type ClientThreadsSpec = number | 'auto';

export function parseClientThreads(v: string, flag = '--client-threads'): ClientThreadsSpec {
  if (v === 'auto') return 'auto';
  const n = Number(v);
  if (!(Number.isInteger(n) && n >= 1)) throw new UserError(`${flag} must be a positive integer or auto, got '${v}'`);
  return n;
}

export interface ThreadLimits {
  requests: number;
  maxConcurrency?: number | null;
  /** Cores the client may use (default: os.availableParallelism()). */
  cores?: number;
}

export function resolveClientThreads(spec: ClientThreadsSpec, l: ThreadLimits): number {
  const wanted = spec === 'auto' ? Math.max(1, Math.floor(l.cores ?? os.availableParallelism())) : spec;
  return Math.max(1, Math.min(wanted, l.requests, l.maxConcurrency ?? Infinity));
}
