// The flag parsing every small sub-command shares: the strict dialect over its table (flags.ts),
// `--help` printing the usage, and a parse error turned into one line that ends with the usage.
import { parseStrict, type FlagTable } from './flags.js';

const HELP = { help: { kind: 'boolean', short: 'h' } } as const;

/** Parsed flags and positionals, or null when --help was given (the usage is already printed). */
export function parseCommandArgs<const T extends FlagTable>(argv: string[], table: T, usage: string, allowPositionals = false) {
  const parsed = parseStrict(argv, { ...table, ...HELP }, { allowPositionals, hint: (m) => `${m}; ${usage.split('\n')[0]}` });
  if (parsed.values.help) {
    process.stdout.write(usage + '\n');
    return null;
  }
  return parsed;
}
