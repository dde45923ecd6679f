// The one way the front end goes on screen: Ink's render with the project's options, and, for an
// app that owns servers, the signal wiring. Ink's own Ctrl+C exit is off (exitOnCtrlC: false):
// the app's Ctrl+C stops its session, and so its server, before it exits. SIGTERM/SIGHUP (or a
// SIGINT sent with kill) abort the app the same way; the host's signal handler then stops anything
// still registered and exits 128+n.
import type { ReactElement } from 'react';
import { render, type Instance } from 'ink';
import { installSignalHandlers } from '../host/signals.js';

/** How long a signal waits for the session to stop its server and journal before forcing it. */
export const SIGNAL_GRACE_MS = 20_000;

export interface MountOptions {
  /** Leave console.* alone (a view that is only redrawn from outside, e.g. the sweep chart). */
  patchConsole?: boolean;
}

export function mount(tree: ReactElement, opts: MountOptions = {}): Instance {
  // At most 10 redraws a second (the session hook batches events to about 7). Ink 6.8's
  // incrementalRendering leaves stale lines behind in tmux, so whole frames are redrawn.
  return render(tree, { exitOnCtrlC: false, maxFps: 10, ...(opts.patchConsole === false ? { patchConsole: false } : {}) });
}

export interface AppMountOptions {
  /** What must settle before the screen goes (the running session, which stops its servers). */
  settled?: () => Promise<unknown> | null;
  graceMs?: number;
  /** Runs once the screen is gone, on every way out (a signal included): words for the shell. */
  afterUnmount?: () => Promise<void> | void;
}

/**
 * Mount the app `build` makes until it exits. A signal aborts the signal the app was given (it
 * quits as on Ctrl+C), waits up to the grace for its session and its exit, then unmounts.
 */
export async function mountApp(build: (externalAbort: AbortSignal) => ReactElement, opts: AppMountOptions = {}): Promise<void> {
  const external = new AbortController();
  const instance = mount(build(external.signal));
  const uninstall = installSignalHandlers({
    async onSignal() {
      external.abort();
      const grace = new Promise((r) => setTimeout(r, opts.graceMs ?? SIGNAL_GRACE_MS).unref());
      await Promise.race([Promise.allSettled([opts.settled?.() ?? Promise.resolve(), instance.waitUntilExit()]), grace]);
      instance.unmount();
      await after();
    },
  });
  let said = false;
  const after = async () => {
    if (said) return;
    said = true;
    await opts.afterUnmount?.();
  };
  try {
    await instance.waitUntilExit();
  } finally {
    uninstall();
  }
  await after();
}
