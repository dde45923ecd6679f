// `servelab sweep PROFILE`: bring a profile's server back (replay's preparation and consent),
// sweep its load on one launch, print the frontier table, the SLO choice and a chart, and save
// the sweep into the profile with an SVG chart beside its report.
// Exit: 0 a choice was made, 1 nothing measured or nothing met the SLO, 2 bad input, 130 interrupted.
import { join, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { optionalNumberArg } from '../core/number-arg.js';
import type { TuneEvent } from '../core/events.js';
import { installSignalHandlers } from '../host/signals.js';
import { formatCommand } from '../core/shell-quote.js';
import { prepareReplay, type ReplayOptions, type ReplaySetup } from '../tune/replay/replay.js';
import type { Profile } from '../profiles/schema/profile.js';
import { loadProfile } from '../profiles/store/store.js';
import { DEFAULT_READY_TIMEOUT_S, DEFAULT_SIM_READY_TIMEOUT_S, DEFAULT_SIM_SPEED } from '../tune/config/config.js';
import { defaultRunDir, Journal } from '../tune/context/journal.js';
import { formatSlo } from '../core/slo.js';
import { parseSlo } from '../core/slo-rule.js';
import { analyseSweeps, chartSeries, formatTable, frontierNotes, sweepTable, type SweepAnalysis } from '../sweep/analyse.js';
import { renderChart } from '../sweep/chart-text.js';
import { runProfileSweep, saveSweep, variantName, type SweepJobConfig } from '../tune/replay/sweep-profile.js';
import type { SweepPoint, VariantSweep } from '../sweep/types.js';
import { formatSweep, loadLabel, parseSweep } from '../sweep/spec.js';
import { parseSweepArgs } from '../cli/sweep-args.js';
import { askConsent } from './consent.js';
import type { LiveView } from '../tui/live-sweep.js';
import { sweepDevices } from '../sweep/record.js';
import { PROFILE_PORT } from '../host/ports.js';

const DEFAULT_SWEEP = 'concurrency:1,4,16,64,256';

function num(flag: string, text: string | undefined, fallback: number, min: number, int = false): number {
  return optionalNumberArg(flag, text, { min, integer: int }) ?? fallback;
}

function pointLine(label: string, p: SweepPoint): string {
  const m = p.metrics as Record<string, number> | undefined;
  const what =
    p.status !== 'ok' || !m
      ? `${p.status}: ${p.reason ?? ''}`
      : `${m.output_throughput.toFixed(0)} output tok/s, TPOT mean ${m.mean_tpot_ms.toFixed(1)} ms, TTFT p99 ${m.p99_ttft_ms.toFixed(0)} ms`;
  return `${label} at ${loadLabel(p.load)}: ${what}${p.violations.length ? ` (SLO broken: ${p.violations.join('; ')})` : ''}${p.resumed ? ' (from the journal)' : ''}`;
}

/** The journal: a new run folder, or the one to resume (whose settings win over the flags). */
function openJournal(
  file: string,
  v: { resume?: string; 'run-dir'?: string },
  job: SweepJobConfig,
  model: string,
  gpuTag: string,
): Journal<SweepJobConfig> {
  if (v.resume) {
    const j = Journal.open<SweepJobConfig>(resolve(v.resume));
    if (j.config.command !== 'sweep')
      throw new UserError(`--resume ${v.resume}: not a sweep run folder (use servelab --auto --resume for a tuning run)`);
    if (resolve(j.config.profile) !== resolve(file))
      throw new UserError(`--resume ${v.resume}: that sweep is of ${j.config.profile}, not ${file}`);
    // Infinity does not survive JSON: rate levels come back as null.
    j.config.spec.levels = j.config.spec.levels.map((l) => (l === null ? Infinity : l));
    return j;
  }
  const dir = v['run-dir'] ? resolve(v['run-dir']) : defaultRunDir(resolve('servelab-runs'), model, `sweep-${gpuTag}`);
  return Journal.create<SweepJobConfig>(dir, job);
}

export default async function main(argv: string[]): Promise<number> {
  const parsed = parseSweepArgs(argv);
  if (!parsed) return 0;
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) throw new UserError(`sweep needs one PROFILE file; run 'servelab sweep --help'`);
  if (v.resume && v['run-dir']) throw new UserError('give --resume DIR or --run-dir DIR, not both');
  const file = resolve(positionals[0]!);
  const spec = parseSweep(v.sweep ?? DEFAULT_SWEEP);
  const sim = v.sim === true;
  const opts: ReplayOptions = {
    sim,
    speed: num('--speed', v.speed, DEFAULT_SIM_SPEED, 0.001),
    autoSpeed: v.speed === undefined,
    tolerancePct: 0,
    ...(v['dataset-path'] ? { datasetPath: resolve(v['dataset-path']) } : {}),
    readyTimeoutS: num('--ready-timeout', v['ready-timeout'], sim ? DEFAULT_SIM_READY_TIMEOUT_S : DEFAULT_READY_TIMEOUT_S, 1),
    logsDir: '',
    bindHost: '127.0.0.1',
    portStart: num('--port', v.port, PROFILE_PORT, 1024, true),
    allowAnyCommand: v['allow-any-command'] === true,
  };
  const prompts = v.prompts === undefined ? undefined : num('--prompts', v.prompts, 0, 1, true);
  const profile = loadProfile(file);
  const slo = v.slo !== undefined ? parseSlo(v.slo) : profile.slo;
  const job: SweepJobConfig = {
    command: 'sweep',
    profile: file,
    spec,
    slo,
    sweepAll: v['sweep-all'] === true,
    ...(prompts ? { prompts } : {}),
  };
  const journal = openJournal(file, v, job, profile.model, `${profile.host.gpuName}x${profile.host.gpuCount}`);
  opts.logsDir = journal.logsDir();
  const setup = await prepareReplay(profile, file, opts);
  const cfg = journal.config;
  process.stderr.write(
    [
      `profile   ${file}`,
      `model     ${profile.model} (serving ${profile.variant.model}) on ${setup.current.gpuCount} x ${setup.current.gpuName}${setup.host.simulated ? ' (simulated)' : ''}`,
      `sweep     ${formatSweep(cfg.spec)} on ${setup.scenario.label}${cfg.sweepAll ? ', every level' : ', until a point breaks the SLO'}`,
      `slo       ${cfg.slo.length ? formatSlo(cfg.slo) : 'none (the choice is the most tok/s/GPU)'}`,
      ...setup.differences.map((d) => `differs   ${d}`),
      ...(cfg.prompts && cfg.prompts < Math.max(...cfg.spec.levels)
        ? [`note      --prompts ${cfg.prompts} is below the highest concurrency: those points never reach their load`]
        : []),
      `run dir   ${journal.dir}${v.resume ? ' (resumed)' : ''}`,
      `will run  ${formatCommand(setup.spec.argv, setup.spec.env)}`,
    ].join('\n') + '\n',
  );
  if (!(await askConsent({ yes: v.yes === true, auto: v.auto === true, what: `sweep ${file}` }))) {
    process.stderr.write('servelab: not run\n');
    journal.update({ status: 'failed', exitCode: 1 });
    return 1;
  }
  return runAndReport(file, profile, setup, journal, {
    live: !v.auto && process.stdout.isTTY === true,
    out: v.out ? resolve(v.out) : undefined,
    readyTimeoutS: opts.readyTimeoutS,
    sim,
  });
}

