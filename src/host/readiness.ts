// Deciding, step by step, whether a starting server is ready: the HTTP health probe, and the
// checks that end the wait early (a fatal log line, a death, a stop, the time-out).
import { urlHost } from '../core/dial.js';
import type { LaunchSpec } from './launch-spec.js';

/** What the wait does next: give up for one of four reasons, or probe /health again. */
export type ReadyStep = 'fatal-hang' | 'died' | 'aborted' | 'timed-out' | 'probe';

export interface ReadyState {
  now: number;
  deadline: number;
  /** When the first fatal start-up line arrived, if one did. */
  fatalAt: number | undefined;
  fatalGraceMs: number;
  exited: boolean;
  /** Someone asked for the stop (caller, abort signal, time-out), as opposed to our cleanup after a death. */
  stopRequested: boolean;
  aborted: boolean;
}

/** The next step of the wait; the order matters (a proven failure wins over a stop or the time-out). */
export function readyStep(s: ReadyState): ReadyStep {
  // The log already proves the failure and the process has not died on its own: a hang.
  if (s.fatalAt !== undefined && !s.exited && s.now - s.fatalAt >= s.fatalGraceMs) return 'fatal-hang';
  if (s.exited && !s.stopRequested) return 'died';
  if (s.aborted || s.stopRequested) return 'aborted';
  if (s.now >= s.deadline) return 'timed-out';
  return 'probe';
}

export function healthUrl(spec: Pick<LaunchSpec, 'host' | 'port' | 'healthPath'>): string {
  return `http://${urlHost(spec.host)}:${spec.port}${spec.healthPath}`;
}

/** True when the URL answers 200 within 2 s (SGLang answers 503 while it warms up). */
export async function probeHealth(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer().catch(() => undefined);
    return res.status === 200;
  } catch {
    return false;
  }
}
