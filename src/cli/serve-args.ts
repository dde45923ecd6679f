// `servelab serve`'s flags and usage: the strict dialect's table (flags.ts), with the flags every
// profile-launching command shares (profile-flags.ts).
import { PROFILE_RUN_FLAGS } from './profile-flags.js';
import { parseCommandArgs } from './command-args.js';

export const SERVE_USAGE =
  'usage: servelab serve PROFILE [--sim] [--speed S] [--yes] [--auto] [--port N] [--grace S] [--runs-dir DIR] [--allow-any-command] [--allow-env NAME]...';

export const SERVE_FLAGS = {
  ...PROFILE_RUN_FLAGS,
  grace: { kind: 'string' },
  'runs-dir': { kind: 'string' },
  'allow-env': { kind: 'list' },
} as const;

/** serve's flags and positionals, or null when --help was given (the usage is already printed). */
export function parseServeArgs(argv: string[]) {
  return parseCommandArgs(argv, SERVE_FLAGS, SERVE_USAGE, true);
}
