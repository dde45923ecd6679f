// `servelab replay`'s flags and usage: the strict dialect's table (flags.ts), with the flags every
// profile-launching command shares (profile-flags.ts), and the values they parse to.
import { parseCommandArgs } from './command-args.js';
import { PROFILE_RUN_FLAGS } from './profile-flags.js';

export const REPLAY_USAGE = `usage: servelab replay PROFILE [--sim] [--speed S] [--yes] [--auto] [--tolerance PCT] [--json]
                       [--dataset-path FILE] [--port N] [--ready-timeout S] [--runs-dir DIR]
                       [--no-record] [--allow-any-command] [--allow-env NAME]... [--sweep | --capacity]

On a terminal (without --auto, --json or --yes) the replay screen shows the command, asks, runs
it live and ends with recorded vs now. The result is appended to the profile's history; a study
profile (servelab's own profiles/) is never written: its replays go to a copy in your profile
folder (setting profiles-dir, else profiles/ beside the settings file). --no-record keeps nothing.
--sweep re-sweeps the profile's recorded load sweep (headless) and compares the frontiers: a drop
of more than --tolerance in tok/s/GPU at the SLO point (without an SLO: at any load) is a regression.
--capacity benchmarks the load the profile's capacity search answered, at its SLO (headless): it
still holds, or it no longer does (a regression).
Exit: 0 ok or faster, 3 regression, 1 failed to start or not run, 2 bad input, 130 interrupted.`;

export const REPLAY_FLAGS = {
  ...PROFILE_RUN_FLAGS,
  tolerance: { kind: 'string' },
  json: { kind: 'boolean' },
  'dataset-path': { kind: 'string' },
  'ready-timeout': { kind: 'string' },
  'runs-dir': { kind: 'string' },
  'no-record': { kind: 'boolean' },
  'allow-env': { kind: 'list' },
  sweep: { kind: 'boolean' },
  capacity: { kind: 'boolean' },
} as const;

export type ReplayFlags = Partial<
  Record<'sim' | 'yes' | 'auto' | 'json' | 'no-record' | 'allow-any-command' | 'sweep' | 'capacity', boolean> &
    Record<'speed' | 'tolerance' | 'dataset-path' | 'port' | 'ready-timeout' | 'runs-dir', string>
> & { 'allow-env'?: string[] };

/** replay's flags and PROFILE, or null when --help was given (the usage is already printed). */
export function parseReplayArgs(argv: string[]): { values: ReplayFlags; positionals: string[] } | null {
  return parseCommandArgs(argv, REPLAY_FLAGS, REPLAY_USAGE, true);
}
