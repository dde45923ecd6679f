// `servelab profiles`'s flags and usage: the strict dialect's table (flags.ts).
import { parseCommandArgs } from './command-args.js';

export const PROFILES_USAGE = 'usage: servelab profiles [--json] [--dir DIR]...';

export const PROFILES_FLAGS = {
  json: { kind: 'boolean' },
  dir: { kind: 'list' },
} as const;

/** profiles's flags, or null when --help was given (the usage is already printed). */
export function parseProfilesArgs(argv: string[]) {
  return parseCommandArgs(argv, PROFILES_FLAGS, PROFILES_USAGE);
}
