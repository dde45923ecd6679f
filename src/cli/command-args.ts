// The flag parsing every small sub-command shares: node's strict parseArgs, `--help` printing the
// usage, and a parse error turned into one line that ends with the usage.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseArgsMessage, UserError } from '../core/errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/** Parsed flags and positionals, or null when --help was given (the usage is already printed). */
export function parseCommandArgs<const O extends Options>(argv: string[], options: O, usage: string, allowPositionals = false) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, ...HELP }, strict: true, allowPositionals });
  } catch (e) {
    throw new UserError(`${parseArgsMessage(e)}; ${usage.split('\n')[0]}`);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(usage + '\n');
    return null;
  }
  return parsed;
}
