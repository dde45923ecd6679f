// `servelab export`'s flags and usage: the strict dialect's table (flags.ts).
import { EXPORT_FORMATS } from '../profiles/export/render.js';
import { parseCommandArgs } from './command-args.js';

export const EXPORT_USAGE = `usage: servelab export PROFILE --format ${EXPORT_FORMATS.join('|')} [--out FILE] [--allow-any-command] [--allow-env NAME]...`;

export const EXPORT_FLAGS = {
  format: { kind: 'string', short: 'f' },
  out: { kind: 'string', short: 'o' },
  'allow-any-command': { kind: 'boolean' },
  'allow-env': { kind: 'list' },
} as const;

/** export's flags and positionals, or null when --help was given (the usage is already printed). */
export function parseExportArgs(argv: string[]) {
  return parseCommandArgs(argv, EXPORT_FLAGS, EXPORT_USAGE, true);
}
