// `conf` writes through `atomically`, whose `when-exit` dependency hooks every termination
// signal when it is imported and re-raises it on the process after its cleanup. That defeats a
// graceful stop: servelab's own SIGINT/SIGTERM/SIGHUP handler (stop the server, journal, exit
// 128+n) sees a second signal 15 ms later and kills everything at once. This module is imported
// just before conf: it remembers which signal listeners existed, so settings.ts can remove the
// ones conf's import added. when-exit's 'exit' hook (temp-file cleanup) is kept.
import os from 'node:os';

const SIGNALS = Object.keys(os.constants.signals).filter((s) => s !== 'SIGKILL' && s !== 'SIGSTOP') as NodeJS.Signals[];

const before = new Map<NodeJS.Signals, Set<(...args: unknown[]) => void>>(
  SIGNALS.map((s) => [s, new Set(process.listeners(s) as ((...args: unknown[]) => void)[])]),
);

/** Remove signal listeners added since this module was evaluated (i.e. by conf's import). */
export function dropSignalHooksAddedByConf(): void {
  for (const s of SIGNALS) {
    const had = before.get(s)!;
    for (const l of process.listeners(s) as ((...args: unknown[]) => void)[]) {
      if (!had.has(l)) process.removeListener(s, l);
    }
  }
}
