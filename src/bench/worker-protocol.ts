// Messages between runBenchmarkIsolated (src/bench/isolated.ts) and its worker (worker.ts).
// Everything here crosses postMessage, so it is structured-clone data: no functions, no signals.
import type { LogLevel } from '../core/logger.js';
import type { RunOptions } from './run.js';
import type { BenchEvent, BenchResult } from './types.js';

/** The run's options as data: the caller keeps its signal and listener; a function cannot cross. */
export type IsolatedRunData = Omit<RunOptions, 'signal' | 'onEvent' | 'countOutputTokens'>;

export interface WorkerInput {
  opts: IsolatedRunData;
  /** The caller listens: the worker keeps the live view and sends its events. */
  wantEvents: boolean;
  /** The caller's signal had already fired before the worker started. */
  aborted: boolean;
}

/** Parent to worker. */
export type ToWorker = { type: 'abort' };

export interface WorkerError {
  name: string;
  message: string;
  /** UserError's exit code. */
  code?: number;
  stack?: string;
}

/** Worker to parent. */
export type FromWorker =
  | { type: 'events'; events: BenchEvent[] }
  | { type: 'log'; level: LogLevel; message: string }
  | { type: 'result'; result: BenchResult }
  | { type: 'error'; error: WorkerError };
