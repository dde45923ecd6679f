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
import { optionalNumberArg } from '../core/number-arg.js';
import { setLogSink } from '../core/logger.js';
import { logLine, stderrSink } from './log-sink.js';
import { openSettings } from '../core/settings.js';
import { exitCodeFor, installSignalHandlers } from '../host/signals.js';
import { DEFAULT_READY_TIMEOUT_S, DEFAULT_SIM_READY_TIMEOUT_S, DEFAULT_SIM_SPEED } from '../tune/config/config.js';
import type { TuneEvent } from '../core/events.js';
import { progressLine } from '../cli/text.js';
import { recordReplay, userProfilesDir } from '../profiles/store/history.js';
import { describeSetup, historyLine, outcomeJson, outcomeText, type History } from './replay-text.js';
import { EXIT, executeReplay, prepareReplay, type ReplayOptions, type ReplayOutcome, type ReplaySetup } from '../tune/replay/replay.js';
import { loadProfile } from '../profiles/store/store.js';
import type { ReplayTuiInput, ReplayTuiResult } from '../screens/ReplayScreen.js';
import { askConsent } from './consent.js';
import { replaySweepHeadless } from './replay-sweep.js';
import { recordedCapacity, replayCapacityHeadless } from './replay-capacity.js';
import { recordedSweep } from '../tune/replay/replay-sweep.js';
import { parseReplayArgs, type ReplayFlags } from '../cli/replay-args.js';
import { PROFILE_PORT } from '../host/ports.js';

function num(flag: string, text: string | undefined, fallback: number, min = 0): number {
  return optionalNumberArg(flag, text, { min }) ?? fallback;
}

const toStderr = stderrSink('servelab: ');

/** What the command takes from its surroundings; tests replace them. */
export interface ReplayDeps {
  /** Is there a person at a terminal (stdin and stdout are TTYs)? */
  isTerminal?: () => boolean;
  /** The replay screen (src/screens/ReplayScreen.tsx), loaded only when used. */
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

function replayOptions(v: ReplayFlags, logsDir: string): ReplayOptions {
  const sim = v.sim === true;
  return {
    sim,
    speed: num('--speed', v.speed, DEFAULT_SIM_SPEED, 0.001),
    autoSpeed: v.speed === undefined,
    tolerancePct: num('--tolerance', v.tolerance, 5),
    ...(v['dataset-path'] ? { datasetPath: resolve(v['dataset-path']) } : {}),
    readyTimeoutS: num('--ready-timeout', v['ready-timeout'], sim ? DEFAULT_SIM_READY_TIMEOUT_S : DEFAULT_READY_TIMEOUT_S, 1),
    logsDir,
    bindHost: '127.0.0.1',
    portStart: num('--port', v.port, PROFILE_PORT, 1024),
    allowAnyCommand: v['allow-any-command'] === true,
    allowEnv: (v['allow-env'] as string[] | undefined) ?? [],
  };
}

/** Without the screen: the setup on stderr, consent, progress lines, then the outcome on stdout. */
async function replayHeadless(
  setup: ReplaySetup,
  opts: ReplayOptions,
  v: ReplayFlags,
  file: string,
  finish: (o: ReplayOutcome) => History,
): Promise<number> {
  const json = v.json === true;
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
  // The tuning run's progress lines (src/cli/text.ts), without their indent.
  const emit = (e: TuneEvent) => {
    const line = progressLine(e);
    if (line !== null && !json) process.stderr.write(line.trim() + '\n');
  };
  let outcome: ReplayOutcome;
  try {
    outcome = await executeReplay(setup, { ...opts, signal: controller.signal, emit });
  } finally {
    uninstall();
  }
  const history = finish(outcome);
  process.stdout.write(
    json ? outcomeJson(setup, outcome, history, file, opts.logsDir) : outcomeText(setup, outcome, history, file, opts.logsDir),
  );
  return outcome.exitCode;
}

export default async function main(argv: string[], deps: ReplayDeps = {}): Promise<number> {
  const parsed = parseReplayArgs(argv);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const v = values;
  if (positionals.length !== 1) throw new UserError(`replay needs one PROFILE file; run 'servelab replay --help'`);
  const file = positionals[0]!;
  setLogSink(toStderr);
  const profile = loadProfile(file);
  if (v.sweep && v.capacity) throw new UserError('give --sweep or --capacity, not both');
  if (v.sweep) recordedSweep(profile, file);
  if (v.capacity) recordedCapacity(profile, file);
  const runsDir = resolve(v['runs-dir'] ?? defaultRunsDir());
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const opts = replayOptions(v, join(runsDir, `replay-${stamp}-${profile.variant.id}`));
  const setup = await prepareReplay(profile, file, opts);
  // A sweep replay compares frontiers; it is not a point in the profile's replay history.
  if (v.sweep) return replaySweepHeadless(setup, opts, v, file);
  if (v.capacity) return replayCapacityHeadless(setup, opts, v, file);

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
  if (!v.auto && !v.json && !v.yes && isTerminal()) return replayOnScreen(setup, opts, file, finish, deps.tui);
  return replayHeadless(setup, opts, v, file, finish);
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
  const show = tui ?? (await import('../screens/ReplayScreen.js')).replayTui;
  // A line written to the terminal under the screen would break Ink's redraw: the core's
  // warnings wait until the screen has closed.
  const held: string[] = [];
  setLogSink((level, message) => {
    const line = logLine(level, message, 'servelab: ');
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
