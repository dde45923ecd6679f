// Messages between runBenchmarkIsolated (src/bench/workers/isolated.ts) and its worker (worker.ts).
// Everything here crosses postMessage, so it is structured-clone data: no functions, no signals.
import { isUserError, UserError } from '../../core/errors.js';
import type { LogLevel } from '../../core/logger.js';
import type { RunOptions } from '../load/run-options.js';
import type { BenchEvent, BenchResult } from '../types.js';

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

/** Any thrown value as data that crosses to the parent (UserError keeps its exit code). */
export function workerError(e: unknown): WorkerError {
  const err = e instanceof Error ? e : new Error(String(e));
  return {
    name: err.name,
    message: err.message,
    ...(isUserError(err) ? { code: err.code } : {}),
    ...(err.stack ? { stack: err.stack } : {}),
  };
}

/** The worker's error as the same kind, message and exit code on the parent's side. */
export function rebuildError(e: WorkerError): Error {
  if (e.name === 'UserError') return new UserError(e.message, e.code);
  const err = new Error(e.message);
  err.name = e.name;
  if (e.stack) err.stack = e.stack;
  return err;
}
