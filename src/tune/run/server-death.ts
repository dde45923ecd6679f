// An engine server that dies while servelab measures it is the cause of whatever failed after:
// the benchmark's "response stream error: aborted" or "all 1 warm-up requests failed" are only
// symptoms. These helpers turn the death into the variant's failure: kind `crash` (or what the
// adapter recognises in the log, e.g. an OOM) with the exit code or signal and the log tail.
//
//   serverDied(handle, phase, classify, waitMs?) -> Promise<Failure | null>
//     null when the server is still running (after up to waitMs for an exit in flight).
import type { Failure } from '../../core/events.js';
import type { ExitInfo } from '../../host/launch-spec.js';
import type { ServerHandle } from '../../host/server-handle.js';

export type DeathPhase = 'warm-up' | 'benchmark' | 'between validation scenarios';

const phaseText = (p: DeathPhase) => (p === 'between validation scenarios' ? p : `during ${p}`);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The phase a failed benchmark call was in, from its error text (src/bench names warm-up failures). */
export function benchPhase(message: string, hadWarmups: boolean): DeathPhase {
  return hadWarmups && /warm-?up/i.test(message) ? 'warm-up' : 'benchmark';
}

/**
 * The server's death as a failure, or null when it lives. A request stream breaks a moment before
 * the exit is reaped, hence the short wait.
 */
export async function serverDied(
  handle: Pick<ServerHandle, 'exit' | 'exited' | 'tail'>,
  phase: DeathPhase,
  classify: (lines: string[], exit: ExitInfo) => Failure,
  waitMs = 1500,
): Promise<Failure | null> {
  const exit = handle.exit ?? (await Promise.race([handle.exited, sleep(waitMs).then(() => undefined)]));
  if (!exit) return null;
  const tail = handle.tail(8);
  const f = classify(handle.tail(), exit);
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  if (f.kind !== 'crash') return { ...f, reason: `the server died ${phaseText(phase)}: ${f.reason}` };
  return {
    kind: 'crash',
    reason: `the server ${how} ${phaseText(phase)}${f.reason.includes(':') ? f.reason.slice(f.reason.indexOf(':')) : ''}`,
    hint: f.hint ?? 'Read the log in the run folder for the root cause.',
    evidence: tail,
  };
}
