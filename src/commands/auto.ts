// `servelab --auto`: the tuning session without a screen. Progress lines on stderr, the final
// summary on stdout (or one JSON event per line with --json). Ctrl-C, SIGTERM and SIGHUP stop
// the current server, record the partial state in the journal and exit 128+n.
import { join } from 'node:path';
import { openSettings } from '../core/settings.js';
import type { TuneEvent } from '../core/events.js';
import { applyToView, emptyView } from '../core/view.js';
import { installSignalHandlers } from '../host/signals.js';
import { parseAutoArgs } from '../cli/auto-args.js';
import { AUTO_USAGE } from '../cli/usage.js';
import type { SessionConfig } from '../tune/config/config.js';
import { realPlanDeps } from '../tune/plan/deps.js';
import { estimateHostFor, planTimes } from '../tune/plan/estimate-time.js';
import { planSession, readRunConfig, runSession, type SessionOutcome } from '../tune/session/session.js';
import { interruptedText, progressLine, summaryText } from '../cli/text.js';
import { planText } from '../cli/text-plan.js';
import { logToStderr } from './log-sink.js';

/** The dry run: the plan with every command and the time column the Plan screen shows. */
async function dryRun(config: SessionConfig, json: boolean): Promise<number> {
  const { plan, host } = await planSession(config);
  const deps = realPlanDeps(config, host, config.runDir ?? join(config.runsDir, 'RUN'));
  const times = planTimes(plan, estimateHostFor(config, plan), (v, s) => deps.predict(v, s));
  process.stdout.write((json ? JSON.stringify({ type: 'plan-ready', plan, times }) : planText(plan, config, times)) + '\n');
  return 0;
}

export default async function main(argv: string[]): Promise<number> {
  const settings = openSettings();
  const opts = parseAutoArgs(argv, settings.all());
  if (opts.help) {
    process.stdout.write(AUTO_USAGE + '\n');
    return 0;
  }
  const err = (line: string) => process.stderr.write(line + '\n');
  // A reader that goes away (`--json | head`) must not crash the run: the servers still need stopping.
  process.stdout.on('error', () => {});
  logToStderr();
  const config = opts.resume ? readRunConfig(opts.resume) : opts.config!;

  if (opts.dryRun) return dryRun(config, !!opts.json);

  if (!opts.resume) settings.addRecentModel(config.model);
  // The summary is printed from the projection of the stream, as the TUI and `servelab view` show it.
  let view = emptyView();
  const onEvent = (e: TuneEvent) => {
    view = applyToView(view, e);
    if (opts.json) process.stdout.write(JSON.stringify(e) + '\n');
    const line = progressLine(e);
    if (line !== null) err(line);
  };
  const ac = new AbortController();
  let session: Promise<SessionOutcome> | undefined;
  const uninstall = installSignalHandlers({
    graceMs: config.sim ? 3000 : 15_000,
    onSignal: async (sig) => {
      err(`\n${sig}: stopping the current server and recording the run...`);
      ac.abort(sig);
      const o = await session?.catch((e: unknown) => {
        err(`error while stopping: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
      if (o) err(interruptedText(o.runDir));
    },
  });
  try {
    session = runSession(config, { onEvent, signal: ac.signal, resume: !!opts.resume });
    const outcome = await session;
    if (!opts.json && !outcome.interrupted) process.stdout.write(summaryText(view, config) + '\n');
    return outcome.exitCode;
  } finally {
    // An interrupt exits from the signal handler once the session has stopped; otherwise leave normally.
    if (!ac.signal.aborted) uninstall();
  }
}
