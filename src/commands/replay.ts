// `servelab replay PROFILE [--sim] [--yes] [--auto] [--tolerance 5] [--json] ...`: bring a
// profile's server back, re-run its recorded workload and say whether it still performs.
// On a terminal without --auto, --json or --yes it runs in the replay screen (consent by key,
// live run, recorded vs now, verdict); otherwise headless, with lines or JSON. Both record the
// result and pick the exit code in one place (finish below).
// The result is appended to the profile's history, except that a study profile (or anything in
// servelab's own profiles/ folder) is reference data that is never written: its replays go to a
// copy in the user's profile folder (settings `profiles-dir`, else profiles/ beside the settings
// file), and the command says where.
// Exit: 0 ok or faster, 3 regression, 1 failed to start or not run, 2 bad input, 130 interrupted.
import { defaultRunsDir } from '../host/xdg.js';
import { join, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { setLogSink, type LogLevel, type LogSink } from '../core/logger.js';
import type { TuneEvent } from '../core/events.js';
import { openSettings } from '../core/settings.js';
import { exitCodeFor, installSignalHandlers } from '../host/signals.js';
import { DEFAULT_READY_TIMEOUT_S, DEFAULT_SIM_READY_TIMEOUT_S, DEFAULT_SIM_SPEED } from '../tune/config.js';
import { formatCommand } from '../profiles/command.js';
import { fmtPct, hardwareLine, workloadLine } from '../profiles/report.js';
import { recordReplay, userProfilesDir, type RecordedReplay } from '../profiles/history.js';
import { EXIT, executeReplay, prepareReplay, type ReplayOptions, type ReplayOutcome, type ReplaySetup } from '../profiles/replay.js';
import { loadProfile } from '../profiles/store.js';
import type { ReplayTuiInput, ReplayTuiResult } from '../ui/replayTui.js';
import type { MetricDelta, ReplayJudgement } from '../profiles/verdict.js';
import { askConsent } from './consent.js';
import { parseCommandArgs } from './args.js';

const USAGE = `usage: servelab replay PROFILE [--sim] [--speed S] [--yes] [--auto] [--tolerance PCT] [--json]
                       [--dataset-path FILE] [--port N] [--ready-timeout S] [--runs-dir DIR]
                       [--no-record] [--allow-any-command] [--allow-env NAME]...

On a terminal (without --auto, --json or --yes) the replay screen shows the command, asks, runs
it live and ends with recorded vs now. The result is appended to the profile's history; a study
profile (servelab's own profiles/) is never written: its replays go to a copy in your profile
folder (setting profiles-dir, else profiles/ beside the settings file). --no-record keeps nothing.
Exit: 0 ok or faster, 3 regression, 1 failed to start or not run, 2 bad input, 130 interrupted.`;

function num(flag: string, text: string | undefined, fallback: number, min = 0): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min) throw new UserError(`${flag} must be a number >= ${min}, got '${text}'`);
  return n;
}

function fmtValue(v: number | null, unit: string): string {
  if (v === null) return '–';
  return unit === 'ms' ? v.toFixed(2) : v.toFixed(2);
}

