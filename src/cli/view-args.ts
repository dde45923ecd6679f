// `servelab view`'s flags and usage: the strict dialect's table (flags.ts); its errors name the
// command and point at its --help.
import { parseStrict } from './flags.js';

export const VIEW_USAGE = `Usage: servelab view RUN_DIR [--auto | --json]

Show a run again from its journal (RUN_DIR/events.jsonl): the stage tables, gains, references,
winner and validation, exactly as the run showed them. A run that stopped before it finished
is marked interrupted and shows what it measured.
  --auto   print the summary as text (the default when not on a terminal)
  --json   print the view as JSON`;

export const VIEW_FLAGS = { auto: { kind: 'boolean' }, json: { kind: 'boolean' }, help: { kind: 'boolean', short: 'h' } } as const;

/** view's flags and RUN_DIR, or null when --help was given (the usage is already printed). */
export function parseViewArgs(argv: string[]) {
  const parsed = parseStrict(argv, VIEW_FLAGS, {
    allowPositionals: true,
    hint: (m) => `view: ${m}. Run 'servelab view --help'.`,
  });
  if (parsed.values.help) {
    process.stdout.write(VIEW_USAGE + '\n');
    return null;
  }
  return parsed;
}
