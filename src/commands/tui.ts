// `servelab` with no sub-command on a terminal: the Ink workbench, mounted with the front end's
// one mount (src/tui/mount.ts: render options, Ctrl+C and signals stop the session first).
import React from 'react';
import { App } from '../screens/app.js';
import { openSettings } from '../core/settings.js';
import { mountApp } from '../tui/mount.js';
import type { SessionOutcome } from '../tune/session/session.js';
import { interruptedText } from '../cli/text.js';
import { realServices } from '../tui/services/workbench.js';
import { parseTuiFlags } from '../cli/auto-args.js';

const USAGE = `Usage: servelab [options]

The workbench: host, model and workload, plan, run, results, save, step by step.
It takes the flags of 'servelab --auto' (see 'servelab --auto --help'); those the screens ask
for (--model, --scenario, --num-prompts, --dataset-path, --objective, --slo, --gpu, --gpus)
become the screens' defaults (--scale sizes Prompts as --auto does: 1000 x scale, else 200).
Without an NVIDIA or AMD GPU it runs on the simulated host.
Keys are shown at the bottom of every screen; Ctrl+C stops the running server and exits.`;

export default async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const flags = parseTuiFlags(argv); // bad flags fail here, before the settings store is opened
  const { services, defaults, activeSession } = realServices({ flags, settings: openSettings() });
  let exitCode = 0;
  const onExit = (code: number) => {
    exitCode = code;
  };
  await mountApp((externalAbort) => React.createElement(App, { services, defaults, onExit, externalAbort }), {
    settled: activeSession,
    afterUnmount: () => resumeHint(activeSession()),
  });
  return exitCode;
}

/** An interrupted run says where its finished variants are and how to continue, as `--auto` does. */
export async function resumeHint(
  session: Promise<unknown> | null,
  write: (s: string) => unknown = (s) => process.stderr.write(s),
): Promise<void> {
  // The session has settled by now on every way out but a signal whose grace ran out: then say nothing.
  const late = new Promise<null>((r) => setTimeout(() => r(null), 1000).unref());
  const o = (session ? await Promise.race([session.catch(() => null), late]) : null) as Partial<SessionOutcome> | null;
  if (o?.interrupted && o.runDir) write(interruptedText(o.runDir) + '\n');
}
