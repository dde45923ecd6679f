// `servelab replay PROFILE --sweep`, the printing part: the setup and consent as a plain replay,
// one line per point, then recorded vs now and the verdict (text, or one JSON object with --json).
// Headless always: the sweep's live chart belongs to `servelab sweep`.
import { UserError } from '../core/errors.js';
import type { TuneEvent } from '../core/events.js';
import { installSignalHandlers } from '../host/signals.js';
import { formatSweep, loadLabel } from '../sweep/spec.js';
import { Journal } from '../tune/context/journal.js';
import { type ReplayOptions, type ReplaySetup } from '../tune/replay/replay.js';
import { executeSweepReplay, planSweepReplay, type SweepReplayOutcome } from '../tune/replay/replay-sweep.js';
import type { SweepJobConfig } from '../tune/replay/sweep-profile.js';
import type { SweepPoint } from '../sweep/types.js';
import { askConsent } from './consent.js';
import { describeSetup } from './replay-text.js';

function pointLine(p: SweepPoint): string {
  const m = p.metrics as Record<string, number> | undefined;
  const what =
    p.status !== 'ok' || !m
      ? `${p.status}${p.reason ? `: ${p.reason}` : ''}`
      : `${m.output_throughput.toFixed(0)} output tok/s, TPOT mean ${m.mean_tpot_ms.toFixed(1)} ms`;
  return `  at ${loadLabel(p.load)}: ${what}${p.violations.length ? ` (SLO broken: ${p.violations.join('; ')})` : ''}`;
}

function outcomeText(o: SweepReplayOutcome, tolerancePct: number, runDir: string): string {
  const c = o.comparison;
  const delta = c.deltaPct === null ? '' : ` (${c.deltaPct >= 0 ? '+' : ''}${c.deltaPct.toFixed(1)}%, tolerance ${tolerancePct}%)`;
  return [...c.reasons.map((r) => `  ${r}`), `verdict: ${c.verdict}${delta}`, `run folder: ${runDir}`].join('\n') + '\n';
}

export async function replaySweepHeadless(
  setup: ReplaySetup,
  opts: ReplayOptions,
  v: { json?: boolean; yes?: boolean; auto?: boolean },
  file: string,
): Promise<number> {
  const plan = planSweepReplay(setup, file);
  if (opts.tolerancePct <= 0) throw new UserError('--tolerance must be above 0 for --sweep (the margin the frontier may move down by)');
  process.stderr.write(
    `${describeSetup(setup)}\nsweep     ${formatSweep(plan.job.spec)} as recorded ${plan.record.at.slice(0, 10)}${plan.job.slo.length ? `, compared at the SLO ${plan.record.slo}` : ', compared load by load'}\n`,
  );
  if (!(await askConsent({ yes: v.yes === true, auto: v.auto === true, what: `replay --sweep ${file}` }))) {
    process.stderr.write('servelab: not run\n');
    return 1;
  }
  const journal = Journal.create<SweepJobConfig>(opts.logsDir, plan.job);
  const controller = new AbortController();
  const uninstall = installSignalHandlers({
    onSignal: (signal) => {
      process.stderr.write(`servelab: ${signal}: stopping the server\n`);
      controller.abort();
    },
  });
  const say = (line: string) => (v.json ? undefined : process.stderr.write(line + '\n'));
  let outcome: SweepReplayOutcome;
  try {
    outcome = await executeSweepReplay(setup, plan, {
      journal,
      readyTimeoutS: opts.readyTimeoutS,
      sim: opts.sim,
      tolerancePct: opts.tolerancePct,
      signal: controller.signal,
      emit: (e: TuneEvent) => (e.type === 'server-ready' ? say(`server ready after ${e.startupS.toFixed(1)} s`) : undefined),
      onPoint: (_id, p) => say(pointLine(p)),
    });
  } finally {
    uninstall();
  }
  journal.update({ status: 'finished', exitCode: outcome.exitCode, current: null });
  const c = outcome.comparison;
  process.stdout.write(
    v.json
      ? JSON.stringify({
          profile: file,
          verdict: c.verdict,
          deltaPct: c.deltaPct,
          reasons: c.reasons,
          exitCode: outcome.exitCode,
          runDir: journal.dir,
        }) + '\n'
      : outcomeText(outcome, opts.tolerancePct, journal.dir),
  );
  return outcome.exitCode;
}
