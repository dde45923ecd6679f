// Every server servelab started and has not yet seen gone. Signal handlers and the exit hook stop
// exactly these, never anything found by name.
export interface Stoppable {
  pid: number;
  stop(opts?: { graceMs?: number }): Promise<unknown>;
  /** SIGKILL the group now (the exit hook cannot wait). */
  killNow(): void;
}

const live = new Set<Stoppable>();

export function register(s: Stoppable): void {
  live.add(s);
}

export function unregister(s: Stoppable): void {
  live.delete(s);
}

export function liveServers(): Stoppable[] {
  return [...live];
}

/** Stop every server still running (SIGTERM, grace, SIGKILL), in parallel. */
export async function stopAllServers(opts: { graceMs?: number } = {}): Promise<void> {
  await Promise.allSettled([...live].map((s) => s.stop(opts)));
}

/** Synchronous last resort: SIGKILL every live group. */
export function killAllServersNow(): void {
  for (const s of live) s.killNow();
}