async function runAndReport(
  file: string,
  profile: Profile,
  setup: ReplaySetup,
  journal: Journal<SweepJobConfig>,
  o: { live: boolean; out?: string; readyTimeoutS: number; sim: boolean },
): Promise<number> {
  const label = variantName(profile);
  const live: LiveView | null = o.live
    ? (await import('../tui/live-sweep.js')).mountLiveSweep(`sweep ${formatSweep(journal.config.spec)}: ${label}`)
    : null;
  // On screen the status shows the step now and the last point measured.
  let last = '';
  const say = (line: string) => (live ? live.update(last ? `${line} | last: ${last}` : line) : process.stderr.write(line + '\n'));
  const partial: VariantSweep = { variantId: profile.variant.id, label, points: [] };
  const controller = new AbortController();
  const uninstall = installSignalHandlers({
    onSignal: (signal) => {
      say(`servelab: ${signal}: stopping the server; finished points stay in ${journal.dir} (--resume)`);
      journal.update({ status: 'interrupted', signal });
      controller.abort();
    },
  });
  let result;
  try {
    result = await runProfileSweep(setup, {
      journal,
      readyTimeoutS: o.readyTimeoutS,
      bindHost: '127.0.0.1',
      sim: o.sim,
      signal: controller.signal,
      emit: (e: TuneEvent) => {
        if (e.type === 'bench-started') say(`benchmarking ${e.numPrompts} prompts (${e.scenario})`);
        else if (e.type === 'server-ready') say(`server ready after ${e.startupS.toFixed(1)} s`);
      },
      onPoint: (_id, p) => {
        partial.points.push(p);
        const line = pointLine(label, p);
        if (live) {
          last = line;
          live.update(
            line,
            chartSeries([partial], analyseSweeps([partial], sweepDevices(profile.host.gpuCount), journal.config.slo)).series,
          );
        } else say(line);
      },
    });
  } finally {
    uninstall();
    live?.close();
  }
  const { sweep, analysis } = result;
  const saved = saveSweep(
    file,
    profile,
    { setup, sweep, analysis, job: journal.config },
    { ...(o.out ? { out: o.out } : {}), fallback: journal.dir },
  );
  printResult(sweep, analysis, o.live);
  process.stdout.write(
    `profile: ${saved.profile}${saved.copy ? ` (${file} is not rewritten)` : ''}\nreport:  ${saved.report}\nchart:   ${saved.chart}\n`,
  );
  const code = analysis.choice ? 0 : 1;
  journal.update({ status: 'finished', exitCode: code, profilePath: saved.profile, reportPath: saved.report, current: null });
  return code;
}

function printResult(sweep: VariantSweep, a: SweepAnalysis, tty: boolean): void {
  const t = sweepTable([sweep], a, true);
  const out: string[] = [];
  if (!tty) {
    const width = Math.max(60, Math.min(process.stdout.columns || 80, 160));
    out.push(...renderChart(chartSeries([sweep], a).series, width, 20), '');
  }
  out.push(formatTable(t.head, t.rows), '');
  for (const n of frontierNotes(a)) out.push(n);
  if (sweep.stopped) out.push(`stopped: ${sweep.stopped}`);
  out.push(a.choice ? `choice: ${a.choice.sentence} (${a.choice.why})` : `choice: none: ${a.noChoice}`);
  process.stdout.write(out.join('\n') + '\n');
}
