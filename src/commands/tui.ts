// `servelab` with no sub-command on a terminal: the Ink workbench. Ink's own Ctrl+C exit is off
// (exitOnCtrlC: false): the app's Ctrl+C stops the session, and so its server, before it exits.
// SIGTERM/SIGHUP (or a SIGINT sent with kill) go the same way, and the host's signal handler
// then stops anything still registered and exits 128+n.
import React from 'react';
import { render } from 'ink';
import { App } from '../app.js';
import { openSettings } from '../core/settings.js';
import { installSignalHandlers } from '../host/signals.js';
import { parseTuiFlags, realServices } from '../tune/workbench.js';

const USAGE = `Usage: servelab [options]

The workbench: host, model and workload, plan, run, results, save, step by step.
It takes the flags of 'servelab --auto' (see 'servelab --auto --help'); those the screens ask
for (--model, --scenario, --num-prompts, --dataset-path, --objective, --slo, --gpu, --gpus)
become the screens' defaults. Without an NVIDIA GPU it runs on the simulated host.
Keys are shown at the bottom of every screen; Ctrl+C stops the running server and exits.`;

/** How long a signal waits for the session to stop its server and journal before forcing it. */
const SIGNAL_GRACE_MS = 20_000;

export default async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  parseTuiFlags(argv); // bad flags fail here, before the settings store is opened
  const { services, defaults, activeSession } = realServices({ argv, settings: openSettings() });
  const external = new AbortController();
  let exitCode = 0;
  const instance = render(
    React.createElement(App, {
      services,
      defaults,
      onExit: (code: number) => {
        exitCode = code;
      },
      externalAbort: external.signal,
    }),
    // At most 10 redraws a second (the session hook batches events to about 7). Ink 6.8's
    // incrementalRendering leaves stale lines behind in tmux, so whole frames are redrawn.
    { exitOnCtrlC: false, maxFps: 10 },
  );
  const uninstall = installSignalHandlers({
    async onSignal() {
      external.abort();
      const session = activeSession();
      const grace = new Promise((r) => setTimeout(r, SIGNAL_GRACE_MS).unref());
      await Promise.race([Promise.allSettled([session ?? Promise.resolve(), instance.waitUntilExit()]), grace]);
      instance.unmount();
    },
  });
  try {
    await instance.waitUntilExit();
  } finally {
    uninstall();
  }
  return exitCode;
}