function deltaTable(deltas: MetricDelta[]): string {
  const rows = deltas.map((d) => [`${d.label}${d.unit === 'ms' ? ' (ms)' : ''}`, fmtValue(d.recorded, d.unit), fmtValue(d.now, d.unit), fmtPct(d.deltaPct)]);
  const head = ['metric', 'recorded', 'now', 'delta'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

function describeSetup(s: ReplaySetup): string {
  const p = s.profile;
  const lines = [
    `profile   ${s.file} (${p.source === 'study' ? 'published study' : 'servelab session'}, ${p.createdAt.slice(0, 10)})`,
    `model     ${p.model} (serving ${p.variant.model})`,
    `tuned on  ${hardwareLine(p)}${p.host.driver ? `, driver ${p.host.driver}` : ''}, ${p.engine.name} ${p.engine.version}`,
    `recorded  ${p.metrics.total_token_throughput.toFixed(2)} total tok/s, ${p.metrics.output_throughput.toFixed(2)} output tok/s on ${workloadLine(p.workload)}`,
    `command   ${formatCommand(p.engineArgv, p.env)}`,
    `here      ${hardwareLine({ host: s.current })}${s.current.driver ? `, driver ${s.current.driver}` : ''}${s.engineVersion ? `, ${p.engine.name} ${s.engineVersion}` : ''}`,
  ];
  if (s.differences.length) lines.push('differs   ' + s.differences.join('\n          '));
  else lines.push('differs   nothing');
  for (const n of s.notes) lines.push(`note      ${n}`);
  lines.push(`workload  ${s.scenario.label}: ${s.scenario.numPrompts} prompts${s.scenario.maxConcurrency ? `, max concurrency ${s.scenario.maxConcurrency}` : ', all at once'}`);
  lines.push(`will run  ${formatCommand(s.spec.argv, s.spec.env)}`);
  return lines.join('\n');
}

function progress(e: TuneEvent, write: (l: string) => void): void {
  switch (e.type) {
    case 'variant-launching':
      write(`launching on port ${e.port}`);
      break;
    case 'server-ready':
      write(`server ready after ${e.startupS.toFixed(1)} s`);
      break;
    case 'bench-started':
      write(`benchmarking ${e.numPrompts} prompts (${e.scenario})`);
      break;
    case 'server-stopping':
      write('stopping the server');
      break;
    default:
  }
}

/** How a core log message reads on the terminal; debug messages are not shown. */
function logLine(level: LogLevel, message: string): string | null {
  return level === 'debug' ? null : `servelab: ${level === 'info' ? '' : level + ': '}${message}`;
}

const toStderr: LogSink = (level, message) => {
  const line = logLine(level, message);
  if (line) process.stderr.write(line + '\n');
};

function verdictLine(j: ReplayJudgement): string {
  return `verdict: ${j.verdict} (${j.reasons.join('; ')})`;
}

/** What the command takes from its surroundings; tests replace them. */
export interface ReplayDeps {
  /** Is there a person at a terminal (stdin and stdout are TTYs)? */
  isTerminal?: () => boolean;
  /** The replay screen (src/ui/replayTui.tsx), loaded only when used. */
  tui?: (input: ReplayTuiInput & { signal?: AbortSignal }) => Promise<ReplayTuiResult>;
}

/** How long a signal waits for the replay screen to stop its server and restore the terminal. */
const SIGNAL_GRACE_MS = 20_000;

/** The user's profile folder for the history of replayed study profiles. */
function historyDir(runsDir: string): string {
  try {
    const settings = openSettings();
    return userProfilesDir({ profilesDir: settings.get('profiles-dir'), settingsPath: settings.path });
  } catch {
    // An unreadable settings file must not lose the replay's result.
    return join(runsDir, 'profiles');
  }
}

/** Where the record went: the file, nothing (--no-record), or why it could not be written. */
type History = RecordedReplay | null | { error: string };

function historyLine(h: History, file: string): string {
  if (!h) return 'history: not recorded (--no-record)';
  if ('error' in h) return `history: not recorded: ${h.error}`;
  if (!h.separate) return `history: appended to ${h.file}`;
  const what = h.created ? 'a new copy of this study profile in your profile folder' : 'your copy of this study profile';
  return `history: appended to ${h.file} (${what}; ${file} is reference data and stays as it is)`;
}

export default async function main(argv: string[], deps: ReplayDeps = {}): Promise<number> {
  const parsed = parseCommandArgs(
    argv,
    {
      sim: { type: 'boolean' },
      speed: { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      auto: { type: 'boolean' },
      tolerance: { type: 'string' },
      json: { type: 'boolean' },
      'dataset-path': { type: 'string' },
      port: { type: 'string' },
      'ready-timeout': { type: 'string' },
      'runs-dir': { type: 'string' },
      'no-record': { type: 'boolean' },
      'allow-any-command': { type: 'boolean' },
      'allow-env': { type: 'string', multiple: true },
    },
    USAGE,
    true,
  );
  if (!parsed) return 0;
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) throw new UserError(`replay needs one PROFILE file; run 'servelab replay --help'`);
  const file = positionals[0]!;
  const sim = v.sim === true;
  const opts: ReplayOptions = {
    sim,
    speed: num('--speed', v.speed, DEFAULT_SIM_SPEED, 0.001),
    autoSpeed: v.speed === undefined,
    tolerancePct: num('--tolerance', v.tolerance, 5),
    ...(v['dataset-path'] ? { datasetPath: resolve(v['dataset-path']) } : {}),
    readyTimeoutS: num('--ready-timeout', v['ready-timeout'], sim ? DEFAULT_SIM_READY_TIMEOUT_S : DEFAULT_READY_TIMEOUT_S, 1),
    logsDir: '',
    bindHost: '127.0.0.1',
    portStart: num('--port', v.port, 18000, 1024),
    allowAnyCommand: v['allow-any-command'] === true,
    allowEnv: (v['allow-env'] as string[] | undefined) ?? [],
  };
  const json = v.json === true;
  const info = (line: string) => {
    if (!json) process.stderr.write(line + '\n');
  };
  setLogSink(toStderr);

  const profile = loadProfile(file);
  const runsDir = resolve(v['runs-dir'] ?? defaultRunsDir());
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  opts.logsDir = join(runsDir, `replay-${stamp}-${profile.variant.id}`);
  const setup = await prepareReplay(profile, file, opts);

  /** Record the outcome (unless --no-record); the one place both faces record. */
  // A record that cannot be written (a read-only file or folder) must not hide the verdict: it is
  // reported on the history line and the exit code stays the verdict's.
  const finish = (outcome: ReplayOutcome): History => {
    if (v['no-record']) return null;
    try {
      return recordReplay(file, profile, outcome.record, () => historyDir(runsDir));
    } catch (e) {
      return { error: (e as Error).message.split('\n')[0]! };
    }
  };

  const isTerminal = deps.isTerminal ?? (() => process.stdin.isTTY === true && process.stdout.isTTY === true);
  if (!v.auto && !json && !v.yes && isTerminal()) {
    return replayOnScreen(setup, opts, file, finish, deps.tui);
  }

  process.stderr.write(describeSetup(setup) + '\n');
  if (!(await askConsent({ yes: v.yes === true, auto: v.auto === true, what: `replay ${file}` }))) {
    process.stderr.write('servelab: not run\n');
    return EXIT.failed;
  }

  const controller = new AbortController();
  const uninstall = installSignalHandlers({
    onSignal: (signal) => {
      process.stderr.write(`servelab: ${signal}: stopping the server\n`);
      controller.abort();
    },
  });
  let outcome;
  try {
    outcome = await executeReplay(setup, { ...opts, signal: controller.signal, emit: (e) => progress(e, info) });
  } finally {
    uninstall();
  }
  const { result, judgement, record, exitCode } = outcome;
  const history = finish(outcome);
  if (json) {
    process.stdout.write(
      JSON.stringify({
        profile: file,
        verdict: record.verdict,
        exitCode,
        reasons: record.reasons,
        deltas: judgement?.deltas ?? [],
        differences: setup.differences,
        notes: setup.notes,
        argv: setup.spec.argv,
        engineArgv: setup.spec.engineArgv,
        failure: result.failure ?? null,
        clientBound: result.clientBound === true,
        logsDir: opts.logsDir,
        history: history && 'file' in history ? history.file : null,
        ...(history && 'error' in history ? { historyError: history.error } : {}),
      }) + '\n',
    );
    return exitCode;
  }
  if (!judgement) {
    const f = result.failure;
    process.stdout.write(`verdict: failed to ${f?.kind === 'bench-failed' ? 'measure' : 'start'}: ${f?.reason ?? 'unknown'}\n`);
    if (f?.hint) process.stdout.write(`hint: ${f.hint}\n`);
    if (f?.evidence?.length) process.stdout.write(f.evidence.map((l) => `  | ${l}`).join('\n') + '\n');
    process.stdout.write(`server log: ${opts.logsDir}\n`);
    process.stdout.write(historyLine(history, file) + '\n');
    return exitCode;
  }
  process.stdout.write(deltaTable(judgement.deltas) + '\n' + verdictLine(judgement) + '\n');
  for (const n of setup.notes) process.stdout.write(`note: ${n}\n`);
  process.stdout.write(historyLine(history, file) + '\n');
  return exitCode;
}

/**
 * The replay screen: it asks for consent by key, runs and shows the verdict; this records the
 * outcome and returns the exit code exactly as the headless path does.
 */
async function replayOnScreen(
  setup: ReplaySetup,
  opts: ReplayOptions,
  file: string,
  finish: (o: ReplayOutcome) => History,
  tui?: ReplayDeps['tui'],
): Promise<number> {
  const show = tui ?? (await import('../ui/replayTui.js')).replayTui;
  // A line written to the terminal under the screen would break Ink's redraw: the core's
  // warnings wait until the screen has closed.
  const held: string[] = [];
  setLogSink((level, message) => {
    const line = logLine(level, message);
    if (line) held.push(line);
  });
  const external = new AbortController();
  let runError: unknown;
  let screen: Promise<ReplayTuiResult> | undefined;
  const uninstall = installSignalHandlers({
    // SIGTERM/SIGHUP (or a SIGINT sent with kill): the screen stops the server and leaves, then
    // the host's handler stops anything still registered and exits 128+n.
    async onSignal() {
      external.abort();
      const grace = new Promise((r) => setTimeout(r, SIGNAL_GRACE_MS).unref());
      await Promise.race([screen ?? Promise.resolve(), grace]);
    },
  });
  let r: ReplayTuiResult;
  try {
    screen = show({
      setup,
      run: (emit, signal) =>
        executeReplay(setup, { ...opts, emit, signal }).catch((e: unknown) => {
          runError = e;
          throw e;
        }),
      signal: external.signal,
    });
    r = await screen;
  } finally {
    uninstall();
    if (held.length) process.stderr.write(held.join('\n') + '\n');
    setLogSink(toStderr);
  }
  if (!r.consented) {
    process.stderr.write('servelab: not run\n');
    return EXIT.failed;
  }
  if (!r.outcome) {
    if (r.aborted || external.signal.aborted) return exitCodeFor('SIGINT');
    // The screen showed the failure; the command reports it as headless would (an internal error).
    throw runError ?? new Error('the replay ended without a result');
  }
  const history = finish(r.outcome);
  // The screen's last frame stays on the terminal with the verdict; say where it was recorded.
  process.stdout.write(historyLine(history, file) + '\n');
  if (!r.outcome.judgement) process.stdout.write(`server log: ${opts.logsDir}\n`);
  return r.outcome.exitCode;
}
