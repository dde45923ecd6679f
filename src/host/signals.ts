// Ctrl-C, SIGTERM and SIGHUP to servelab stop every server it started before it exits, with the
// conventional exit codes (130 for SIGINT, 128+n otherwise). A second signal while stopping
// SIGKILLs the groups at once. An exit hook SIGKILLs whatever is left if servelab exits another way.
//
//   installSignalHandlers({ graceMs?, onSignal?, exit? }) -> uninstall()
import os from 'node:os';
import { killAllServersNow, stopAllServers } from './registry.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function exitCodeFor(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 0);
}

export interface SignalOptions {
  graceMs?: number;
  /** Told first (e.g. to print "stopping servers..." or flush a journal). */
  onSignal?: (signal: NodeJS.Signals) => void | Promise<void>;
  /** Defaults to process.exit. */
  exit?: (code: number) => void;
}

let installed: (() => void) | undefined;

export function installSignalHandlers(opts: SignalOptions = {}): () => void {
  installed?.();
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      killAllServersNow();
      exit(exitCodeFor(signal));
      return;
    }
    stopping = true;
    void (async () => {
      try {
        await opts.onSignal?.(signal);
      } catch {
        // Stopping servers matters more than the callback.
      }
      await stopAllServers({ graceMs: opts.graceMs });
      exit(exitCodeFor(signal));
    })();
  };
  const onExit = () => killAllServersNow();
  for (const s of SIGNALS) process.on(s, handler);
  process.on('exit', onExit);
  const uninstall = () => {
    for (const s of SIGNALS) process.off(s, handler);
    process.off('exit', onExit);
    if (installed === uninstall) installed = undefined;
  };
  installed = uninstall;
  return uninstall;
}
